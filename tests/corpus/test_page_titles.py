"""A page's title block and its headings' words as a reader reads them: a label line above
the title (Javadoc 9+'s package), a header of two headings (gi-docgen's kind and name), a
header placed as a banner that holds the page's own title (odoc's preamble), and a
bracketed link to another page ending a heading ("[src]": Node.js's and gi-docgen's). The
fixtures are hand-written in those generators' shapes."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "page") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _javadoc(above: str) -> str:
    """A class page in Javadoc 9+'s shape: the banner's menus, then ``<main>`` with a line
    above the class's title, its description and a section of its methods."""
    return f"""<!DOCTYPE HTML><html lang="en"><head>
<title>StringUtils (Apache Commons Lang 3.12.0 API)</title>
<meta name="generator" content="javadoc/ClassWriterImpl"></head>
<body class="class-declaration-page"><div class="flex-box">
<header role="banner" class="flex-header"><nav><ul id="navbar-top-firstrow">
<li><a href="package-summary.html">Package</a></li><li class="nav-bar-cell1-rev">Class</li>
</ul></nav></header>
<div class="flex-content"><main role="main">
<div class="header">{above}
<h1 title="Class StringUtils" class="title">Class StringUtils</h1></div>
<section class="class-description" id="class-description">
<div class="block">Operations on String that are null safe.</div></section>
<section class="method-details" id="method-detail"><h2>Method Details</h2>
<section class="detail" id="isEmpty(java.lang.CharSequence)"><h3>isEmpty</h3>
<div class="block">Checks if a CharSequence is empty ("") or null.</div></section>
</section></main></div></div></body></html>"""


_PACKAGE = """<div class="sub-title"><span class="package-label-in-type">Package</span>&nbsp;<a
href="package-summary.html">org.apache.commons.lang3</a></div>"""


def test_a_label_line_above_the_title_is_the_titles_text_not_a_section_of_its_own() -> None:
    documents = _read(_javadoc(_PACKAGE), "org/apache/commons/lang3/StringUtils")
    assert [d.title for d in documents] == [
        "Class StringUtils",
        "Class StringUtils › Method Details › isEmpty",
    ]
    assert documents[0].id == "org/apache/commons/lang3/StringUtils"
    assert documents[0].text.startswith(
        "Class StringUtils\n\nPackage org.apache.commons.lang3\n\nOperations on String"
    )


def test_a_sentence_above_the_title_stays_apart_from_it() -> None:
    notice = "<p>This class will be removed in the next release: use Strings instead.</p>"
    documents = _read(_javadoc(notice), "org/apache/commons/lang3/StringUtils")
    assert documents[0].text == notice[3:-4]
    assert documents[1].text.startswith("Class StringUtils\n\nOperations on String")


def _gi_docgen(header: str) -> str:
    """A symbol's page in gi-docgen's shape: a sidebar, then ``<section id="main">`` opening
    with a header, then the symbol's parts under ``h4`` headings."""
    return f"""<!DOCTYPE html><html lang="en"><head><title>Gsk.RoundedRect.intersects_rect</title>
</head><body><div id="body-wrapper"><nav><div class="section"><h3><a href="index.html">Gsk</a>
</h3></div></nav>
<section id="main" class="content">{header}
<section><div class="declaration toggle-wrapper">
<h4 id="declaration">Declaration<a class="anchor" href="#declaration"></a></h4>
<div class="docblock c-decl"><pre><code>gboolean
gsk_rounded_rect_intersects_rect (const GskRoundedRect* self)</code></pre></div></div>
<div class="description toggle-wrapper"><h4 id="description">Description
<a class="anchor" href="#description"></a></h4>
<div class="docblock"><p>Checks if part of the given rect is contained inside the rounded
rectangle.</p></div></div></section></section></div></body></html>"""


def test_a_header_of_a_kind_and_a_name_is_one_title() -> None:
    header = """<header><h3>Method</h3>
<h1><a href="index.html">Gsk</a>.<a href="struct.RoundedRect.html">RoundedRect</a>.intersects_rect
</h1></header>"""
    documents = _read(_gi_docgen(header), "method.RoundedRect.intersects_rect")
    assert [d.title for d in documents] == [
        "Method Gsk.RoundedRect.intersects_rect › Declaration",
        "Method Gsk.RoundedRect.intersects_rect › Description",
    ]


