"""Links and anchors as HTML 4's generators and Sphinx write them: the empty ``<a name>``
anchors before a heading that name its section, a list of sentences classed as a table of
contents, and the pages and sections that only list where the text is (an index, a chapter's
list of its pages, a search form). The cases are the real pages that broke: the GNU gettext
manual (texi2html 1.78), the Z Shell FAQ (YODL), Docutils' reStructuredText manual, HAProxy's
configuration manual, Bash's one-page manual (Texinfo), and Tornado's, Flask's and Sphinx's
own pages (Sphinx), as Debian installs them."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted


def _read(source: str, page: str = "page") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html", f"https://d.org/{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _omitted(source: str, page: str = "page") -> list[Omitted]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Omitted)]


# texi2html 1.78a's gettext_13.html (GNU gettext 0.21): every node is two empty anchors,
# its name and texi2html's serial SECn, before its heading; the chapter's menu and the
# manual's cross-references link the SECn.
_TEXI2HTML_CHAPTER = """<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><!-- Created on July, 26 2020 by texi2html 1.78a --><head>
<title>GNU gettext utilities: 13. The Maintainer's View</title>
<meta name="Generator" content="texi2html 1.78a"></head><body lang="en">
<table cellpadding="1" cellspacing="1" border="0"><tr>
<td valign="middle" align="left">[<a href="gettext_12.html#SEC216"> &lt;&lt; </a>]</td>
<td valign="middle" align="left">[<a href="gettext_14.html#SEC261"> &gt;&gt; </a>]</td>
<td valign="middle" align="left">[<a href="gettext_toc.html#SEC_Top">Top</a>]</td>
<td valign="middle" align="left">[<a href="gettext_toc.html#SEC_Contents">Contents</a>]</td>
</tr></table>
<hr size="2">
<a name="Maintainers"></a>
<a name="SEC229"></a>
<h1 class="chapter"> <a href="gettext_toc.html#TOC223">13. The Maintainer's View</a> </h1>
<p>The maintainer of a package has many responsibilities.</p>
<table class="menu" border="0" cellspacing="0">
<tr><td align="left" valign="top"><a href="#SEC231">13.1 Prerequisite Works</a></td>
<td>&nbsp;&nbsp;</td><td align="left" valign="top"></td></tr>
<tr><td align="left" valign="top"><a href="#SEC238">13.2 configure.ac at top level</a></td>
<td>&nbsp;&nbsp;</td><td align="left" valign="top"></td></tr>
</table>
<hr size="6">
<a name="Prerequisites"></a>
<a name="SEC231"></a>
<h2 class="section"> <a href="gettext_toc.html#TOC225">13.1 Prerequisite Works</a> </h2>
<p>There are some works which are required for using GNU gettext in one of your package,
as described in <a href="#SEC238">configure.ac at top level</a>.</p>
<hr size="6">
<a name="configure_002eac"></a>
<a name="SEC238"></a>
<h2 class="section"> <a href="gettext_toc.html#TOC232">13.2 configure.ac at top level</a> </h2>
<p>configure.ac is the source from which autoconf generates the configure script.</p>
<table cellpadding="1" cellspacing="1" border="0"><tr>
<td valign="middle" align="left">[<a href="#SEC229"> &lt;&lt; </a>]</td>
<td valign="middle" align="left">[<a href="gettext_14.html#SEC261"> &gt;&gt; </a>]</td>
</tr></table></body></html>"""


def test_a_texi2html_section_is_cited_at_its_nodes_name_before_its_heading() -> None:
    documents = {d.id: d for d in _read(_TEXI2HTML_CHAPTER, "gettext_13")}
    # Not SECn, though the page links it: the node's name is what other sites link to and
    # what a new release keeps (gnu.org's html_node/configure_002eac.html).
    assert list(documents) == [
        "gettext_13",
        "gettext_13#Prerequisites",
        "gettext_13#configure_002eac",
    ]
    section = documents["gettext_13#configure_002eac"]
    assert section.url == "https://d.org/gettext_13.html#configure_002eac"
    assert section.title == "13. The Maintainer's View › 13.2 configure.ac at top level"
    # The chapter's menu lists its sections: its table of contents, now that they have
    # addresses, and no text of the chapter's.
    assert documents["gettext_13"].text == (
        "13. The Maintainer's View\n\nThe maintainer of a package has many responsibilities."
    )


def test_a_yodl_answer_is_cited_at_the_anchor_the_parser_closes_a_paragraph_around() -> None:
    # The Z Shell FAQ (YODL): <p> is left open before each answer's anchor, so the parser
    # puts the anchor in an empty paragraph; the anchor after the heading names no section.
    page = """<html><head><title> Z-Shell Frequently-Asked Questions </title></head><body>
    <hr><ul><li> <a href="FAQ.html">Table of Contents</a><li> <a href="FAQ04.html">Next
    Chapter</a></ul><hr>
    <a name="l18"></a>
    <h1 >Chapter 3: How to get various things to work</h1>
    <p>
    <a name="l19"></a>
    <h2 >3.1: Why does <code>$var</code> where <code>var="foo bar"</code> not do what I
    expect?</h2>
    <a name="31"></a>
    <p>In most Bourne-shell derivatives, multiple-word variables such as var are split.
    <p>
    <a name="l20"></a>
    <h2 >3.2: In which startup file do I put...?</h2>
    <a name="32"></a>
    <p>When zsh starts up, there are six files you can use.
    </body></html>"""
    documents = {d.id: d for d in _read(page, "FAQ03")}
    assert list(documents) == ["FAQ03#l19", "FAQ03#l20"]
    assert documents["FAQ03#l20"].text.endswith("there are six files you can use.")


def test_a_javadoc_member_is_cited_at_the_anchor_before_the_list_its_heading_opens() -> None:
    # javadoc (JDK 8 to 11), argparse4j's ArgumentParsers.html as Debian installs it: each
    # member's anchor stands before the list whose item its <h4> opens.
    members = "".join(
        f"""<a id="{anchor}"><!--   --></a>
        <ul class="blockList"><li class="blockList"><h4>{name}</h4>
        <pre class="methodSignature">public static void {name}(boolean flag)</pre>
        <div class="block"><p>{text}</p></div></li></ul>"""
        for anchor, name, text in [
            ("setFlag(boolean)", "setFlag", "Sets the flag."),
            ("setFlag(boolean,int)", "setFlag", "Sets the flag for a width."),
        ]
    )
    page = f"""<html><body><main><h2>Class Parsers</h2><p>Factory of parsers.</p>
    <section role="region"><ul class="blockList"><li class="blockList">
    <a id="method.detail"><!--   --></a><h3>Method Detail</h3>{members}</li></ul></section>
    </main></body></html>"""
    documents = {d.id: d for d in _read(page, "Parsers")}
    assert list(documents) == [
        "Parsers",
        "Parsers#setFlag(boolean)",
        "Parsers#setFlag(boolean,int)",
    ]
    assert documents["Parsers#setFlag(boolean,int)"].text.endswith("Sets the flag for a width.")


def test_a_heading_its_section_names_keeps_that_address_beside_a_label_before_it() -> None:
    # Sphinx's HTML 4 writer: a label's empty span stands before the section's element.
    page = """<html><body><main><h1 id="guide">Guide</h1><p>Read on: <a href="#lbl">here</a>.
    </p><span id="lbl"></span><div class="section" id="usage"><h2>Usage</h2><p>Use it.</p>
    </div></main></body></html>"""
    documents = {d.id: d for d in _read(page, "guide")}
    assert documents["guide#usage"].url == "https://d.org/guide.html#usage"


def test_a_name_that_an_id_or_an_earlier_anchor_takes_names_no_other_section() -> None:
    # A browser follows #setup to the element of that id, and #usage to the first anchor
    # of that name: neither heading below is at either address.
    page = """<html><body><main><h1 id="guide">Guide</h1><p>Read on.</p>
    <div id="setup"><p>Set it up.</p></div>
    <a name="usage"></a><h2>Usage</h2><p>Use it.</p>
    <a name="setup"></a><h2>Setup again</h2><p>Set it up again.</p>
    <a name="usage"></a><h2>Usage again</h2><p>Use it again.</p></main></body></html>"""
    documents = _read(page, "guide")
    assert [d.url for d in documents] == [
        "https://d.org/guide.html",
        "https://d.org/guide.html#usage",
        "https://d.org/guide.html",
        "https://d.org/guide.html",
    ]


def test_a_heading_under_a_run_of_labels_is_cited_at_the_section_the_page_links_to() -> None:
    # Docutils' docs/ref/rst/directives.html: one empty span per label, nine of them,
    # between the section's element and its heading; the page's contents link the section.
    labels = ["warning", "tip", "note", "important", "hint", "error", "danger", "caution"]
    spans = "".join(f'<span id="{label}"></span>' for label in [*labels, "attention"])
    page = f"""<html><body><div class="document" id="directives">
    <h1 class="title">reStructuredText Directives</h1>
    <div class="contents topic" id="contents"><p class="topic-title">Contents</p><ul>
    <li><a href="#specific-admonitions" id="toc-entry-1">Specific Admonitions</a></li>
    <li><a href="#generic-admonition" id="toc-entry-2">Generic Admonition</a></li></ul></div>
    <p>This document describes the directives.</p>
    <div class="section" id="specific-admonitions">
    {spans}<h2><a class="toc-backref" href="#toc-entry-1">Specific Admonitions</a></h2>
    <p>Admonitions are specially marked topics.</p></div>
    <div class="section" id="generic-admonition">
    <h2><a class="toc-backref" href="#toc-entry-2">Generic Admonition</a></h2>
    <p>This directive allows for the creation of an admonition.</p></div>
    </div></body></html>"""
    documents = {d.id: d for d in _read(page, "directives")}
    assert list(documents) == [
        "directives",
        "directives#specific-admonitions",
        "directives#generic-admonition",
    ]
    assert documents["directives"].text.endswith("\n\nThis document describes the directives.")


def test_a_label_of_a_run_that_the_page_links_to_is_its_sections_address() -> None:
    # Django 3.2's ref/settings.html: its theme writes an "s-" copy of each label and of the
    # section's id, first; the page's references lead to the label, its permalink and
    # contents to the section's id. Nothing links an "s-" copy.
    page = """<html><body><div role="main"><div class="section" id="s-settings">
    <span id="settings"></span><h1>Settings<a class="headerlink" href="#settings">¶</a></h1>
    <p>Set <a class="reference internal" href="#std-setting-ALLOWED_HOSTS">ALLOWED_HOSTS</a>
    when <a class="reference internal" href="#debug">DEBUG</a> is off.</p>
    <div class="section" id="s-allowed-hosts">
    <span id="s-std-setting-ALLOWED_HOSTS"></span><span id="allowed-hosts"></span><span
    id="std-setting-ALLOWED_HOSTS"></span><h3>ALLOWED_HOSTS<a class="headerlink"
    href="#allowed-hosts">¶</a></h3>
    <p>A list of strings representing the host names this site can serve.</p></div>
    <div class="section" id="s-debug">
    <span id="s-std-setting-DEBUG"></span><span id="debug"></span><span
    id="std-setting-DEBUG"></span><h3>DEBUG<a class="headerlink" href="#debug">¶</a></h3>
    <p>A boolean that turns on debug mode.</p></div>
    </div></div></body></html>"""
    documents = _read(page, "settings")
    assert [d.id for d in documents] == [
        "settings",
        "settings#std-setting-ALLOWED_HOSTS",
        "settings#debug",
    ]


def test_an_anchor_before_a_block_that_is_no_heading_starts_no_section() -> None:
    # HAProxy's configuration.html: each keyword is a div under name-only anchors, no
    # heading; its sections are the headings, whose anchors have ids.
    page = """<html><body><div id="content">
    <a class="anchor" id="3.1" name="3.1"></a>
    <h2 id="chapter-3.1" data-target="3.1"><small><a class="small" href="#3.1">3.1.</a>
    </small> Process management and security</h2>
    <div><pre class="text">The following keywords are supported.</pre></div>
    <a class="anchor" name="chroot"></a><a class="anchor" name="3.1-chroot"></a>
    <div class="keyword"><b><a class="anchor" name="chroot"></a><a
    href="#3.1-chroot">chroot</a></b> <span>&lt;jail dir&gt;</span></div>
    <pre class="text">Changes current directory to &lt;jail dir&gt;.</pre>
    </div></body></html>"""
    (document,) = _read(page, "configuration")
    assert document.url == "https://d.org/configuration.html"
    assert "chroot <jail dir>\n\nChanges current directory" in document.text


def test_thousands_of_anchors_before_each_heading_leave_every_heading_its_section() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    run = "".join(f'<a name="n{i}"></a>' for i in range(100_000))
    nodes = "".join(
        f'<a name="node-{i}"></a><a name="SEC{i}"></a><h2>Node {i}</h2><p>Text {i}.</p>'
        for i in range(20_000)
    )
    page = f"<html><body><h1>Manual</h1><p>Intro.</p>{run}<h2>Long</h2><p>x</p>{nodes}"
    documents = _read(page, "manual")
    assert len(documents) == 20_002
    assert documents[1].id.startswith("manual#n")  # a name of the run, read that far
    assert documents[-1].id == "manual#node-19999"


# texi2html 1.78a writes every list without a bullet with the class of its table of
# contents (gettext_5.html, 5.1.6; gettext_6.html, 6.2).
def test_a_list_of_sentences_classed_as_a_table_of_contents_is_text() -> None:
    page = """<html><body>
    <a name="xgettext-Invocation"></a><a name="SEC41"></a>
    <h3 class="subsection">5.1.6 Language specific options</h3>
    <p>The default keyword specifications are language dependent. They are:</p>
    <ul class="toc">
    <li>For C, C++, and GCC-source: <code>gettext</code>, <code>dgettext:2</code>,
    <code>ngettext:1,2</code>, <code>gettext_noop</code>.</li>
    <li>For Python: <code>gettext</code>, <code>ugettext</code>, <code>_</code>.</li>
    </ul>
    <p>Translators report:</p>
    <ul class="toc">
    <li> -  Strings which are not entire sentences; see the maintainer guidelines
    in <a href="gettext_4.html#SEC20">Preparing Translatable Strings</a>.</li>
    <li> -  Pluralisation problems.</li></ul>
    </body></html>"""
    (document,) = _read(page, "gettext_5")
    assert "They are:\n\nFor C, C++, and GCC-source: gettext, dgettext:2" in document.text
    assert "For Python: gettext, ugettext, _." in document.text
    assert "- Strings which are not entire sentences;" in document.text
    assert document.text.endswith("- Pluralisation problems.")


def test_a_table_of_contents_of_links_is_still_no_text() -> None:
    # gettext_toc.html: the same class, every entry a link.
    page = """<html><body><h1>Table of Contents</h1>
    <p>This manual documents the GNU gettext tools and the GNU libintl library.</p>
    <div class="contents"><ul class="toc">
    <li><a name="TOC1" href="gettext_1.html#SEC1">1. Introduction</a>
    <ul class="toc"><li><a name="TOC2" href="gettext_1.html#SEC2">1.1 The Purpose of GNU
    gettext</a></li><li><a name="TOC3" href="gettext_1.html#SEC3">1.2 I18n, L10n, and
    Such</a></li></ul></li></ul></div></body></html>"""
    (document,) = _read(page, "gettext_toc")
    assert document.text == (
        "Table of Contents\n\n"
        "This manual documents the GNU gettext tools and the GNU libintl library."
    )


def test_five_hundred_nested_lists_classed_as_contents_are_read_once() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    # texi2html nests its lists; each judged with all it holds, this page took 10 s.
    words = " ".join(f"word{i}" for i in range(400))
    nested = ('<ul class="toc"><li>' + words) * 500 + "</li></ul>" * 500
    page = f"<html><body><main><h1>T</h1><p>x</p>{nested}</main></body></html>"
    (document,) = _read(page, "nested")
    assert document.text.count("word399") == 500


def _sphinx_page(title: str, body: str) -> str:
    """A page of Sphinx's basic theme: a related bar, the content in div.body, a sidebar."""
    return f"""<!DOCTYPE html><html><head><title>{title} &#8212; Flask Documentation</title>
    </head><body><div class="related" role="navigation"><h3>Navigation</h3><ul>
    <li class="right"><a href="genindex.html" title="General Index">index</a></li>
    <li class="right"><a href="py-modindex.html">modules</a> |</li></ul></div>
    <div class="document"><div class="documentwrapper"><div class="bodywrapper">
    <div class="body" role="main">{body}</div></div></div>
    <div class="sphinxsidebar" role="navigation"><div class="sphinxsidebarwrapper">
    <h3>Quick search</h3><form class="search" action="search.html" method="get">
    <input type="text" name="q"/></form></div></div></div></body></html>"""


