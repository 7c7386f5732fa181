"""Structures generators share, read as a browser shows them: inline elements inside a word,
``details`` boxes, redirect pages, Texinfo's navigation bars around its sections, and a
page's own table of contents. The cases are the real pages that broke: Rust by Example,
CMake's documentation and the Z Shell Manual as Debian installs them."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus, Document, IngestReport
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted


def _read(source: str, page: str = "page") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def test_inline_code_inside_a_word_leaves_the_word_whole() -> None:
    # Rust by Example's error/multiple_error_types/boxing_errors.html.
    page = """<html><head><title>Boxing errors</title></head><body><main>
    <h1 id="boxing-errors"><code>Box</code>ing errors</h1><p>A way to write simple code.</p>
    <h2 id="results">Iterating over <code>Result</code>s</h2><p>An iteration can fail.</p>
    </main></body></html>"""
    titles = [d.title for d in _read(page)]
    assert titles == ["Boxing errors", "Boxing errors › Iterating over Results"]


def test_a_block_or_line_break_inside_a_heading_still_separates_its_words() -> None:
    page = """<html><body><main><h1>Setup<br>guide</h1><p>Text of the guide.</p>
    <h2>Install<div>on Linux</div>now</h2><p>Run the installer.</p></main></body></html>"""
    titles = [d.title for d in _read(page)]
    assert titles == ["Setup guide", "Setup guide › Install on Linux now"]


def test_a_details_boxs_summary_is_a_line_of_its_own() -> None:
    # CMake's tutorial, "Adding a Library": the answer behind "show/hide answer".
    page = """<html><body><main><h1>Adding a Library</h1><p>Add the library.</p>
    <details><summary>TODO 1: Click to show/hide answer</summary><div><p>We configure
    the library.</p></div></details><p>Next, link it.</p></main></body></html>"""
    (document,) = _read(page)
    assert "TODO 1: Click to show/hide answer\nWe configure the library." in document.text
    assert "answerWe" not in document.text


def test_a_block_right_after_an_items_words_starts_a_line_of_its_own() -> None:
    # VitePress's minified release_process.html (Black's docs): "Draft a new GitHub
    # ReleaseClick Choose a tag"; and the other blocks a Markdown item, a definition or a
    # cell may hold after its words, with no whitespace between the tags.
    page = (
        "<html><body><main><h1>Release</h1><ol>"
        "<li><a href='https://g.com/r'>Draft a new GitHub Release</a><ol><li>Click "
        "<code>Choose a tag</code></li><li>Publish</li></ol></li>"
        "<li>Use the <code>YY.M.N</code> format<ul><li>So N is 0</li></ul></li>"
        "<li>Run it:<pre><code>make</code></pre></li><li>Then<p>wait.</p></li></ol>"
        "<dl><dt>Term</dt><dd>Said<div>twice</div></dd></dl>"
        "<table><tr><td>Cell<table><tr><td>inner</td></tr></table></td></tr></table>"
        "</main></body></html>"
    )
    (document,) = _read(page)
    for line in (
        "Draft a new GitHub Release\nClick Choose a tag\nPublish",
        "Use the YY.M.N format\nSo N is 0",
        "Run it:\n\nmake",
        "Then\nwait.",
        "Said\ntwice",
        "Cell\ninner",
    ):
        assert line in document.text
    for glued in ("ReleaseClick", "formatSo", "Thenwait", "Saidtwice", "Cellinner"):
        assert glued not in document.text


def test_words_before_an_inline_element_and_after_a_block_stay_on_their_lines() -> None:
    # Only a block starts a line: the words around inline elements run on, and a block
    # after a block's end (already a line's end) adds no blank line.
    page = (
        "<html><body><main><h1>T</h1><ul><li><p>One</p><ul><li>a<b>b</b>c</li></ul></li>"
        "<li>Two <em>and</em> three</li></ul></main></body></html>"
    )
    (document,) = _read(page)
    assert document.text == "T\n\nOne\n\nabc\n\nTwo and three"


def _one_section_page(text: str) -> str:
    """A book's section on a page of its own, as Publican (DocBook) writes one: the one
    heading three elements deep in a title block, the text beside that block in ``div.para``
    blocks (no ``p``), a banner and bars of links around the section."""
    return f"""<html><head><title>4.2. Rotating logs</title>
    <meta name="generator" content="publican v4.3.2"></head><body>
    <div id="banner"><a href="https://example.org/get/"><span>Get the book</span></a></div>
    <ul class="docnav top"><li class="previous"><a href="a.html"><strong>Prev</strong></a></li>
    <li class="home">The Example Handbook</li>
    <li class="next"><a href="c.html"><strong>Next</strong></a></li></ul>
    <div class="section"><div class="titlepage"><div><div><h2 class="title">
    <a id="sect.logs"></a>4.2. Rotating logs</h2></div></div></div>{text}</div>
    <ul class="docnav"><li class="previous"><a href="a.html"><strong>Prev</strong>4.1. Cron</a>
    </li><li class="up"><a href="#"><strong>Up</strong></a></li><li class="home">
    <a href="index.html"><strong>Home</strong></a></li><li class="next"><a href="c.html">
    <strong>Next</strong>4.3. Backups</a></li></ul></body></html>"""


_PAGE_CHROME = ("Get the book", "Example Handbook", "Prev", "Next", "Home", "Cron", "Backups")


def test_a_page_of_one_heading_keeps_the_text_beside_that_headings_wrapper() -> None:
    # The Debian Administrator's Handbook: 43 such pages (sect.quotas.html, Appendix A)
    # were dropped as pages with headings only.
    page = _one_section_page(
        """<a id="id-1" class="indexterm"></a><div class="para">The logrotate program renames
        each log file once a week and keeps four old ones.</div><div class="para">Its settings
        are in <code>/etc/logrotate.conf</code>.</div>"""
    )
    (document,) = _read(page, "sect.logs")
    assert document.title == "4.2. Rotating logs"
    assert "renames each log file once a week" in document.text
    assert document.text.endswith("Its settings are in /etc/logrotate.conf.")
    for chrome in _PAGE_CHROME:
        assert chrome not in document.text, chrome


def test_a_page_of_one_heading_whose_text_is_in_a_sibling_container_keeps_that_text() -> None:
    page = """<html><body><nav><a href="/">Docs</a> <a href="/blog/">Blog</a></nav>
    <div class="page-head"><div class="title-row"><h1>Proxy settings</h1></div></div>
    <div class="page-text"><div>Set <code>HTTPS_PROXY</code> before the first run.</div>
    <table><tr><td>no_proxy</td><td>hosts reached directly</td></tr></table></div>
    <div class="pager" role="navigation"><a href="a.html">Previous page</a>
    <a href="c.html">Next page</a></div>
    <footer>Made with care by the docs team.</footer></body></html>"""
    (document,) = _read(page, "proxy")
    assert document.title == "Proxy settings"
    assert "Set HTTPS_PROXY before the first run." in document.text
    assert "hosts reached directly" in document.text
    for chrome in ("Docs", "Blog", "Previous page", "Next page", "Made with care"):
        assert chrome not in document.text, chrome


def test_a_page_that_is_only_its_heading_among_chrome_is_omitted_as_headings_only() -> None:
    # Only chrome follows the heading: bars of links, a navigation, a footer, a script.
    for text in ("", "<nav>Tutorial Reference</nav><script>var words = 1;</script>"):
        origin = SourceFile(Path("sect.logs.html"), "sect.logs", "sect.logs.html")
        read = list(html.read(_one_section_page(text) + "<footer>By us</footer>", origin))
        assert read == [Omitted(html.HEADINGS_ONLY, 1)], text


def test_an_ingest_counts_only_the_pages_that_are_really_headings_alone(tmp_path: Path) -> None:
    text = '<div class="para">Rotate the logs weekly, keeping four.</div>'
    documents, report = _ingest(
        tmp_path,
        {"sect.logs.html": _one_section_page(text), "empty.html": _one_section_page("")},
    )
    assert list(documents) == ["sect.logs"]
    assert "Rotate the logs weekly, keeping four." in documents["sect.logs"].text
    assert report.omitted[html.HEADINGS_ONLY] == 1


_TEXINFO_REDIRECT = """<!DOCTYPE html><html><!-- Created by GNU Texinfo 6.8 -->
<head><title>Aliasing (zsh)</title><meta name="Generator" content="texi2any">
<meta http-equiv="Refresh" content="0; url=Shell-Grammar.html#Aliasing"></head>
<body lang="en"><p>The node you are looking for is at
<a href="Shell-Grammar.html#Aliasing">Aliasing</a>.</p></body></html>"""


def _ingest(tmp_path: Path, pages: dict[str, str]) -> tuple[dict[str, Document], IngestReport]:
    site = tmp_path / "site"
    site.mkdir()
    for name, page in pages.items():
        (site / name).write_text(page)
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        report = corpus.ingest(site, base_url="https://docs.example.org/")
        return {d.id: d for d in corpus.documents()}, report


def test_a_page_that_sends_the_reader_elsewhere_at_once_is_omitted_and_counted(
    tmp_path: Path,
) -> None:
    jekyll = """<!DOCTYPE html><html lang="en-US"><meta charset="utf-8"><title>Redirecting…</title>
    <link rel="canonical" href="https://docs.example.org/new/">
    <meta http-equiv="refresh" content="0; url=https://docs.example.org/new/">
    <h1>Redirecting…</h1><a href="https://docs.example.org/new/">Click here if you are not
    redirected.</a></html>"""
    quoted = """<html><head><meta http-equiv="refresh" content="0;URL='guide/new.html'">
    </head><body><p>Redirecting to... <a href="guide/new.html">new</a>.</p></body></html>"""
    documents, report = _ingest(
        tmp_path,
        {
            "Aliasing.html": _TEXINFO_REDIRECT,
            "old.html": jekyll,
            "moved.html": quoted,
            "Shell-Grammar.html": "<html><body><h1>Shell Grammar</h1><p>Aliases.</p></body></html>",
        },
    )
    assert list(documents) == ["Shell-Grammar"]
    assert report.omitted[html.REDIRECTS] == 3


def test_a_page_that_waits_reloads_or_refreshes_itself_is_read() -> None:
    for refresh in ("5; url=new.html", "300", "0; url=#top", "0; url=status.html?fresh=1"):
        page = f"""<html><head><meta http-equiv="refresh" content="{refresh}"></head>
        <body><h1>Build status</h1><p>Every build of the last day.</p></body></html>"""
        (document,) = _read(page, "status")
        assert "Every build of the last day." in document.text, refresh


def test_a_site_of_mostly_redirect_pages_learns_the_chrome_of_its_real_pages(
    tmp_path: Path,
) -> None:
    # Texinfo's split manual: beside each page of a chapter, redirect pages for its nodes,
    # so that most pages a spread sample picks first are redirects.
    pages = {}
    topics = "aliases arrays globbing history jobs keymaps modules options prompts quoting "
    topics += "signals styles traps widgets zle zftp zpty zstyle calendar tcp files limits"
    for number, topic in enumerate(f"{topics} parameters redirection".split()):
        pages[f"p{number:02}a.html"] = _TEXINFO_REDIRECT
        pages[f"p{number:02}b.html"] = f"""<html><head><title>{topic} — Z Shell Manual</title>
        </head><body><h1>About {topic}</h1><p>How the shell treats {topic}, at length.</p>
        <p>This document was generated on February 5, 2023 using texi2any.</p></body></html>"""
    documents, report = _ingest(tmp_path, pages)
    assert report.omitted[html.REDIRECTS] == 24
    assert report.site_name == "Z Shell Manual"
    assert len(documents) == 24
    for document in documents.values():
        assert "How the shell treats" in document.text
        assert "texi2any" not in document.text


def _bar(up: str) -> str:
    """texi2html's navigation bar (GNU Texinfo 6.8 as zsh-doc has it), cells of links."""
    cells = [
        f'[<a href="#{up}" title="Beginning of this chapter"> &lt;&lt; </a>]',
        '[<a href="#Opening-descriptors" title="Previous section"> &lt; </a>]',
        f'[<a href="#{up}" title="Up section"> Up </a>]',
        '[<a href="#Multios" title="Next section"> &gt; </a>]',
        " &nbsp; ",
        '[<a href="index.html" title="Cover (top) of document">Top</a>]',
        '[<a href="zsh_toc.html#SEC_Contents" title="Table of contents">Contents</a>]',
        '[<a href="Concept-Index.html" title="Index">Index</a>]',
    ]
    row = "".join(f'<td valign="middle" align="left">{cell}</td>' for cell in cells)
    return f'<table class="header" cellpadding="1"><tr>{row}</tr></table>'