def test_a_header_of_a_title_and_its_subtitle_is_one_title() -> None:
    header = "<header><h1>Gsk</h1><h2>The GTK scene graph</h2></header>"
    documents = _read(_gi_docgen(header), "index")
    assert documents[0].title == "Gsk: The GTK scene graph › Declaration"


def test_headings_of_a_header_with_text_between_them_stay_two() -> None:
    header = """<header><h1>Gsk</h1><p>The GTK scene graph, and its renderers.</p>
<h2>Rounded rectangles</h2></header>"""
    documents = _read(_gi_docgen(header), "index")
    assert [d.title for d in documents][:2] == ["Gsk", "Gsk › Rounded rectangles › Declaration"]


def _odoc(banner: str) -> str:
    """A module's page in odoc's shape: a line of links up, a header beside the content with
    the module's name and preamble, the page's table of contents, then the content."""
    return f"""<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head>
<title>Dom_html (js_of_ocaml.Js_of_ocaml.Dom_html)</title>
<meta name="generator" content="odoc 2.1.0"/></head><body class="odoc">
<nav class="odoc-nav"><a href="../index.html">Up</a> &#x2013;
<a href="../../index.html">js_of_ocaml</a></nav>{banner}
<nav class="odoc-toc"><ul><li><a href="#events">Events</a></li></ul></nav>
<div class="odoc-content"><h3 id="events"><a href="#events" class="anchor"></a>Events</h3>
<div class="odoc-spec"><div class="spec type" id="type-event_listener">
<code>type (-'a, -'b) event_listener</code></div>
<div class="spec-doc"><p>The type of event listener functions.</p></div></div></div>
</body></html>"""


def test_a_banner_placed_header_whose_h1_names_the_page_is_its_title_and_text() -> None:
    preamble = """<header class="odoc-preamble"><h1>Module <code><span>Js_of_ocaml.Dom_html</span>
</code></h1><p>DOM HTML binding</p><p>This is a partial binding to the DOM HTML API.</p>
</header>"""
    documents = _read(_odoc(preamble), "Dom_html/index")
    assert [d.title for d in documents] == [
        "Module Js_of_ocaml.Dom_html",
        "Module Js_of_ocaml.Dom_html › Events",
    ]
    assert documents[0].text == (
        "Module Js_of_ocaml.Dom_html\n\nDOM HTML binding\n\n"
        "This is a partial binding to the DOM HTML API."
    )


def test_a_banner_header_that_names_the_site_stays_a_banner() -> None:
    # Node.js's pages: the only h1 is in a header beside the content, and names the site as
    # the title's part after its separator does.
    page = """<html><head><title>Stream | Node.js v18.20.4 Documentation</title></head><body>
<div id="column1"><header class="header"><h1>Node.js v18.20.4 documentation</h1>
<ul><li><a href="index.html">Index</a></li><li><a href="all.html">View on single page</a></li>
</ul><hr></header>
<div id="apicontent"><section><h2 id="stream">Stream</h2>
<p>A stream is an abstract interface for working with streaming data.</p></section></div>
</div></body></html>"""
    documents = _read(page, "stream")
    assert [d.title for d in documents] == ["Stream"]
    assert "View on single page" not in documents[0].text


def test_a_banner_header_whose_h1_links_the_front_page_stays_a_banner() -> None:
    page = """<html><head><title>Dom_html</title></head><body>
<header><h1><a href="../index.html">Dom_html tools</a></h1></header>
<div><h2 id="events">Events</h2><p>The type of event listener functions.</p></div>
</body></html>"""
    documents = _read(page, "Dom_html/index")
    assert "Dom_html tools" not in " ".join(d.title + d.text for d in documents)


def _node(heading: str) -> str:
    return f"""<html><head><title>Assert</title></head><body><div id="apicontent">
<section><h2>Assert</h2><p>The assert module provides a set of assertion functions.</p>
</section><section>{heading}
<p>Indicates the failure of an assertion.</p></section></div></body></html>"""