def _index_entries(letter: str, count: int) -> str:
    entries = "".join(
        f'<li><a href="api.html#flask.{letter}{i}">{letter.lower()}{i}() '
        f"(flask.Flask method)</a></li>"
        for i in range(count)
    )
    kinds = f'<li>{letter.lower()}_setting <a href="config.html#{letter}">[configuration value]</a>'
    return f"""<h2 id="{letter}">{letter}</h2><table style="width: 100%" class="indextable
    genindextable"><tr><td style="width: 33%; vertical-align: top;"><ul>{entries}{kinds}</li>
    </ul></td></tr></table>"""


def test_an_index_whose_every_entry_points_elsewhere_is_no_document() -> None:
    # Sphinx's genindex.html: a jump bar of letters, then a section a letter, each entry a
    # link (some with their kind outside it), three entries under V.
    letters = "".join(f'<a href="#{c}"><strong>{c}</strong></a> | ' for c in "ABCDEFGHV")
    body = f"""<h1 id="index">Index</h1><div class="genindex-jumpbox">{letters}</div>
    {"".join(_index_entries(c, 3 if c == "V" else 12) for c in "ABCDEFGHV")}"""
    assert _omitted(_sphinx_page("Index", body), "genindex") == [Omitted(html.LINK_LISTS, 1)]


