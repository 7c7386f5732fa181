"""Pages and bars a published site holds for its server and its theme, not for its subject:
the page a host answers a missing address with, and a version bar outside the content of a
page without headings. The cases are the structures of MkDocs' readthedocs theme and of
the not-found pages MkDocs and sphinx-notfound-page write (python-mintpy-doc, pytest's
documentation as Debian installs them)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus, Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted


def _read(source: str, relative: str) -> list[object]:
    origin = SourceFile(Path(relative), relative.removesuffix(".html"), relative)
    return list(html.read(source, origin))


def _documents(source: str, relative: str) -> list[Document]:
    return [item for item in _read(source, relative) if isinstance(item, Document)]


def _not_found(words: str) -> str:
    return f"""<html><head><title>Page Not Found</title></head><body>
    <nav><a href="index.html">Home</a></nav><div role="main"><h1>Page Not Found</h1>
    <p>{words}</p></div></body></html>"""


def test_the_page_for_a_missing_address_at_the_sites_root_is_counted_not_indexed() -> None:
    page = _not_found("The page you requested does not exist. Go to the overview or search.")
    assert _read(page, "404.html") == [Omitted("pages for a missing address", 1)]


def test_a_page_named_404_below_the_root_is_read() -> None:
    # A web framework's guide may have a page on its own 404 handling, in a folder.
    page = _not_found("Raise Http404 from a view to answer a missing object.")
    assert [d.title for d in _documents(page, "topics/404.html")] == ["Page Not Found"]


def test_a_404_page_at_the_root_that_says_a_pages_worth_is_read() -> None:
    words = " ".join(["A site may document how its server answers a missing address."] * 8)
    assert [d.title for d in _documents(_not_found(words), "404.html")] == ["Page Not Found"]


def test_an_ingest_reports_the_not_found_page_it_left_out(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "404.html").write_text(_not_found("Page not found."), "utf-8")
    (site / "index.html").write_text(
        """<html><head><title>Guide</title></head><body><div role="main"><h1>Guide</h1>
        <p>How to use the tool.</p></div></body></html>""",
        "utf-8",
    )
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        report = corpus.ingest(site, base_url="https://docs.example.org/")
        titles = [document.title for document in corpus.documents()]
    assert titles == ["Guide"]
    assert report.omitted == {"pages for a missing address": 1}


def _readthedocs_page(text: str, heading: str = "") -> str:
    """A page as MkDocs' readthedocs theme builds it: a side menu, the content marked
    twice (``role=main`` around ``itemprop=articleBody``), a footer, and the version bar
    after everything."""
    return f"""<html><head><title>QGIS - MintPy</title></head><body>
    <nav class="side"><ul><li><a href="index.html">Home</a></li>
    <li><a href="QGIS.html">QGIS</a></li></ul></nav>
    <section><div role="main" class="document"><div class="section" itemprop="articleBody">
    {heading}{text}</div></div><footer><p>Built with MkDocs.</p></footer></section>
    <div class="versions" role="note"><span><a href="https://example.org/">GitHub</a></span>
    <span><a href="hdfeos5.html">&laquo; Previous</a></span>
    <span><a href="api.html">Next &raquo;</a></span></div></body></html>"""


def test_a_page_without_headings_inside_two_nested_content_markers_is_read_without_its_bars() -> (
    None
):
    text = "<p>Displacement time-series can be exported for the QGIS viewer.</p>"
    documents = _documents(_readthedocs_page(text), "QGIS.html")
    assert [d.text for d in documents] == [
        "Displacement time-series can be exported for the QGIS viewer."
    ]


def test_a_page_with_a_heading_inside_the_same_markers_reads_as_before() -> None:
    text = "<p>Displacement time-series can be exported for the QGIS viewer.</p>"
    page = _readthedocs_page(text, heading="<h1>QGIS</h1>")
    documents = _documents(page, "QGIS.html")
    assert [d.text for d in documents] == [
        "QGIS\n\nDisplacement time-series can be exported for the QGIS viewer."
    ]


def test_articles_side_by_side_on_a_page_without_headings_are_not_one_of_them() -> None:
    # Two markers that do not nest: neither is the page's content, which stays the body's.
    page = """<html><head><title>News</title></head><body>
    <article><p>The first release is out.</p></article>
    <article><p>The second release fixes the installer.</p></article></body></html>"""
    text = _documents(page, "news.html")[0].text
    assert "first release" in text and "second release" in text