def test_a_bracketed_link_to_another_page_ending_a_heading_is_not_its_words() -> None:
    heading = """<h3>Class: assert.AssertionError<a class="srclink"
href=https://github.com/nodejs/node/blob/master/lib/assert.js#L178>[src]</a><span><a
class="mark" href="#class-assertassertionerror" id="class-assertassertionerror">#</a></span>
</h3>"""
    documents = _read(_node(heading), "assert")
    assert documents[1].title == "Assert › Class: assert.AssertionError"
    assert documents[1].text.startswith("Class: assert.AssertionError\n\nIndicates")


def test_a_bracketed_edit_link_between_bracket_marks_is_not_the_headings_words() -> None:
    heading = """<h3 id="assertionerror">AssertionError<span class="mw-editsection"><span
class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Assert&amp;action=edit"
>edit</a><span class="mw-editsection-bracket">]</span></span></h3>"""
    documents = _read(_node(heading), "assert")
    assert documents[1].title == "Assert › AssertionError"


def test_a_bracketed_link_with_words_after_it_or_to_a_place_on_the_page_stays() -> None:
    heading = """<h3 id="rfc"><a href="https://www.rfc-editor.org/rfc/rfc2119">[RFC 2119]</a>
keywords <a href="#note-1">[1]</a></h3>"""
    documents = _read(_node(heading), "assert")
    assert documents[1].title == "Assert › [RFC 2119] keywords [1]"


def test_a_heading_of_twenty_thousand_links_in_one_element_is_read_in_one_pass() -> None:
    # Each link judged with the words of the element around it would cost the heading's
    # size 20,000 times; only its last link with a word may be a control.
    links = "".join(f'<a href="p{i}.html">[p{i}]</a> ' for i in range(20_000))
    page = f"<main><h1><span>{links}</span></h1><p>Text.</p></main>"
    (document,) = _read(page, "links")
    assert document.text.startswith("[p0] [p1]")
    assert "[p19999]" not in document.title


def test_twenty_thousand_headers_of_two_headings_are_each_one_title() -> None:
    entries = "".join(
        f"<section><header><h3>Method</h3><h2>m{i}</h2></header><p>Does {i}.</p></section>"
        for i in range(20_000)
    )
    documents = _read(f"<main><h1>Class</h1><p>A class.</p>{entries}</main>", "class")
    assert len(documents) == 20_001
    assert documents[-1].title == "Class › Method m19999"


def _no_title(content: str, page: str) -> list[Document]:
    """A page in Sphinx's shape whose source opened with no heading: "<no title>" before
    the site's name in its ``<title>``."""
    source = f"""<html><head><title>&lt;no title&gt; &#8212; Black 23.1.0 documentation</title>
    </head><body><div class="body" role="main">{content}</div></body></html>"""
    return _read(source, page)


def test_a_page_titled_no_title_is_titled_by_its_file_name_as_mkdocs_names_it() -> None:
    text = "<p># Getting started</p><p>Install Black with pip.</p>"
    [document] = _no_title(text, "getting_started")
    assert document.title == "Getting started"
    assert document.text == "# Getting started\n\nInstall Black with pip."
    [index] = _no_title(text, "contributing/index")
    assert index.title == "Contributing"


def test_a_page_titled_no_title_with_a_heading_is_titled_by_that_heading() -> None:
    documents = _no_title("<p>Intro.</p><h2>Release 5.3</h2><p>Features.</p>", "changes")
    # The text before the heading, and the heading's section: no "<no title> › Release 5.3".
    assert [(d.title, d.text) for d in documents] == [
        ("Release 5.3", "Intro."),
        ("Release 5.3", "Release 5.3\n\nFeatures."),
    ]


def test_a_bracketed_title_that_the_pages_heading_shows_is_its_name() -> None:
    source = """<html><head><title>&lt;video&gt;: The Video Embed element</title></head>
    <body><main><h1>&lt;video&gt;: The Video Embed element</h1><p>Embeds a player.</p>
    </main></body></html>"""
    [document] = _read(source, "video")
    assert document.title == "<video>: The Video Embed element"