def test_a_page_that_lists_its_chapters_pages_is_no_document() -> None:
    # Tornado's webframework.html: the chapter's title and its toctree, nothing else.
    pages = ["web", "template", "routing", "escape", "locale", "websocket"]
    items = "".join(
        f'<li class="toctree-l1"><a class="reference internal" href="{p}.html">tornado.{p} — '
        f'The {p} module</a><ul><li class="toctree-l2"><a href="{p}.html#thread-safety-notes">'
        f"Thread-safety notes</a></li></ul></li>"
        for p in pages
    )
    body = f"""<section id="web-framework"><h1>Web framework</h1><div class="toctree-wrapper
    compound"><ul>{items}</ul></div></section>"""
    assert _omitted(_sphinx_page("Web framework", body), "webframework") == [
        Omitted(html.LINK_LISTS, 1)
    ]


def test_a_landing_page_keeps_its_intro_and_loses_its_list_of_pages() -> None:
    # Tornado's index.html: "Documentation" is a sentence, then the toctree of the site
    # (448 of its 454 words are links').
    chapters = ["guide", "webframework", "http", "networking", "coroutine", "integration"]
    items = "".join(
        f'<li class="toctree-l1"><a class="reference internal" href="{p}.html">{p.title()}</a>'
        f'<ul><li class="toctree-l2"><a href="{p}/intro.html">Introduction to {p}</a></li>'
        f'<li class="toctree-l2"><a href="{p}/usage.html">Using {p} in an application</a></li>'
        "</ul></li>"
        for p in chapters
    )
    body = f"""<section id="tornado-web-server"><h1>Tornado Web Server</h1>
    <p>Tornado is a Python web framework and asynchronous networking library.</p>
    <section id="documentation"><h2>Documentation</h2><p>This documentation is also
    available in <a href="pdf/">PDF</a> and <a href="epub/">Epub</a> formats.</p>
    <div class="toctree-wrapper compound"><ul>{items}</ul></div></section>
    <section id="see-also"><h2>See also</h2><ul><li><a href="faq.html">FAQ</a></li>
    <li><a href="releases.html">Release notes</a></li></ul></section></section>"""
    documents = {d.id: d for d in _read(_sphinx_page("Tornado Web Server", body), "index")}
    assert list(documents) == ["index", "index#documentation", "index#see-also"]
    assert documents["index#documentation"].text == (
        "Documentation\n\nThis documentation is also available in PDF and Epub formats."
    )
    # Two links are a section's text, not a list of where it is.
    assert documents["index#see-also"].text == "See also\n\nFAQ\nRelease notes"