_TEXI2HTML_CHAPTER = f"""<!DOCTYPE html><html><!-- Created by GNU Texinfo 6.8 -->
<head><title>Redirection (zsh)</title></head><body lang="en">
<div class="chapter" id="Redirection">{_bar("index")}
<span id="Redirection-1"></span><h1 class="chapter">7 Redirection</h1>
<p>If a command is followed by &amp; and job control is not active, the default standard
input for the command is the empty file /dev/null.</p>
<hr><div class="section" id="Opening-descriptors">{_bar("Redirection")}
<h2 class="section">7.1 Opening file descriptors using parameters</h2>
<p>When the shell is parsing arguments to a command, a different form of redirection is
allowed.</p><hr></div>
<div class="section" id="Multios">{_bar("Redirection")}
<h2 class="section">7.2 Multios</h2>
<p>If the user tries to open a file descriptor for writing more than once, the shell opens
the file descriptor as a pipe.</p></div></div></body></html>"""


def test_a_texinfo_section_is_cited_at_its_nodes_address_without_its_navigation_bar() -> None:
    documents = {d.id: d for d in _read(_TEXI2HTML_CHAPTER, "Redirection")}
    assert list(documents) == [
        "Redirection",
        "Redirection#Opening-descriptors",
        "Redirection#Multios",
    ]
    multios = documents["Redirection#Multios"]
    assert multios.title == "7 Redirection › 7.2 Multios"
    assert "copies" not in multios.text and "pipe." in multios.text
    for document in documents.values():
        for cell in ("<<", "[ Up ]", "[Top]", "[Contents]", "[Index]"):
            assert cell not in document.text, (document.id, cell)
    assert documents["Redirection"].text.endswith("the empty file /dev/null.")


