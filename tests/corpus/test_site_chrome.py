"""What a site's pages repeat is chrome, learned by comparing them, and nothing else is: a
line of chrome is compared with its numbers masked, but a line that is only a number is no
such line. The cases are the structures of docutils' own documentation (docutils-doc)."""

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