def test_a_page_of_lists_of_links_keeps_its_note_and_its_list_of_plain_names() -> None:
    # CMake's manual/cmake-variables.7.html: lists of links to each variable's page, a note
    # over them, and internal variables named without a page of their own.
    def toctree(kind: str) -> str:
        links = "".join(
            f'<li class="toctree-l1"><a class="reference internal" href="../variable/'
            f'CMAKE_{kind}_{i}.html">CMAKE_{kind}_{i}</a></li>'
            for i in range(40)
        )
        return f'<div class="toctree-wrapper compound"><ul>{links}</ul></div>'

    page = f"""<html><body><div class="body" role="main">
    <section id="cmake-variables-7"><h1>cmake-variables(7)</h1>
    <p>This page documents variables that are provided by CMake.</p>
    <div class="admonition note"><p class="admonition-title">Note</p>
    <p>CMake reserves identifiers that:</p><ul class="simple"><li><p>begin with CMAKE_
    (upper-, lower-, or mixed-case), or</p></li><li><p>begin with _ followed by the name of
    any CMake Command.</p></li></ul></div>
    <section id="variables-that-provide-information"><h2>Variables that Provide
    Information</h2>{toctree("INFO")}</section>
    <section id="variables-that-change-behavior"><h2>Variables that Change Behavior</h2>
    {toctree("CHANGE")}</section>
    <section id="internal-variables"><h2>Internal Variables</h2>
    <p>CMake has many internal variables. Most of them are undocumented.</p>
    <ul><li>CMAKE_HOME_DIRECTORY</li><li>CMAKE_INTERNAL_PLATFORM_ABI</li></ul></section>
    </section></div></body></html>"""
    documents = {d.id: d for d in _read(page, "cmake-variables.7")}
    assert list(documents) == ["cmake-variables.7", "cmake-variables.7#internal-variables"]
    assert documents["cmake-variables.7"].text.endswith(
        "CMake reserves identifiers that:\n\nbegin with CMAKE_ (upper-, lower-, or mixed-case), "
        "or\n\nbegin with _ followed by the name of any CMake Command."
    )
    assert documents["cmake-variables.7#internal-variables"].text.endswith(
        "CMAKE_HOME_DIRECTORY\nCMAKE_INTERNAL_PLATFORM_ABI"
    )