def test_a_texinfo_node_inside_its_parents_section_is_cited_at_its_own_anchor() -> None:
    # The Bash Reference Manual (GNU Texinfo 6.8, one page): an unnumbered node's anchor,
    # bar and heading stand after its parent section's text, in that section's element.
    page = """<html><head><title>Bash Reference Manual</title></head><body>
    <div class="subsection" id="Locale-Translation"><div class="header"><p>Up: <a
    href="#Quoting">Quoting</a> &nbsp; [<a href="#SEC_Contents">Contents</a>][<a
    href="#Indexes">Index</a>]</p></div><span id="Locale-Translation-1"></span>
    <h4 class="subsubsection">3.1.2.5 Locale-Specific Translation</h4>
    <p>The rest of this section is a brief overview of gettext.</p><hr>
    <span id="Creating-Internationalized-Scripts"></span><div class="header"><p>&nbsp;
    [<a href="#SEC_Contents">Contents</a>][<a href="#Indexes">Index</a>]</p></div>
    <h4 class="node-heading">Creating Internationalized Scripts</h4>
    <p>Once you have marked the strings, you create a template file.</p></div>
    </body></html>"""
    documents = {d.id: d for d in _read(page, "bash")}
    assert list(documents) == ["bash", "bash#Creating-Internationalized-Scripts"]
    node = documents["bash#Creating-Internationalized-Scripts"]
    assert node.url is None or node.url.endswith("#Creating-Internationalized-Scripts")
    assert node.text.startswith("Creating Internationalized Scripts\n\nOnce you have")
    assert documents["bash"].text.endswith("a brief overview of gettext.")


def test_links_that_end_a_section_before_the_next_ones_marker_stay_its_text() -> None:
    # Only what stands between a heading and the marker of its place is its bar: a list
    # of links before the marker ends the section before it.
    page = """<html><body><div id="ch"><h2 id="ch-1">Chapter</h2><p>Chapter text.</p>
    <ul><li><a href="a.html">Arrays</a></li><li><a href="b.html">Brace expansion</a></li>
    </ul><span id="later"></span><h3>Later</h3><p>Later text.</p></div></body></html>"""
    documents = {d.id: d for d in _read(page, "ch")}
    assert list(documents) == ["ch", "ch#later"]
    assert documents["ch"].text.endswith("Chapter text.\n\nArrays\nBrace expansion")


def test_a_texi2any_7_section_is_cited_at_its_nodes_address_without_its_nav_panel() -> None:
    def panel(following: str) -> str:
        return f"""<div class="nav-panel"><p>Next: <a href="#{following}" accesskey="n">
        {following}</a>, Previous: <a href="#Opening" accesskey="p">Opening</a>, Up: <a
        href="#Redirection" accesskey="u">Redirection</a> &nbsp; [<a
        href="zsh_toc.html#SEC_Contents" title="Table of contents">Contents</a>]</p></div>"""

    page = f"""<html><head><meta name="Generator" content="texi2any 7.1"></head><body>
    <div class="chapter-level-extent" id="Redirection">{panel("Multios")}<hr>
    <h2 class="chapter" id="Redirection-1">7 Redirection</h2>
    <p>The following may appear anywhere in a simple command.</p>
    <div class="section-level-extent" id="Multios">{panel("Redirections-with-no-command")}<hr>
    <h3 class="section" id="Multios-1">7.2 Multios</h3>
    <p>The shell opens the file descriptor as a pipe.</p></div></div></body></html>"""
    documents = {d.id: d for d in _read(page, "Redirection")}
    assert list(documents) == ["Redirection", "Redirection#Multios"]
    for document in documents.values():
        assert "Next:" not in document.text and "Contents" not in document.text


def test_a_section_whose_id_names_a_panel_is_still_a_section_and_the_panel_is_not() -> None:
    # Docutils' doctree.html documents each element in a section at its name: the
    # ``footer`` element's is ``<div class="section" id="footer">``, beside ``#header``.
    page = """<html><head><title>The Docutils Document Tree</title></head><body>
    <div class="document"><h1 class="title">The Docutils Document Tree</h1>
    <div id="toc"><h2>Contents</h2><ul><li><a href="nodes.html">Nodes</a></li>
    <li><a href="writers.html">Writers</a></li></ul></div>
    <div class="section" id="element-reference"><h1>Element Reference</h1>
    <div class="section" id="header"><h2><a href="#toc-entry-1">header</a></h2>
    <p>The header element holds what appears at the top of every page.</p></div>
    <div class="section" id="footer"><h2><a href="#toc-entry-2">footer</a></h2>
    <p>The footer element holds what appears at the bottom of every page.</p>
    <div class="section" id="details"><h3>Details</h3><p>Category: decorative.</p></div>
    </div></div></div></body></html>"""
    documents = {d.id: d for d in _read(page, "doctree")}
    assert list(documents) == ["doctree#header", "doctree#footer", "doctree#details"]
    footer = documents["doctree#footer"]
    assert footer.title == "The Docutils Document Tree › Element Reference › footer"
    assert "bottom of every page." in footer.text
    assert documents["doctree#details"].title.endswith("› footer › Details")
    assert not any("Writers" in d.text for d in documents.values())  # contents: links only
    # A page's footer of that name, with no heading of its own, is still chrome.
    page = """<html><body><main><h1>Nodes</h1><p>Every node of the tree.</p>
    <div id="footer"><p>Generated by Docutils from reStructuredText source.</p></div>
    </main></body></html>"""
    (nodes,) = _read(page, "nodes")
    assert nodes.text == "Nodes\n\nEvery node of the tree."


