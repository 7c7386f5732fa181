"""What a site's pages repeat is chrome, learned by comparing them, and nothing else is: a
line of chrome is compared with its numbers masked, but a line that is only a number is no
such line; a heading every page holds outside its content is chrome, one inside each page's
content is not. The cases are the structures of docutils' own documentation (docutils-doc)
and of current mdBook (the Cargo Book as rustup's rust-docs 1.95 installs it)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus, Document


def _ingest(tmp_path: Path, pages: dict[str, str]) -> dict[str, Document]:
    site = tmp_path / "site"
    site.mkdir()
    for name, page in pages.items():
        (site / name).write_text(page, "utf-8")
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        corpus.ingest(site, base_url="https://docs.example.org/")
        return {document.id: document for document in corpus.documents()}


def _docutils_page(topic: str, revision: int, body: str) -> str:
    """A page as docutils' html4 writer builds it (no element marks the content): its
    title, its docinfo (a revision number alone in its cell, a date, the version every page
    shows), its text, a footnote as GNU Texinfo writes them, and the line every page ends
    with."""
    return f"""<html><head><title>{topic}</title></head><body><div class="document">
    <h1 class="title">{topic}</h1><table class="docinfo"><tbody>
    <tr><th>Revision:</th><td>{revision}</td></tr>
    <tr><th>Date:</th><td>2022-0{revision % 9 + 1}-1{revision % 7}</td></tr>
    <tr><th>Version:</th><td>0.19</td></tr></tbody></table>
    <p>What {topic} does, in words of its own<a href="#FOOT1">(1)</a>.</p>{body}
    <h5><a id="FOOT1" href="#DOCF1">(1)</a></h5><p>A note on {topic}.</p>
    <p>Last changed on 2022-0{revision % 9 + 1}-0{revision % 7} by the docutils team.</p>
    </div></body></html>"""


def test_a_line_of_numbers_is_no_chrome_and_a_repeated_line_of_words_is(
    tmp_path: Path,
) -> None:
    # docutils-doc's docs/api/transforms.html: each transform's priority, and the From and
    # To of each priority range, alone in their cells, as each page's revision number is.
    priorities = """<h2>Transform Priority Range Categories</h2><table>
    <tr><th>From</th><th>To</th><th>Category</th></tr>
    <tr><td>0</td><td>99</td><td>immediate execution</td></tr>
    <tr><td>100</td><td>199</td><td>very early</td></tr></table>"""
    topics = ["transforms", "parsers", "readers", "writers", "frontend", "nodes"]
    pages = {
        f"{topic}.html": _docutils_page(topic, 9051 + index, priorities if index == 0 else "")
        for index, topic in enumerate(topics)
    }
    documents = _ingest(tmp_path, pages)
    ranges = next(d for d in documents.values() if d.title.endswith("Range Categories"))
    assert "From\nTo\nCategory\n\n0\n99\nimmediate execution\n\n100\n199\nvery early" in (
        ranges.text
    )
    for topic in topics:
        # Every page's first footnote, "(1)" on each, is a section at its own address.
        assert documents[f"{topic}#FOOT1"].text == f"(1)\n\nA note on {topic}."
        assert "\n0.19\n" in documents[topic].text  # the version each page shows
    for document in documents.values():
        # A line of words every page repeats is chrome, whatever its numbers.
        assert "Last changed on" not in document.text


def _mdbook_page(main: str) -> str:
    """A page as current mdBook (0.5, the Cargo Book of Rust 1.95) builds it: a keyboard
    help popup before everything, hidden by the style sheet alone; the menu bar's ``h1``,
    the book's name; then ``<main>``."""
    return f"""<html><head><title>Page - The Cargo Book</title></head><body>
    <div id="mdbook-help-container"><div id="mdbook-help-popup">
    <h2 class="mdbook-help-title">Keyboard shortcuts</h2><div>
    <p>Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book</p></div></div></div>
    <div id="mdbook-body-container"><nav class="sidebar"><ol><li>Commands</li></ol></nav>
    <div class="page-wrapper"><div id="mdbook-menu-bar" class="menu-bar">
    <h1 class="menu-title">The Cargo Book</h1></div>
    <div id="mdbook-content" class="content"><main>{main}</main></div></div></div>
    </body></html>"""


def test_a_heading_every_page_holds_outside_its_content_starts_no_section(
    tmp_path: Path,
) -> None:
    pages = {
        "index.html": _mdbook_page(
            """<h1 id="the-cargo-book">The Cargo Book</h1><p>Cargo is the Rust package
            manager.</p><h2 id="sections">Sections</h2><p>Getting started.</p>"""
        ),
        "removed.html": _mdbook_page(
            """<h2 id="removed">Deprecated and Removed Commands</h2><p>These commands have
            been removed.</p>"""
        ),
    }
    for name in ("build", "check", "clean", "doc", "fetch"):
        pages[f"{name}.html"] = _mdbook_page(
            f"""<h1 id="cargo-{name}">cargo {name}</h1><p>What cargo {name} does.</p>
            <h2 id="examples">Examples</h2><p>Run cargo {name} at the top.</p>"""
        )
    documents = _ingest(tmp_path, pages)
    titles = {document.id: document.title for document in documents.values()}
    assert titles["index"] == "The Cargo Book"  # the menu bar's name is this page's title
    assert titles["index#sections"] == "The Cargo Book › Sections"
    assert titles["removed"] == "Deprecated and Removed Commands"
    # A heading every page holds inside its content still starts a section on each.
    assert titles["build#examples"] == "cargo build › Examples"
    for document in documents.values():
        assert "Keyboard" not in document.title and "search in the book" not in document.text