def _docbook_front_page(captioned: str) -> str:
    # DocBook XSL's front page of a book: its title page (author, copyright, legal notice,
    # abstract), then its list of tables, a link each.
    tables = "".join(
        f'<dt>{n}.{m}. <a href="ch{n:02}.en.html#list-{m}">Tools of chapter {n}</a></dt>'
        for n in range(1, 13)
        for m in range(1, 9)
    )
    return f"""<html><head><title>Acme Reference</title>
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head><body>
<div class="book"><div class="titlepage"><div><h1 class="title">Acme Reference</h1></div>
<div><div class="author"><h3 class="author">Jane Roe</h3></div></div>
{captioned}<hr></div>
<div class="list-of-tables"><p><b>List of Tables</b></p><dl>{tables}</dl></div></div>
</body></html>"""


def test_a_short_line_with_no_link_over_a_list_of_links_own_text_stays() -> None:
    captioned = """<div><p class="copyright">Copyright © 2013-2021 Jane Roe</p></div>
<div><div class="legalnotice"><p>This Acme Reference is intended to provide a broad overview
of the Acme system as a post-installation user's guide.</p></div></div>
<div><div class="abstract"><p class="title"><strong>Abstract</strong></p>
<p>This book is free; you may redistribute it under the terms of the GNU General Public
License.</p></div></div>"""
    (document,) = _read(_docbook_front_page(captioned), "index.en")
    lines = [line for line in document.text.splitlines() if line]
    # The title page's abstract opens it, its copyright after (``title_pages``).
    assert lines[1] == "Abstract"
    assert lines[2].startswith("This book is free;")
    assert lines[3] == "Copyright © 2013-2021 Jane Roe"
    # The list's caption stands over its links, no text of its own: it goes with them.
    assert "List of Tables" not in document.text
    assert "Tools of chapter" not in document.text