def test_prose_with_links_before_a_heading_stays_text_and_hides_no_address() -> None:
    page = """<html><body><main><h1>Shell</h1><p>What the shell does.</p>
    <div id="see-also"><p>For the options, see <a href="o.html">Options</a> and
    <a href="p.html">Parameters</a>.</p><h2>Notes</h2><p>Some notes.</p></div>
    <section id="guide"><h2>Guide</h2><div class="toctree-wrapper"><ul>
    <li><a href="install.html">Installing</a></li><li><a href="upgrade.html">Upgrading</a></li>
    </ul></div><section id="first-steps"><h3>First steps</h3><p>Run it.</p></section>
    </section></main></body></html>"""
    documents = _read(page, "shell")
    text = "\n".join(d.text for d in documents)
    assert "For the options, see Options and Parameters." in text
    assert [d.id for d in documents] == ["shell", "shell#notes", "shell#guide", "shell#first-steps"]
    guide = next(d for d in documents if d.title == "Shell › Guide")
    assert "Installing\nUpgrading" in guide.text  # a list of the pages below, after its heading


def test_a_pages_own_table_of_contents_is_no_text_of_its_first_section() -> None:
    # CMake's command/add_executable.html: docutils' contents directive under the title.
    page = """<html><body><div class="body" role="main"><section id="add-executable">
    <h1><a class="toc-backref" href="#id1">add_executable</a></h1>
    <div class="contents topic" id="contents"><p class="topic-title">Contents</p>
    <ul class="simple"><li><p><a href="#add-executable" id="id1">add_executable</a></p><ul>
    <li><p><a href="#normal-executables" id="id2">Normal Executables</a></p></li>
    <li><p><a href="#imported-executables" id="id3">Imported Executables</a></p></li></ul>
    </li></ul></div>
    <p>Add an executable to the project using the specified source files.</p>
    <section id="normal-executables"><h2>Normal Executables</h2><p>Adds a target.</p></section>
    <section id="imported-executables"><h2>Imported Executables</h2><p>Imports one.</p>
    </section></section></div></body></html>"""
    documents = {d.id: d for d in _read(page, "add_executable")}
    assert list(documents) == [
        "add_executable",
        "add_executable#normal-executables",
        "add_executable#imported-executables",
    ]
    assert documents["add_executable"].text == (
        "add_executable\n\nAdd an executable to the project using the specified source files."
    )


def test_a_texinfo_menu_of_a_chapters_sections_is_no_text_of_it() -> None:
    page = f"""<html><body><div class="chapter" id="Options">{_bar("index")}
    <h1 class="chapter">16 Options</h1><table class="menu" border="0" cellspacing="0">
    <tr><td><a href="#Specifying-Options">16.1 Specifying Options</a></td><td>&nbsp;</td></tr>
    <tr><td><a href="#Option-Aliases">16.2 Option Aliases</a></td><td>&nbsp;</td></tr>
    </table><hr>
    <div class="section" id="Specifying-Options">{_bar("Options")}<h2>16.1 Specifying
    Options</h2><p>Options are primarily referred to by name.</p></div>
    <div class="section" id="Option-Aliases">{_bar("Options")}<h2>16.2 Option Aliases</h2>
    <p>Some options have alternative names.</p></div></div></body></html>"""
    documents = {d.id: d for d in _read(page, "Options")}
    # The chapter's own text was its menu alone: nothing is left of it but its heading.
    assert list(documents) == ["Options#Specifying-Options", "Options#Option-Aliases"]


def test_a_nodes_list_of_its_one_subsection_is_no_text_of_it() -> None:
    # R-exts.html (texi2any 6.8): a node ends with the list of its subsections, here one.
    page = """<html><body><div class="subsection" id="Package-Dependencies">
    <span id="Package-Dependencies-1"></span><h4 class="subsection">1.1.3 Package
    Dependencies</h4><p>The Depends field gives a list of package names.</p>
    <ul class="section-toc"><li><a href="#Suggested-packages">Suggested packages</a></li></ul>
    <hr><div class="subsubsection" id="Suggested-packages"><h5>1.1.3.1 Suggested
    packages</h5><p>Note that someone wanting to run the examples may not have them.</p>
    </div></div></body></html>"""
    documents = {d.id: d for d in _read(page, "R-exts")}
    # The page's first section is the page's own address.
    assert list(documents) == ["R-exts", "R-exts#Suggested-packages"]
    assert documents["R-exts"].text.endswith("list of package names.")


def test_a_list_of_one_link_to_a_section_further_on_stays_text() -> None:
    page = """<html><body><main><section id="a"><h1>Alpha</h1><p>First.</p>
    <ul><li><a href="#c">Gamma</a></li></ul>
    <section id="b"><h2>Beta</h2><p>Second.</p></section>
    <section id="c"><h2>Gamma</h2><p>Third.</p></section></section></main></body></html>"""
    assert _read(page, "greek")[0].text.endswith("Gamma")


def test_a_heading_is_named_by_its_own_anchor_not_the_copy_html_makes_of_an_open_one() -> None:
    # The Debian Reference (DocBook XSL): <a id="..."/> stays open, and the parser copies it
    # into the next heading, ahead of that heading's own anchor; a link reaches the first.
    page = """<html><body><div class="section"><h3 class="title"><a id="_configuration"/>2.1.1.
    Package configuration</h3><p>Configure packages.</p></div><div class="section">
    <h3 class="title"><a id="_precautions"/>2.1.2. Basic precautions</h3><p>Be careful.</p>
    </div><p>See <a href="#_configuration">2.1.1</a> and <a href="#_precautions">2.1.2</a>.</p>
    </body></html>"""
    documents = {d.id: d for d in _read(page, "ch02")}
    assert list(documents) == ["ch02", "ch02#_precautions"]
    assert documents["ch02#_precautions"].text.startswith("2.1.2. Basic precautions")


def test_a_heading_whose_id_is_on_its_permalink_is_at_that_address() -> None:
    # Node.js' API pages (its own generator): the id is on the "#" mark, not the heading,
    # and it is not the heading's slug (an option keeps its dashes).
    page = """<html><body><div id="apicontent"><section><h2>Command-line API<span><a
    class="mark" href="#command-line-api" id="command-line-api">#</a></span></h2><p>Node.js
    comes with a variety of CLI options.</p></section><section><h3><code>--watch</code><span>
    <a class="mark" href="#--watch" id="--watch">#</a></span><a aria-hidden="true"
    class="legacy" id="cli_watch"></a></h3><p>Starts Node.js in watch mode.</p></section>
    </div></body></html>"""
    documents = {d.id: d for d in _read(page, "cli")}
    assert list(documents) == ["cli", "cli#--watch"]
    assert documents["cli#--watch"].text == "--watch\n\nStarts Node.js in watch mode."


