"""A page's place in its site's reading order: the bar of links to the pages before and after
it that closes its content (the PyData Sphinx theme's, as SciPy's and Groonga's manuals ship
it), and the line of links groff's HTML output opens and closes every page with. The
fixtures are hand-written in those generators' shapes."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "tutorial/optimize") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _page(head: str, article: str, bar: str) -> str:
    """A page in the PyData theme's shape: the article, then the bar, inside ``<main>``."""
    return f"""<!DOCTYPE html><html><head><title>Optimization — SciPy Manual</title>{head}
</head><body><nav class="bd-sidebar"><a href="../index.html">Home</a></nav>
<main class="bd-content" role="main"><div><section id="optimization">
<h1>Optimization</h1>
<p>The minimize function provides a common interface to unconstrained and constrained
minimization algorithms for multivariate scalar functions.</p>
{article}
</section></div>
{bar}
</main></body></html>"""


_NEIGHBOURS = """<link rel="index" title="Index" href="../genindex.html" />
<link rel="next" title="Interpolation" href="interpolate.html" />
<link rel="prev" title="Integration" href="integrate.html" />"""

_PREVIOUS_NEXT = """<div class='prev-next-area'>
<a class='left-prev' id="prev-link" href="integrate.html" title="previous page">
<div class="prev-next-info"><p class="prev-next-subtitle">previous</p>
<p class="prev-next-title">Integration (<code>scipy.integrate</code>)</p></div></a>
<a class='right-next' id="next-link" href="interpolate.html" title="next page">
<div class="prev-next-info"><p class="prev-next-subtitle">next</p>
<p class="prev-next-title">Interpolation (<code>scipy.interpolate</code>)</p></div></a>
</div>"""


def test_a_closing_bar_of_links_to_the_pages_the_head_names_before_and_after_is_no_text() -> None:
    (page,) = _read(_page(_NEIGHBOURS, "", _PREVIOUS_NEXT))
    assert page.text.endswith("multivariate scalar functions.")
    assert "Interpolation" not in page.text and "previous" not in page.text


def test_a_closing_bar_of_links_that_say_they_lead_back_and_on_is_no_text() -> None:
    bar = """<div class="footer-buttons"><a rel="prev" href="integrate.html">Previous</a>
<a rel="next" href="interpolate.html">Next</a> <a href="../index.html">Home</a></div>"""
    head = '<link rel="start" href="../index.html">'
    (page,) = _read(_page(head, "", bar))
    assert page.text.endswith("multivariate scalar functions.")


def test_the_first_pages_closing_link_to_the_page_after_it_is_no_text() -> None:
    head = '<link rel="next" title="Interpolation" href="interpolate.html" />'
    bar = """<div class='prev-next-area'><a class='right-next' href="interpolate.html">
<p>next</p><p>Interpolation</p></a></div>"""
    (page,) = _read(_page(head, "", bar))
    assert page.text.endswith("multivariate scalar functions.")


def test_a_section_that_ends_with_a_list_of_links_to_other_pages_keeps_it() -> None:
    see_also = """<p>See also:</p><ul><li><a href="interpolate.html">Interpolation</a></li>
<li><a href="linalg.html">Linear algebra</a></li></ul>"""
    (page,) = _read(_page(_NEIGHBOURS, see_also, ""))
    assert page.text.endswith("See also:\n\nInterpolation\nLinear algebra")


def test_a_closing_link_to_the_next_page_alone_stays_where_a_page_comes_before_it() -> None:
    # Sphinx's next page of a chapter is its first child, which a toctree of one entry lists.
    toctree = """<div class="toctree-wrapper"><ul>
<li><a href="interpolate.html">Interpolation</a></li></ul></div>"""
    (page,) = _read(_page(_NEIGHBOURS, toctree, ""))
    assert page.text.endswith("Interpolation")


def test_a_closing_sentence_that_links_the_pages_before_and_after_stays_text() -> None:
    sentence = """<p>Read <a href="integrate.html">integration</a> first, then go on with
<a href="interpolate.html">interpolation</a> for the splines.</p>"""
    (page,) = _read(_page(_NEIGHBOURS, sentence, ""))
    assert page.text.endswith("go on with interpolation for the splines.")


def test_a_page_that_declares_no_neighbours_keeps_a_closing_bar() -> None:
    bar = """<div><a href="integrate.html">previous</a> <a href="interpolate.html">next</a></div>"""
    (page,) = _read(_page("", "", bar))
    assert page.text.endswith("previous next")


def _groff(text: str) -> str:
    """A page of groff's HTML output (``groff -Thtml``, split at its headings): a line of links
    loose in the body between two rules above the heading, and the same below the text."""
    bar = """<hr>
[ <a href="pic-2.html">prev</a> | <a href="pic-4.html">next</a> | <a href="pic.html">top</a> ]
<hr>"""
    return f"""<!-- Creator     : groff version 1.22.4 -->
<html><head><meta name="generator" content="groff -Thtml, see www.gnu.org">
<title>pic-3.html</title></head>
{bar}
<h2>3. Basic PIC Concepts
<a name="3. Basic PIC Concepts"></a></h2>
<p style="margin-top: 1em">Pictures are described procedurally, as collections of objects
connected by motions.</p>
{text}
{bar}
</html>"""


def test_a_line_of_links_loose_before_the_first_heading_is_navigation() -> None:
    (page,) = _read(_groff(""), "pic-3")
    assert page.title == "3. Basic PIC Concepts"
    assert page.text.startswith("3. Basic PIC Concepts\n\nPictures are described")


def test_the_same_line_of_links_closing_the_page_is_navigation_too() -> None:
    (page,) = _read(_groff(""), "pic-3")
    assert page.text.endswith("connected by motions.")


def test_a_closing_line_that_links_other_pages_than_the_opening_one_stays_text() -> None:
    closing = """<p>The next chapter, <a href="pic-4.html">General syntax</a>, and the
<a href="pic-9.html">index</a> say more.</p>"""
    documents = _read(_groff(closing), "pic-3")
    assert "General syntax, and the index say more." in documents[-1].text


def test_a_loose_line_of_prose_with_links_before_the_first_heading_stays_text() -> None:
    source = """<html><head><title>pic</title></head>
This manual describes <a href="pic.html">pic</a>, a preprocessor of
<a href="groff.html">groff</a> that draws pictures from a description of them.
<h2>1. Introduction</h2><p>Pictures are described procedurally.</p></html>"""
    documents = _read(source, "pic")
    assert "a preprocessor of groff that draws pictures" in documents[0].text


def test_a_page_closing_with_twenty_thousand_links_to_its_neighbours_is_read_in_one_pass() -> None:
    # Each bar judged with every bar after it would cost the page's size a thousand times.
    links = '<a href="integrate.html">previous</a> <a href="interpolate.html">next</a> ' * 10
    (page,) = _read(_page(_NEIGHBOURS, "", f"<div>{links}</div>" * 1_000))
    assert page.text.endswith("multivariate scalar functions.")