def test_a_short_line_over_the_links_alone_goes_with_them() -> None:
    # The same page without its sentences: the copyright line stands over the list only.
    captioned = '<div><p class="copyright">Copyright © 2013-2021 Jane Roe</p></div>'
    assert _omitted(_docbook_front_page(captioned), "index.en") == [Omitted(html.LINK_LISTS, 1)]


def test_a_one_page_manuals_index_is_no_section_and_its_chapters_stay() -> None:
    # Bash's bashref.html (GNU Texinfo 6.8): appendix D's indexes, each a jump bar and a
    # table of entries, every entry a link and the section it is in a link.
    def entry(name: str, section: str) -> str:
        return (
            f'<tr><td></td><td valign="top"><a href="#index-{name}"><code>{name}</code></a>:'
            f'</td><td>&nbsp;</td><td valign="top"><a href="#{section.replace(" ", "-")}">'
            f"{section}</a></td></tr>"
        )

    builtins = "alias bg bind break builtin caller cd command compgen complete echo enable"
    rows = "".join(entry(name, "Bash Builtins") for name in builtins.split())
    page = f"""<html><head><title>Bash Reference Manual</title></head><body>
    <div class="section" id="Bash-Builtins"><h3 class="section">4.2 Bash Builtin Commands</h3>
    <p>This section describes builtin commands which are unique to or have been extended in
    Bash.</p></div>
    <div class="appendixsec" id="Builtin-Index"><h3 class="appendixsec">D.1 Index of Shell
    Builtin Commands</h3><table><tr><th>Jump to: &nbsp; </th><td><a class="summary-letter"
    href="#Builtin-Index_bt_letter-A"><b>A</b></a> &nbsp; <a class="summary-letter"
    href="#Builtin-Index_bt_letter-B"><b>B</b></a></td></tr></table>
    <table class="index-bt" border="0"><tr><td></td><th>Index Entry</th><td>&nbsp;</td>
    <th>Section</th></tr>{rows}</table></div></body></html>"""
    documents = _read(page, "bash")
    assert [d.id for d in documents] == ["bash"]
    assert documents[0].text.endswith("unique to or have been extended in Bash.")