def test_lists_of_in_page_links_that_are_not_a_table_of_contents_stay_text() -> None:
    page = """<html><body><main><section id="memory"><h1>Memory</h1>
    <p>Functions:</p><ul><li><a href="#c.PyMem_Malloc">PyMem_Malloc()</a></li>
    <li><a href="#c.PyMem_Free">PyMem_Free()</a></li></ul>
    <dl><dt id="c.PyMem_Malloc">PyMem_Malloc()</dt><dd>Allocates.</dd>
    <dt id="c.PyMem_Free">PyMem_Free()</dt><dd>Frees.</dd></dl>
    <div class="admonition seealso"><p>See also</p><ul><li><a href="#debug">Debug hooks</a></li>
    <li><a href="#tracing">Tracing</a></li></ul></div>
    <ul><li><a href="#overview">Overview</a>: what the allocator does</li>
    <li><a href="#debug">Debug hooks</a>: how to find errors</li></ul>
    <ul><li><a href="#overview">Overview</a></li><li><a href="other.html#x">Elsewhere</a></li></ul>
    <section id="overview"><h2>Overview</h2><p>How memory is managed.</p></section>
    <section id="debug"><h2>Debug hooks</h2><p>Hooks.</p></section>
    <section id="tracing"><h2>Tracing</h2><p>Traces.</p></section>
    </section></main></body></html>"""
    top = _read(page, "memory")[0]
    for kept in (
        "Functions:\n\nPyMem_Malloc()\nPyMem_Free()",  # links to API entries, not sections
        "See also\n\nDebug hooks\nTracing",  # to sections further on
        "Overview: what the allocator does",  # a list that says more than its links
        "Overview\nElsewhere",  # a link to another page
    ):
        assert kept in top.text, kept


def test_a_table_of_contents_of_twenty_thousand_sections_is_read_in_one_pass() -> None:
    contents = "".join(f'<li><a href="#s{i}">Part {i}</a></li>' for i in range(20_000))
    sections = "".join(
        f'<section id="s{i}"><h2>Part {i}</h2><p>t</p></section>' for i in range(20_000)
    )
    page = f'<main><h1 id="top">Book</h1><p>Intro.</p><ul>{contents}</ul>{sections}</main>'
    documents = _read(page, "book")
    assert len(documents) == 20_001
    assert documents[0].text == "Book\n\nIntro."


def test_lists_of_in_page_links_nested_to_the_deepest_a_browser_builds_are_read_once() -> None:
    # Each list holds the next: read from each, the page would cost its size 500 times.
    # (Each item a line of its own, more words than an index's entry's beside its link.)
    nested = '<ul><li><a href="#s">x</a> says a word ' * 500 + "</li></ul>" * 500
    page = f'<main><h1 id="s">T</h1><p>x</p>{nested * 40}<h2 id="t">U</h2><p>y</p></main>'
    documents = _read(page, "deep")
    assert [d.id for d in documents] == ["deep", "deep#t"]


def test_twenty_thousand_navigation_bars_are_dropped_in_one_pass() -> None:
    page = "<body>" + "".join(
        f'<div id="n{i}">{_bar("top")}<h2>Node {i}</h2><p>Text {i}.</p></div>'
        for i in range(20_000)
    )
    documents = _read(page, "nodes")
    assert len(documents) == 20_000
    assert documents[-1].text == "Node 19999\n\nText 19999."


def test_a_see_also_list_of_the_sections_after_its_own_stays_text() -> None:
    # Apache's core.html: RLimitCPU's "See also" names the next two directives' sections,
    # not every one that follows.
    def directive(name: str, also: list[str]) -> str:
        links = "".join(f'<li><code><a href="#{a.lower()}">{a}</a></code></li>' for a in also)
        return f"""<div class="directive-section"><h2 id="{name.lower()}">{name} Directive</h2>
        <p>Limits what processes launched by httpd children may use.</p>
        <h3>See also</h3><ul>{links}</ul></div>"""

    page = f"""<html><body><div id="page-content"><h1>Apache Core Features</h1>
    <p>Core features always available.</p>
    {directive("RLimitCPU", ["RLimitMEM", "RLimitNPROC"])}
    {directive("RLimitMEM", ["RLimitCPU", "RLimitNPROC"])}
    {directive("RLimitNPROC", ["RLimitCPU", "RLimitMEM"])}
    {directive("ScriptInterpreterSource", ["ScriptAlias", "ScriptLog"])}</div></body></html>"""
    documents = _read(page, "core")
    cpu = next(d for d in documents if d.title.endswith("RLimitCPU Directive › See also"))
    assert cpu.text == "See also\n\nRLimitMEM\nRLimitNPROC"


