"""Pages, files and bars a published site holds for its server, its crawlers and its theme,
not for its subject: the page a host answers a missing address with, the robots file, a
version bar outside the content of a page without headings, and the banner above the
title of a page read whole. The cases are the structures of MkDocs' readthedocs theme, of
the not-found pages MkDocs and sphinx-notfound-page write, and of Doxygen's member lists
(python-mintpy-doc, pytest's documentation, libsigc++-3.0-doc as Debian installs them)."""

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


def _reference_list(
    banner: str, trail: str, shown: str, text: str, title: str = "Member List"
) -> str:
    """A page as Doxygen builds a class's member list: no heading and no element marking
    the content; the project's name and number, a trail of links to the page's parents,
    then the title in a ``<div>`` and the list. (The ``<title>`` is the page's part of it:
    the project's name before it is the site profile's to take off.)"""
    return f"""<html><head><title>{title}</title></head><body>
    <div id="top"><div id="titlearea"><table><tr><td><div id="projectname">{banner}</div>
    </td></tr></table></div><div id="nav-path"><ul>{trail}</ul></div></div>
    <div class="header"><div class="headertitle"><div class="title">{shown}</div></div></div>
    <div class="contents">{text}</div>
    </body></html>"""


_TRAIL = (
    '<li><a href="namespacefoo.html">foo</a></li><li><a href="classfoo_1_1bar.html">bar</a></li>'
)
_LIST = "<p>This is the complete list of members for foo::bar, with inherited members.</p>"


def test_a_page_without_headings_opens_at_the_line_that_shows_its_title() -> None:
    page = _reference_list("libfoo 3.4.0", _TRAIL, "foo::bar&lt; T &gt; Member List", _LIST)
    [document] = _documents(page, "classfoo_1_1bar-members.html")
    assert document.title == "foo::bar< T > Member List"
    assert document.text == (
        "foo::bar< T > Member List\n\n"
        "This is the complete list of members for foo::bar, with inherited members."
    )


def test_a_page_that_is_only_its_banner_and_title_is_counted_as_headings_only() -> None:
    title = "T_func Class Reference"
    page = _reference_list("libfoo 3.4.0", "", title, "", title=title)
    assert _read(page, "classT__func.html") == [Omitted("pages with headings only", 1)]


def test_prose_above_the_line_that_shows_the_title_stays_the_pages_text() -> None:
    # A sentence above the title is no banner: the page is read whole, as before.
    prose = "Read this list of members before you derive a class of your own from it."
    page = _reference_list(prose, "", "foo::bar Member List", _LIST)
    [document] = _documents(page, "classfoo_1_1bar-members.html")
    assert document.title == "Member List"
    assert document.text.startswith(prose)


def test_a_page_with_headings_keeps_the_lines_above_its_first_heading_as_before() -> None:
    page = """<html><head><title>Member List</title></head><body><div>
    <p>libfoo 3.4.0</p><div>Member List</div><h2>Functions</h2>
    <p>Every function of the class, in the order of its header.</p></div></body></html>"""
    texts = [d.text for d in _documents(page, "members.html")]
    assert "libfoo 3.4.0" in texts[0]


def test_the_robots_file_at_the_root_is_counted_not_indexed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "examples").mkdir(parents=True)
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /cvstrac/dir\n", "utf-8")
    # One a guide shows as an example, below the root, is the guide's text.
    (site / "examples" / "robots.txt").write_text(
        "An example robots file\n\nUser-agent: *\nDisallow: /private/\n", "utf-8"
    )
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        report = corpus.ingest(site)
        titles = [document.title for document in corpus.documents()]
    assert titles == ["An example robots file"]
    assert report.omitted == {"robots files for crawlers": 1}