def test_a_search_page_is_no_document_and_a_search_box_above_a_page_is_no_reason() -> None:
    # Sphinx's search.html: its form under its title, and one sentence about it.
    body = """<h1 id="search-documentation">Search</h1><noscript><div class="admonition
    warning"><p>Please activate JavaScript to enable the search functionality.</p></div>
    </noscript><p>Searching for multiple words only shows matches that contain all words.</p>
    <form action="" method="get"><input type="text" name="q" value=""/>
    <input type="submit" value="search"/></form><div id="search-results"></div>"""
    assert _omitted(_sphinx_page("Search", body), "search") == [Omitted(html.FORM_PAGES, 1)]
    # SQLite's syntax pages: the site's search box in the banner above a page of one line.
    page = """<html><body><div class="nosearch"><div class="searchmenu"><form method="GET"
    action="../search"><input type="text" name="q"><input type="submit" value="Go"></form>
    </div></div><h1 align="center">drop-index-stmt:</h1><p>Used by: sql-stmt</p>
    </body></html>"""
    (document,) = _read(page, "drop-index-stmt")
    assert document.text == "drop-index-stmt:\n\nUsed by: sql-stmt"


def test_an_index_of_a_hundred_thousand_entries_is_no_document() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    body = f'<h1 id="index">Index</h1>{_index_entries("A", 100_000)}'
    assert _omitted(_sphinx_page("Index", body), "genindex") == [Omitted(html.LINK_LISTS, 1)]


def test_an_index_whose_links_nest_in_paragraphs_is_still_a_list_of_links() -> None:
    # Each entry's link inside a paragraph inside its item, the link's words inside code:
    # every element of an entry ends at once, and the entry is still all link. The sentence
    # over the index, with a link of its own, is the page's text; the headings, links
    # themselves, are titles, not links of a list.
    entries = "".join(
        f'<li><p><a href="api.html#f{i}"><code>f{i}()</code></a></p></li>' for i in range(60)
    )
    page = f"""<html><body><main><h1><a href="#top">Index</a></h1>
    <p>Each function of the API is listed once, see the <a href="guide.html">guide</a>
    for how to read its signature.</p>
    <h2 id="f"><a href="#f">F</a></h2><ul>{entries}</ul></main></body></html>"""
    (document,) = _read(page, "genindex")
    assert document.text == (
        "Index\n\nEach function of the API is listed once, see the guide for how to read its "
        "signature."
    )