def test_a_tab_panel_hidden_until_its_tab_is_chosen_keeps_its_text(tmp_path: Path) -> None:
    # sphinx-tabs as Flask's installation page builds it: the first panel shown, the others
    # ``hidden`` until a reader chooses their tab.
    page = """<html><body><div role="main"><h1>Installation</h1>
    <h2 id="create-an-environment">Create an environment</h2>
    <div class="sphinx-tabs"><div role="tablist"><button role="tab">macOS/Linux</button>
    <button role="tab">Windows</button></div>
    <div class="sphinx-tabs-panel" role="tabpanel"><pre>python3 -m venv .venv</pre></div>
    <div class="sphinx-tabs-panel" hidden="true" role="tabpanel"><pre>py -3 -m venv .venv</pre>
    </div></div><div hidden><p>A menu the page shows on hover.</p></div></div></body></html>"""
    (tmp_path / "installation.html").write_text(page, "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(tmp_path / "installation.html")
        text = "\n".join(document.text for document in corpus.documents())
    assert "python3 -m venv .venv" in text and "py -3 -m venv .venv" in text
    assert "A menu the page shows on hover" not in text


def test_a_menu_opened_inside_a_sentence_leaves_the_sentence_its_own_words(tmp_path: Path) -> None:
    # HAProxy's manual opens a Bootstrap menu at every keyword a sentence names; an ARIA
    # menu is the same thing written to the standard.
    menu = (
        '<span class="dropdown"><a class="dropdown-toggle" data-toggle="dropdown" href="#">'
        'ca-file<span class="caret"></span></a><ul class="dropdown-menu">'
        '<li class="dropdown-header">This keyword is available in sections :</li>'
        '<li><a href="#bind">Bind options</a></li></ul></span>'
    )
    page = f"""<html><body><div role="main"><h1>Global parameters</h1>
    <h2 id="ca-base">ca-base</h2>
    <pre class="text">Assigns a default directory to fetch SSL CA certificates from when a
    relative path is used with "{menu}" directives.</pre>
    <div>The <span>crl-file</span><ul role="menu"><li>Server options</li></ul> keyword too.</div>
    </div></body></html>"""
    (tmp_path / "configuration.html").write_text(page, "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(tmp_path / "configuration.html")
        text = "\n".join(document.text for document in corpus.documents())
    assert 'used with "ca-file" directives' in " ".join(text.split())
    assert "This keyword is available" not in text and "Bind options" not in text
    assert "Server options" not in text and "crl-file" in text


# rustdoc's struct page: each method's heading stands in a ``section`` that holds its id,
# after the section's "source" link and beside the heading's own permalink.
RUSTDOC_METHODS = """<html><body><main><h1>Struct std::collections::HashMap</h1>
<p>A hash map implemented with quadratic probing.</p>
<h2 id="implementations">Implementations</h2><div id="implementations-list">
<details open><summary><section id="method.new" class="method"><span class="rightside"><a
class="srclink" href="../src/map.rs.html#232">source</a></span><a href="#method.new"
class="anchor"></a><h4 class="code-header">pub fn <a href="#method.new">new</a>() -&gt;
HashMap&lt;K, V&gt;</h4></section></summary><div class="docblock"><p>Creates an empty
HashMap.</p></div></details>
<details open><summary><section id="method.keys" class="method"><span class="rightside"><a
class="srclink" href="../src/map.rs.html#250">source</a></span><a href="#method.keys"
class="anchor"></a><h4 class="code-header">pub fn keys(&amp;self) -&gt; Keys<span
class="notable-traits"><span class="notable-traits-tooltip">&#9432;<span
class="notable-traits-tooltiptext"><span class="notable">Notable traits for Keys</span><code>impl
Iterator for Keys</code></span></span></span></h4></section></summary><div class="docblock">
<p>An iterator visiting all keys in arbitrary order.</p></div></details></div>
</main></body></html>"""


def test_a_heading_whose_permalink_stands_just_before_it_is_at_the_place_it_names() -> None:
    documents = {d.id: d for d in _read(RUSTDOC_METHODS, "struct.HashMap")}
    assert "struct.HashMap#method.new" in documents
    assert "struct.HashMap#method.keys" in documents
    assert documents["struct.HashMap#method.new"].text.startswith(
        "pub fn new() -> HashMap<K, V>\n\nCreates an empty HashMap."
    )
    # An empty link before a heading that names no element around it is no permalink of its:
    # the heading is where the section around it is. (A version stands before it, as rustdoc
    # writes one beside most entries: its "source" link is a control, no text.)
    elsewhere = RUSTDOC_METHODS.replace(
        '<a href="#method.new"\nclass="anchor">', '<a href="#top"\nclass="anchor">'
    ).replace('<span class="rightside"><a', '<span class="rightside">1.0.0 · <a', 1)
    assert elsewhere != RUSTDOC_METHODS
    ids = [d.id for d in _read(elsewhere, "struct.HashMap")]
    assert "struct.HashMap#method.new" not in ids and "struct.HashMap#method.keys" in ids


def test_a_tooltips_text_is_no_word_of_the_heading_it_sits_in() -> None:
    keys = {d.id: d for d in _read(RUSTDOC_METHODS, "struct.HashMap")}["struct.HashMap#method.keys"]
    assert keys.title.endswith("pub fn keys(&self) -> Keys")  # its mark "ⓘ" a control
    assert "Notable traits" not in keys.text
    aria = '<p>Run <code>make</code><span role="tooltip">Builds every target</span> first.</p>'
    (page,) = _read(f"<html><body><main><h1>Build</h1>{aria}</main></body></html>")
    assert "Builds every target" not in page.text and "Run make first." in page.text


def _gtkdoc_page(bar: str) -> str:
    """A gtk-doc reference page (GTK-Doc 1.33 over DocBook XSL, as GLib's), its navigation
    table ``bar`` beside the ``div.refentry`` that holds its title six elements down."""
    return f"""<html><head><title>Hash Tables: GLib Reference Manual</title>
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head><body>
{bar}
<div class="refentry"><a name="glib-Hash-Tables"></a><div class="titlepage"></div>
<div class="refnamediv"><table width="100%"><tr><td valign="top">
<h2><span class="refentrytitle"><a name="glib-Hash-Tables.top_of_page"></a>Hash Tables</span></h2>
<p>Hash Tables — associations between keys and values</p></td></tr></table></div>
<div class="refsect1"><a name="glib-Hash-Tables.description"></a><h2>Description</h2>
<p>A GHashTable provides associations between keys and values.</p></div>
<div class="refsect1"><a name="glib-Hash-Tables.functions_details"></a><h2>Functions</h2>
<div class="refsect2"><a name="g-hash-table-new"></a><h3>g_hash_table_new ()</h3>
<pre class="programlisting">GHashTable *
g_hash_table_new (GHashFunc hash_func,
                  GEqualFunc key_equal_func);</pre>
<p>Creates a new GHashTable with a reference count of 1.</p></div></div></div>
</body></html>"""


_GTKDOC_BAR = """<table class="navigation" id="top" width="100%"><tr valign="middle">
<td width="100%" align="left" class="shortcuts"><a href="#" class="shortcut">Top</a>
<span id="nav_description"> <span class="dim">|</span>
<a href="#glib-Hash-Tables.description" class="shortcut">Description</a></span></td>
<td><a accesskey="h" href="index.html"><img src="home.png" alt="Home"></a></td>
<td><a accesskey="u" href="glib-data-types.html"><img src="up.png" alt="Up"></a></td>
<td><a accesskey="p" href="glib-Trash-Stacks.html"><img src="left.png" alt="Prev"></a></td>
<td><a accesskey="n" href="glib-Strings.html"><img src="right.png" alt="Next"></a></td>
</tr></table>"""


def test_a_navigation_bar_before_the_pages_first_heading_is_no_section_of_it() -> None:
    documents = {d.id: d for d in _read(_gtkdoc_page(_GTKDOC_BAR), "glib-Hash-Tables")}
    assert list(documents) == [
        "glib-Hash-Tables",
        "glib-Hash-Tables#glib-Hash-Tables.description",
        "glib-Hash-Tables#g-hash-table-new",
    ]
    page = documents["glib-Hash-Tables"]
    assert page.title == "Hash Tables"
    assert page.text == "Hash Tables\n\nHash Tables — associations between keys and values"
    function = documents["glib-Hash-Tables#g-hash-table-new"]
    assert function.title == "Hash Tables › Functions › g_hash_table_new ()"
    assert "GHashTable *\ng_hash_table_new (GHashFunc hash_func,\n" in function.text
    for document in documents.values():
        assert "Top" not in document.text and "Description |" not in document.text


def test_a_sentence_before_the_pages_first_heading_keeps_the_links_beside_it() -> None:
    # Only bars of links: a line of words before the title is the page's text, and the
    # links beside it stay with it.
    bar = '<p><a href="index.html">Home</a> | <a href="glib-Strings.html">Strings</a></p>'
    said = f"<p>This manual describes GLib 2.74, a general-purpose library.</p>{bar}"
    first = _read(_gtkdoc_page(said), "glib-Hash-Tables")[0]
    assert first.text.startswith("This manual describes GLib 2.74")
    assert first.text.endswith("Home | Strings")


def test_a_footer_named_by_its_class_is_no_text_of_the_last_section() -> None:
    # gtk-doc ends every page with ``<div class="footer">``; Doxygen without its tree view
    # with ``<address class="footer">``.
    gtkdoc = _gtkdoc_page(_GTKDOC_BAR).replace(
        "</body>", '<div class="footer"><hr>Generated by GTK-Doc V1.33.1</div></body>'
    )
    last = _read(gtkdoc, "glib-Hash-Tables")[-1]
    assert last.text.endswith("Creates a new GHashTable with a reference count of 1.")
    doxygen = """<html><head><title>SDL: SDL_main.h File Reference</title></head><body>
    <div class="contents"><h2 class="groupheader">Detailed Description</h2>
    <p>Redefine main() on some platforms so that it is called by SDL.</p></div>
    <hr class="footer"/><address class="footer"><small>Generated by <a
    href="https://www.doxygen.org/index.html">doxygen</a> 1.9.4</small></address>
    </body></html>"""
    (page,) = _read(doxygen)
    assert page.text.endswith("so that it is called by SDL.")


_DOXYGEN_FILE = """<html><head><title>Acme: acme_main.h File Reference</title>
<meta name="generator" content="Doxygen 1.9.4"></head><body>
<div id="top"><div id="titlearea"><div id="projectname">Acme 2.0</div></div></div>
<div id="doc-content"><div class="header"><div class="summary"><a href="#func-members">
Functions</a></div><div class="headertitle"><div class="title">acme_main.h File
Reference</div></div></div><div class="contents">
<div class="textblock"><code>#include "acme_stdinc.h"</code></div>
<table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">
<a id="func-members" name="func-members"></a>Functions</h2></td></tr>
<tr><td class="memItemLeft">int</td><td class="memItemRight"><a class="el"
href="#a35282508ae">acme_main</a> (int argc, char *argv[])</td></tr></table>
<a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2>
<div class="textblock"><p>Redefine main() on some platforms so that Acme calls it.</p></div>
<h2 class="groupheader">Function Documentation</h2>
<a id="a35282508ae" name="a35282508ae"></a>
<h2 class="memtitle"><span class="permalink"><a href="#a35282508ae">&#9670;&nbsp;</a></span>
acme_main()</h2><div class="memitem"><div class="memproto">int acme_main (int argc)</div>
<div class="memdoc"><p>The application's own main function.</p></div></div>
</div></div></body></html>"""


def test_a_page_titled_by_its_title_tag_roots_its_side_by_side_headings_there() -> None:
    # Doxygen writes the page's title in a div, text, then h2 headings of one level.
    site = _read(_DOXYGEN_FILE, "acme__main_8h")
    titles = {d.id: d.title for d in site}
    assert titles["acme__main_8h#details"] == (
        "Acme: acme_main.h File Reference › Detailed Description"
    )
    assert titles["acme__main_8h#a35282508ae"] == "Acme: acme_main.h File Reference › acme_main()"
    # An h1 is the page's title: the paths stay rooted there (what stands before it, found
    # without a content marker, is a banner's).
    with_h1 = _DOXYGEN_FILE.replace(
        '<h2 class="groupheader">\n<a id="func-members"', '<h1>\n<a id="func-members"'
    ).replace("Functions</h2></td>", "Functions</h1></td>")
    assert with_h1 != _DOXYGEN_FILE
    titles = {d.id: d.title for d in _read(with_h1, "acme__main_8h")}
    assert titles["acme__main_8h#details"] == "Functions › Detailed Description"


def _gtkdoc_function(anchor: str, name: str, returns: str) -> str:
    """One function's entry as gtk-doc writes it, its parameters and return value each
    under an ``h4`` of its own."""
    return f"""<div class="refsect2"><a name="{anchor}"></a><h3>{name} ()</h3>
<pre class="programlisting">gboolean
{name} (GHashTable *hash_table, gpointer key);</pre><p>Looks up a key in a GHashTable.</p>
<div class="refsect3"><a name="{anchor}.parameters"></a><h4>Parameters</h4>
<div class="informaltable"><table width="100%" border="0"><tbody><tr>
<td class="parameter_name"><p>hash_table</p></td><td class="parameter_description">
<p>a GHashTable</p></td></tr></tbody></table></div></div>
<div class="refsect3"><a name="{anchor}.returns"></a><h4>Returns</h4><p>{returns}</p></div>
</div><hr>"""


def test_the_parts_every_entry_of_a_page_labels_alike_are_text_of_each_entry() -> None:
    entries = _gtkdoc_function(
        "g-hash-table-contains", "g_hash_table_contains", "TRUE if key is in hash_table."
    ) + _gtkdoc_function("g-hash-table-remove", "g_hash_table_remove", "TRUE if found.")
    page = (
        _gtkdoc_page(_GTKDOC_BAR)
        .replace("<hr></div></div></div>", "")
        .replace("reference count of 1.</p></div>", f"reference count of 1.</p></div>{entries}")
    )
    assert entries in page
    documents = {d.id: d for d in _read(page, "glib-Hash-Tables")}
    assert not [anchor for anchor in documents if anchor.endswith((".parameters", ".returns"))]
    contains = documents["glib-Hash-Tables#g-hash-table-contains"]
    assert contains.title == "Hash Tables › Functions › g_hash_table_contains ()"
    assert contains.text.endswith(
        "Parameters\n\nhash_table\n\na GHashTable\n\nReturns\n\nTRUE if key is in hash_table."
    )
    # A permalink makes each a place a reader is sent to: sections of their own.
    linked = page.replace("<h4>Returns</h4>", '<h4>Returns<a href="#{0}">¶</a></h4>')
    for anchor in ("g-hash-table-contains", "g-hash-table-remove"):
        linked = linked.replace(
            f'"{anchor}.returns"></a><h4>Returns<a href="#{{0}}">',
            f'"{anchor}.returns"></a><h4>Returns<a href="#{anchor}.returns">',
        )
    ids = [d.id for d in _read(linked, "glib-Hash-Tables")]
    assert "glib-Hash-Tables#g-hash-table-remove.returns" in ids
    assert "glib-Hash-Tables#g-hash-table-remove.parameters" not in ids


def test_text_beside_a_first_h1_is_the_pages_own_and_its_title_roots_the_paths() -> None:
    # Doxygen's Markdown pages: the title in a div, the page's text, then its "#" headings
    # as h1 beside that text.
    page = """<html><head><title>Acme: DirectFB</title></head><body>
    <div id="top"><div id="projectname">Acme 2.0</div></div><div id="doc-content">
    <div class="header"><div class="headertitle"><div class="title">DirectFB</div></div></div>
    <div class="contents"><div class="textblock"><p>Supports:</p><ul><li>Hardware YUV
    overlays</li><li>multiple displays</li></ul>
    <h1><a class="anchor" id="autotoc_md39"></a>Simple Window Manager</h1>
    <p>The driver has support for a very, very basic window manager.</p>
    <h1><a class="anchor" id="autotoc_md40"></a>OpenGL Support</h1>
    <p>The following instructions will give you software OpenGL.</p></div></div></div>
    </body></html>"""
    documents = {d.id: d for d in _read(page, "directfb")}
    assert list(documents) == ["directfb", "directfb#autotoc_md39", "directfb#autotoc_md40"]
    assert documents["directfb"].text.startswith("Supports:")
    assert documents["directfb"].title == "Acme: DirectFB"
    assert documents["directfb#autotoc_md40"].title == "Acme: DirectFB › OpenGL Support"
    # An h1 that opens its own element is the page's title: a line above it is a banner's.
    banner = page.replace(
        '<h1><a class="anchor" id="autotoc_md39">',
        '</div><div class="textblock"><h1><a class="anchor" id="autotoc_md39">',
    )
    assert banner != page
    first = _read(banner, "directfb")[0]
    assert first.title == "Simple Window Manager" and "Supports" not in first.text


def test_a_title_and_a_contents_box_beside_a_first_h1_leave_it_the_pages_title() -> None:
    # SQLite's pages: a title and a table of contents in divs beside the first h1, no
    # paragraph of the page's own before it.
    page = """<html><head><title>Measuring and Reducing CPU Usage in SQLite</title></head>
    <body><div class="fancy"><div class="nosearch"><div class="fancy_title">Measuring and
    Reducing CPU Usage in SQLite</div><div class="fancy_toc"><a>Table Of Contents</a><div
    id="toc_sub"><div class="fancy-toc1"><a href="#overview">1. Overview</a></div><div
    class="fancy-toc1"><a href="#limitations">2. Limitations</a></div></div></div></div>
    <h1 id="overview"><span>1. </span>Overview</h1><p>The graph below shows the number of
    CPU cycles used by SQLite on a standard workload.</p>
    <h1 id="limitations"><span>2. </span>Limitations</h1><p>The measurements are of CPU
    cycles, not of time.</p></div></body></html>"""
    titles = [d.title for d in _read(page, "cpu")]
    assert titles == ["1. Overview", "1. Overview › 2. Limitations"]


def test_a_bar_a_rule_and_markers_before_a_chapters_h1_are_no_text_of_it() -> None:
    # texi2html 1.78 (GNU gettext's manual): the chapter's bar, a rule, two <a name>.
    page = """<html><head><title>GNU gettext utilities: 2. The User's View</title></head>
    <body lang="en"><table cellpadding="1" cellspacing="1" border="0"><tr><td>[<a
    href="gettext_1.html#SEC1" title="Beginning of this chapter"> &lt;&lt; </a>]</td><td>[<a
    href="gettext_3.html#SEC16" title="Next chapter"> &gt;&gt; </a>]</td><td> &nbsp; </td>
    <td>[<a href="gettext_toc.html#SEC_Top">Top</a>]</td><td>[<a
    href="gettext_toc.html#SEC_Contents">Contents</a>]</td></tr></table>
    <hr size="2">
    <a name="Users"></a>
    <a name="SEC7"></a>
    <h1 class="chapter"> <a href="gettext_toc.html#TOC7">2. The User's View</a> </h1>
    <p>Nowadays, when users log into a computer, they usually find that all their programs
    show messages in their native language.</p>
    <a name="System-Installation"></a><a name="SEC8"></a>
    <h2 class="section"> <a href="gettext_toc.html#TOC8">2.1 Operating System
    Installation</a> </h2><p>The default language is often already specified during
    operating system installation.</p></body></html>"""
    documents = _read(page, "gettext_2")
    assert [d.title for d in documents] == [
        "2. The User's View",
        "2. The User's View › 2.1 Operating System Installation",
    ]
    assert documents[0].text.startswith("2. The User's View\n\nNowadays")


def test_a_description_beside_the_element_a_first_h1_opens_is_the_pages_own_text() -> None:
    # Haddock's module pages: the module's name and description in divs, then the
    # interface, which opens with its first group's heading wrapped in the group's anchor.
    page = """<html><head><title>Data.Aeson.Encoding</title></head><body>
    <div id="package-header"><span class="caption">aeson-2.0.3.0</span></div>
    <div id="content"><div id="module-header"><p class="caption">Data.Aeson.Encoding</p>
    </div><div id="description"><p class="caption">Description</p><div class="doc"><p>
    Functions in this module return well-formed encodings of a JSON value.</p></div></div>
    <div id="interface"><a href="#g:1" id="g:1"><h1>Encoding</h1></a><div class="top">
    <p class="src">type Encoding</p><div class="doc"><p>Often used synonym.</p></div></div>
    <a href="#g:2" id="g:2"><h1>Predicates</h1></a><div class="top"><p class="src">
    nullEncoding :: Encoding -> Bool</p></div></div></div></body></html>"""
    documents = {d.id: d for d in _read(page, "Data-Aeson-Encoding")}
    assert list(documents) == [
        "Data-Aeson-Encoding",
        "Data-Aeson-Encoding#g:1",
        "Data-Aeson-Encoding#g:2",
    ]
    assert "return well-formed encodings" in documents["Data-Aeson-Encoding"].text
    assert documents["Data-Aeson-Encoding"].title == "Data.Aeson.Encoding"
    assert documents["Data-Aeson-Encoding#g:2"].title == "Data.Aeson.Encoding › Predicates"
    # A line of a few words beside it is a banner's, as beside an h1 of its own.
    banner = page.replace(
        "Functions in this module return well-formed encodings of a JSON value.", "Version 2"
    )
    first = _read(banner, "Data-Aeson-Encoding")[0]
    assert first.title == "Encoding" and "Version 2" not in first.text
