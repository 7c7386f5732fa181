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


# A site whose every page holds, inside its content, a side menu listing every page's title
# and top-level sections as links: lxml's documentation (Debian's python-lxml-doc), which
# Docutils' html4css1 writer builds through lxml's own mkhtml.py. The title of one page
# ("lxml.objectify") is a menu entry itself.
_MENU_PAGES = {
    "validation": ("Validation with lxml", ["DTD", "RelaxNG", "XMLSchema"]),
    "objectify": ("lxml.objectify", ["The lxml.objectify API", "ObjectPath"]),
    "tutorial": ("The lxml.etree Tutorial", ["The Element class", "Serialisation"]),
    "parsing": ("Parsing XML and HTML with lxml", ["Parsers", "Python unicode strings"]),
    "xpathxslt": ("XPath and XSLT with lxml", ["XPath", "XSLT"]),
    "performance": ("Benchmarks and Speed", ["XPath", "lxml.objectify"]),
}


def _anchor(heading: str) -> str:
    return heading.lower().replace(" ", "-").replace(".", "-")


def _menu_page(name: str, after: str = "") -> str:
    """A page as lxml's mkhtml.py builds it: ``div.document`` holding the side menu (every
    page's title and its top-level sections, as links), a banner, the page's title, an opening
    paragraph, and each section a ``div.section`` whose heading is an ``h1``, then ``after``;
    the footer line every page ends with."""
    menu = "".join(
        f'<ul class="menu"><li class="menu title"><a href="{page}.html">{title}</a>'
        f'<ul class="submenu">'
        + "".join(
            f'<li class="menu item"><a href="{page}.html#{_anchor(h)}">{h}</a></li>'
            for h in headings
        )
        + "</ul></li></ul>"
        for page, (title, headings) in _MENU_PAGES.items()
    )
    title, headings = _MENU_PAGES[name]
    sections = "".join(
        f'<div class="section" id="{_anchor(h)}"><h1>{h}</h1>'
        f"<p>What {h} on the {name} page says, in words of its own.</p></div>"
        for h in headings
    )
    banner = """<div class="banner"><div class="banner_image"><img src="title.png" /></div>
    <div class="banner_link"><a href="index.html#support">Like the tool? <br />Help making it
    better!</a></div></div>"""
    return f"""<html><head><title>{title}</title></head><body>
    <div class="document" id="{_anchor(title)}">
    <div class="sidemenu" id="sidemenu"><div class="menutrigger">Menu</div>
    <div class="menu">{banner}<ul><li><span class="section title">Developing with lxml</span>
    {menu}</li></ul></div></div>{banner}<h1 class="title">{title}</h1>
    <p>The opening of the {name} page, before its first section.</p>{sections}{after}
    <p>Generated on 2024-0{len(name) % 9 + 1}-12 from the reStructuredText sources.</p>
    </div></body></html>"""


def test_a_heading_whose_words_are_a_line_of_the_side_menu_keeps_its_section(
    tmp_path: Path,
) -> None:
    documents = _ingest(tmp_path, {f"{name}.html": _menu_page(name) for name in _MENU_PAGES})
    for name, (title, headings) in _MENU_PAGES.items():
        # The page's title, "lxml.objectify" a menu line on every page, still titles the
        # page's opening, which is no banner above it.
        assert documents[name].title == title
        assert documents[name].text == (
            f"{title}\n\nThe opening of the {name} page, before its first section."
        )
        for heading in headings:
            section = documents[f"{name}#{_anchor(heading)}"]
            assert section.title == f"{title} › {heading}"
            assert section.text == (
                f"{heading}\n\nWhat {heading} on the {name} page says, in words of its own."
            )
    assert documents["validation#relaxng"].url == "https://docs.example.org/validation.html#relaxng"
    assert len(documents) == len(_MENU_PAGES) + sum(len(h) for _, h in _MENU_PAGES.values())


def test_the_side_menus_own_lines_and_a_repeated_footer_line_are_still_chrome(
    tmp_path: Path,
) -> None:
    documents = _ingest(tmp_path, {f"{name}.html": _menu_page(name) for name in _MENU_PAGES})
    entries = {title for title, _ in _MENU_PAGES.values()}
    entries.update(heading for _, headings in _MENU_PAGES.values() for heading in headings)
    for document in documents.values():
        for line in ("Menu", "Developing with lxml", "Like the tool?", "Generated on"):
            assert line not in document.text
        # A menu entry is a line of a document only as its own heading, its first line.
        assert not entries.intersection(document.text.splitlines()[1:])


def test_a_list_item_of_plain_text_that_a_menu_links_is_no_chrome(tmp_path: Path) -> None:
    # lxml's FAQ.html, "What standards does lxml implement?": its standards a list of plain
    # text, "RelaxNG" and "XSLT" among them, each a link of the side menu on every page.
    standards = """<div class="section" id="standards"><h1>Standards</h1><p>The important
    ones are:</p><ul class="simple"><li>XML 1.0</li><li>RelaxNG</li><li>XSLT</li>
    <li><a href="validation.html#xmlschema">XMLSchema</a></li></ul></div>"""
    pages = {f"{name}.html": _menu_page(name) for name in _MENU_PAGES}
    pages["validation.html"] = _menu_page("validation", standards)
    documents = _ingest(tmp_path, pages)
    # Where it stands as the menu's entries stand, a link in a list, it is still chrome.
    assert documents["validation#standards"].text == (
        "Standards\n\nThe important ones are:\n\nXML 1.0\nRelaxNG\nXSLT"
    )
