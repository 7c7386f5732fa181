"""Built documentation sites in: main content only, one document per section, each linked
at the anchor the site itself uses. Fixtures are real pages from Debian's python3.11-doc
(Sphinx) and postgresql-doc-15 (DocBook); see fixtures/sites/README.md."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus, Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile

SITES = Path(__file__).parent / "fixtures" / "sites"
runner = CliRunner()
# Chrome of the Sphinx python-docs theme around every page of the site.
SPHINX_NAVIGATION = (
    "Previous topic",
    "Next topic",
    "Report a Bug",
    "Show Source",
    "Table of Contents",
    "Quick search",
    "¶",
    "Python Software Foundation",
)


def _ingest_site(tmp_path: Path, site: str, base_url: str) -> dict[str, Document]:
    db = tmp_path / "site.sqlite"
    result = runner.invoke(
        app, ["ingest", str(SITES / site), "--db", str(db), "--base-url", base_url]
    )
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        return {document.id: document for document in corpus.documents()}


def test_a_sphinx_section_has_its_heading_path_anchor_url_and_code(tmp_path: Path) -> None:
    documents = _ingest_site(tmp_path, "python-docs", "https://docs.python.org/3.11/")
    section = documents["howto/sorting#key-functions"]
    assert section.title == "Sorting HOW TO › Key Functions"
    assert section.url == "https://docs.python.org/3.11/howto/sorting.html#key-functions"
    # The code block keeps its lines, as the page shows them.
    assert (
        '>>> sorted("This is a test string from Andrew".split(), key=str.lower)\n'
        "['a', 'Andrew', 'from', 'is', 'string', 'test', 'This']"
    ) in section.text
    # A sentence the page wraps in its source reads as one line.
    assert "Both list.sort() and sorted() have a key parameter to specify a function" in (
        section.text
    )
    assert "Decorate-Sort-Undecorate" not in section.text  # the next section's


def test_a_sites_pages_keep_no_navigation_and_its_sources_folder_is_not_read(
    tmp_path: Path,
) -> None:
    documents = _ingest_site(tmp_path, "python-docs", "https://docs.python.org/3.11/")
    assert len(documents) == 9
    top = documents["howto/sorting"]
    assert top.title == "Sorting HOW TO"
    assert top.url == "https://docs.python.org/3.11/howto/sorting.html"
    for document in documents.values():
        assert not document.id.startswith("_sources")
        for chrome in SPHINX_NAVIGATION:
            assert chrome not in document.text and chrome not in document.title


def test_a_built_site_ingested_without_a_base_url_skips_its_sources_folder_too(
    tmp_path: Path,
) -> None:
    db = tmp_path / "site.sqlite"
    result = runner.invoke(app, ["ingest", str(SITES / "python-docs"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        ids = [document.id for document in corpus.documents()]
    assert "howto/sorting#key-functions" in ids
    assert not [i for i in ids if i.startswith("_")]


def test_a_pages_source_beside_it_is_not_read_as_a_second_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "git-commit.html").write_text(
        "<html><body><h1>git-commit</h1><p>Record changes to the repository.</p></body></html>"
    )
    (site / "git-commit.txt").write_text("git-commit(1)\n=============\n\nRecord changes.\n")
    (site / "notes.txt").write_text("A text file of its own is read.\n")
    db = tmp_path / "site.sqlite"
    result = runner.invoke(app, ["ingest", str(site), "--db", str(db)])
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        texts = " ".join(document.text for document in corpus.documents())
    assert "Record changes to the repository." in texts
    assert "A text file of its own is read." in texts
    assert "=====" not in texts and "git-commit(1)" not in texts


def test_a_scripts_license_text_beside_it_is_no_page(tmp_path: Path) -> None:
    # Docusaurus 3.10's build: webpack writes each bundle's license comments beside it.
    site = tmp_path / "build"
    (site / "assets" / "js").mkdir(parents=True)
    (site / "index.html").write_text(
        "<html><body><main><h1>Black</h1><p>The uncompromising formatter.</p></main></body></html>"
    )
    (site / "assets" / "js" / "main.a5f3f386.js").write_text("(()=>{})();\n")
    (site / "assets" / "js" / "main.a5f3f386.js.LICENSE.txt").write_text(
        "/**\n * @license React\n * react-dom.production.min.js\n */\n"
    )
    (site / "assets" / "js" / "release.notes.txt").write_text("A text file of its own is read.\n")
    db = tmp_path / "site.sqlite"
    result = runner.invoke(app, ["ingest", str(site), "--db", str(db)])
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        ids = sorted(document.id for document in corpus.documents())
    assert ids == ["assets/js/release.notes", "index"]


def test_a_folder_of_markdown_keeps_its_underscore_folders(tmp_path: Path) -> None:
    (tmp_path / "docs" / "_guides").mkdir(parents=True)
    (tmp_path / "docs" / "_guides" / "setup.md").write_text("# Setup\n\nInstall it first.\n")
    db = tmp_path / "notes.sqlite"
    result = runner.invoke(app, ["ingest", str(tmp_path / "docs"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        assert [document.id for document in corpus.documents()] == ["_guides/setup"]


ASCIIDOC_PAGE = """<!DOCTYPE html><html><head><meta name="generator" content="AsciiDoc 10.2.0" />
<title>tool-run(1)</title></head><body class="manpage">
<div id="header"><h1>tool-run(1) Manual Page</h1><h2>NAME</h2>
<div class="sectionbody"><p>tool-run - Run the tool once</p></div></div>
<div id="content">
<div class="sect1"><h2 id="_description">DESCRIPTION</h2><div class="sectionbody">
<div class="paragraph"><p>Runs the tool over every file named, once.</p></div></div></div>
<div class="sect1"><h2 id="_examples">EXAMPLES</h2><div class="sectionbody">
<div class="listingblock"><div class="content"><pre><code>$ tool-run --all</code></pre></div></div>
</div></div></div>
<div id="footnotes"><hr /></div>
<div id="footer"><div id="footer-text">Last updated 2024-05-31 00:35:55 UTC</div></div>
</body></html>"""

DOCBOOK_NAMED_ANCHORS = """<html><head>
<meta name="generator" content="DocBook XSL Stylesheets V1.79">
<title>Tool User Manual</title></head><body><div class="book"><h1>Tool User Manual</h1>
<div class="chapter">
<div class="titlepage"><div><div><h2 class="title"><a name="getting-started"></a>Getting
started</h2></div></div></div><p>Install the tool, then run it once.</p></div></div>
</body></html>"""


def test_an_asciidoc_page_keeps_every_section_at_its_anchor_and_no_footer(
    tmp_path: Path,
) -> None:
    (tmp_path / "tool-run.html").write_text(ASCIIDOC_PAGE, "utf-8")
    (tmp_path / "manual.html").write_text(DOCBOOK_NAMED_ANCHORS, "utf-8")
    db = tmp_path / "site.sqlite"
    result = runner.invoke(
        app, ["ingest", str(tmp_path), "--db", str(db), "--base-url", "https://tool.example/"]
    )
    assert result.exit_code == 0, result.output
    with Corpus.open(db) as corpus:
        documents = {document.url: document for document in corpus.documents()}
    description = documents["https://tool.example/tool-run.html#_description"]
    assert description.title == "tool-run(1) Manual Page › DESCRIPTION"
    assert "Runs the tool over every file named, once." in description.text
    assert "$ tool-run --all" in documents["https://tool.example/tool-run.html#_examples"].text
    assert any("Run the tool once" in d.text for d in documents.values())
    assert not any("Last updated" in d.text for d in documents.values())
    started = documents["https://tool.example/manual.html#getting-started"]
    assert "Install the tool, then run it once." in started.text
    # A heading the page's source wraps is one line.
    assert started.title == "Tool User Manual › Getting started"


def test_a_docbook_reference_page_keeps_its_name_at_the_root_of_every_section(
    tmp_path: Path,
) -> None:
    documents = _ingest_site(tmp_path, "postgresql-docs", "https://www.postgresql.org/docs/15/")
    titles = {document.title for document in documents.values()}
    assert {"DELETE", "DELETE › Description", "DELETE › Examples"} <= titles
    # A tip box's own heading stays in its section.
    assert "DELETE › Tip" not in titles
    for document in documents.values():
        for chrome in ("Prev", "Up", "Home", "Next"):
            assert not re.search(rf"^{chrome}$", document.text, re.MULTILINE)
    select = documents["tutorial-select"]
    assert select.url == "https://www.postgresql.org/docs/15/tutorial-select.html"
    assert "SELECT * FROM weather\n    WHERE city = 'San Francisco' AND prcp > 0.0;" in (
        select.text
    )


def test_search_over_a_site_finds_the_section_not_the_page(tmp_path: Path) -> None:
    db = tmp_path / "site.sqlite"
    runner.invoke(
        app,
        ["ingest", str(SITES / "python-docs"), "--db", str(db), "--base-url", "https://d.org/"],
    )
    with Corpus.open(db) as corpus:
        [hit] = corpus.search("decorate sort undecorate idiom", k=1)
    assert hit.url == "https://d.org/howto/sorting.html#decorate-sort-undecorate"
    assert hit.title == "Sorting HOW TO › Decorate-Sort-Undecorate"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<h1>",
                "</h1>",
                "<h2 id='a'>",
                "</h2>",
                "<section id='s'>",
                "</section>",
                "<pre>",
                "</pre>",
                "<p>",
                "</p>",
                "<nav>",
                "</nav>",
                "<div role=main>",
                "</div>",
                "\x00",
                "\x01",
                "\x02",
                "\x0112\x01",
                "\x003\x00",
                "text ",
                "\n",
                "  code",
                "<a class=headerlink>¶</a>",
                "<main>",
                "</main>",
                "<dl class=glossary>",
                "</dl>",
                "<dt id='t'>",
                "<dt>",
                "</dt>",
                "<dd>",
                "<a id='m'></a>",
                "<span class=glossterm>",
            ]
        ),
        max_size=40,
    )
)
def test_any_html_reads_as_documents_or_a_reason_never_a_crash(parts: list[str]) -> None:
    origin = SourceFile(Path("page.html"), "page", "page.html", "https://d.org/page.html")
    for item in html.read("".join(parts), origin):
        if isinstance(item, Document):
            assert not re.search(r"[\x00-\x02]", item.text + item.title)
            assert item.id == "page" or item.id.startswith("page#")


def test_mkdocs_and_docusaurus_pages_keep_their_content_and_drop_their_chrome(
    tmp_path: Path,
) -> None:
    documents = _ingest_site(tmp_path, "generators", "https://docs.example.org/")
    defaults = documents["mkdocs-material#defaults"]
    assert defaults.title == "Query Parameters › Defaults"
    assert defaults.url == "https://docs.example.org/mkdocs-material.html#defaults"
    assert "FastAPI will know that the value of q is not required." in defaults.text
    page = documents["mkdocs-material"]
    assert "def read_item(skip: int = 0, limit: int = 10):\n    return fake_items_db" in (page.text)
    requirements = documents["docusaurus#requirements"]
    assert requirements.title == "Installation › Requirements"
    assert requirements.url == "https://docs.example.org/docusaurus.html#requirements"
    assert "npx create-docusaurus@latest my-website classic\n  cd my-website" in (requirements.text)
    for document in documents.values():
        for chrome in (
            "Edit this page",
            "Last update",
            "Previous",
            "Breadcrumbs",
            "On this page",
            "Copyright",
            "Search",
            "¶",
            "\u200b",
            "Home",
        ):
            assert chrome not in document.text and chrome not in document.title, chrome


def test_a_page_no_generator_marks_keeps_the_element_holding_its_headings(
    tmp_path: Path,
) -> None:
    documents = _ingest_site(tmp_path, "generators", "https://wiki.example.org/")
    size = documents["unmarked#size"]
    assert size.title == "Tuning the cache › Choosing its size"
    assert size.url == "https://wiki.example.org/unmarked.html#size"
    assert 'cache_size = "4GB"\n  eviction = "lru"' in size.text
    page = documents["unmarked"]
    assert page.text.startswith("Tuning the cache\n\nThe cache keeps recently read pages")
    for document in (page, size):
        for chrome in ("Recent changes", "Log in", "Privacy policy", "About the wiki"):
            assert chrome not in document.text


_SPHINX_GLOSSARY = """<html><head><title>Glossary</title></head><body>
<div class="body" role="main"><section id="glossary"><h1>Glossary</h1>
<dl class="glossary">
<dt id="term-context-manager">context manager</dt>
<dd><p>An object which controls the environment seen in a <code>with</code> statement by
defining <code>__enter__()</code> and <code>__exit__()</code> methods.</p></dd>
<dt id="term-decorator">decorator</dt>
<dd><p>A function returning another function, usually applied as a function
transformation using the <code>@wrapper</code> syntax.</p></dd>
</dl></section>
<section id="json.dump"><h2>An API entry</h2>
<dl class="py function"><dt class="sig sig-object py" id="json.dumps">json.dumps(obj)</dt>
<dd><p>Serialize obj to a JSON formatted str.</p></dd></dl></section>
</div></body></html>"""

_DOCBOOK_GLOSSARY = """<html><head><title>Appendix M. Glossary</title>
<meta name="generator" content="DocBook XSL Stylesheets V1.79"></head><body>
<div class="glossary" id="GLOSSARY"><h2 class="title">Appendix M. Glossary</h2>
<p>This is a list of terms and their meaning in the context of PostgreSQL.</p>
<dl>
<dt id="GLOSSARY-ACID"><span class="glossterm">ACID</span></dt>
<dd class="glossdef"><p>Atomicity, Consistency, Isolation, and Durability.</p></dd>
<dt><span class="glossterm">Analytic function</span></dt>
<dd><p>See Window function.</p></dd>
<dt id="GLOSSARY-WAL"><span class="glossterm">Write-ahead log</span></dt>
<dd class="glossdef"><p>The journal that keeps track of the changes in the database
cluster.</p></dd>
</dl></div></body></html>"""


def _read_page(source: str, page: str) -> dict[str, Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return {d.id: d for d in html.read(source, origin) if isinstance(d, Document)}


def test_each_term_of_a_sphinx_glossary_is_a_section_at_its_own_anchor() -> None:
    documents = _read_page(_SPHINX_GLOSSARY, "glossary")
    term = documents["glossary#term-context-manager"]
    assert term.title == "Glossary › context manager"
    assert "controls the environment seen in a with statement" in _flat(term.text)
    assert "@wrapper" not in term.text  # the next term's
    assert documents["glossary#term-decorator"].title == "Glossary › decorator"
    # An API entry's signature has an id too, but it is no glossary term.
    assert "json.dumps(obj)" in documents["glossary#json.dump"].text
    assert not any(key.endswith("#json.dumps") for key in documents)


def test_each_linked_term_of_a_docbook_glossary_is_a_section_and_a_cross_reference_stays_text() -> (
    None
):
    documents = _read_page(_DOCBOOK_GLOSSARY, "glossary")
    assert "list of terms" in documents["glossary"].text
    acid = documents["glossary#GLOSSARY-ACID"]
    assert acid.title == "Appendix M. Glossary › ACID"
    # A term no link can reach has no section of its own: it stays with the one before.
    assert "Analytic function" in acid.text and "See Window function." in acid.text
    wal = documents["glossary#GLOSSARY-WAL"]
    assert "journal that keeps track of the changes" in _flat(wal.text)
    assert "Atomicity" not in wal.text


_ASCIIDOC_GLOSSARY = """<html><head><title>gitglossary(7)</title>
<meta name="generator" content="AsciiDoc 10.2.0"></head><body>
<div id="header"><h1>gitglossary(7) Manual Page</h1></div>
<div id="content"><div class="sect1"><h2 id="_description">DESCRIPTION</h2>
<div class="sectionbody"><div class="dlist"><dl>
<dt class="hdlist1"><a id="def_index"></a>index</dt>
<dd><p>A collection of files with stat information, whose contents are stored as
objects.</p></dd>
<dt class="hdlist1"><a id="def_origin"></a>origin</dt>
<dd><p>The default upstream repository.</p></dd>
</dl></div></div></div>
<div class="sect1"><h2 id="_options">OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>
<dt class="hdlist1">--soft</dt><dd><p>Does not touch the index file.</p></dd>
</dl></div></div></div></div></body></html>"""


def test_an_asciidoc_glossarys_anchored_terms_are_sections_and_an_option_list_is_not() -> None:
    documents = _read_page(_ASCIIDOC_GLOSSARY, "gitglossary")
    index = documents["gitglossary#def_index"]
    assert index.title == "gitglossary(7) Manual Page › DESCRIPTION › index"
    assert "stat information" in index.text and "upstream" not in index.text
    assert "default upstream repository" in documents["gitglossary#def_origin"].text
    # An option's term has no anchor: it stays in OPTIONS, which starts no term's section.
    assert "--soft" in documents["gitglossary#_options"].text
    assert documents["gitglossary#_options"].title == "gitglossary(7) Manual Page › OPTIONS"


def _flat(text: str) -> str:
    return " ".join(text.split())


# One slice per generator family, each of four pages so that what the site's pages share
# (the title part naming the site, chrome) is learned by comparing them: see
# fixtures/sites/README.md for where each comes from and its licence.


def _site_corpus(tmp_path: Path, site: str) -> Corpus:
    corpus = Corpus.open(tmp_path / f"{site}.sqlite")
    report = corpus.ingest(SITES / site, base_url="https://docs.example.org/")
    assert report.ok, report.skipped
    return corpus


def test_a_sphinx_site_with_its_own_theme_keeps_every_section_and_none_of_its_chrome(
    tmp_path: Path,
) -> None:
    # Old docutils markup (div.section with "s-" ids, a <span id> before each heading),
    # no div.body nor role=main, a sidebar of plain divs: the failing theme.
    with _site_corpus(tmp_path, "own-theme") as corpus:
        documents = {document.id: document for document in corpus.documents()}
        assert corpus.site_name == "Flask 2.2 documentation"
    # Each section at the id the page's own links use, not the "s-" one around it.
    command_line = documents["server#command-line"]
    assert command_line.url == "https://docs.example.org/server.html#command-line"
    assert command_line.title == "Development Server › Command Line"
    assert "\n\n$ flask --app hello --debug run\n\n" in command_line.text  # a console session
    for document in documents.values():
        assert "Flask 2.2 documentation" not in document.title
        assert not document.id.split("#")[-1].startswith("s-")
        for chrome in ("You are here", "Last update", "Browse", "previous", "Module Index"):
            assert chrome not in document.text, (chrome, document.id)


def test_an_asciidoc_sites_manual_pages_keep_their_sections_and_code(tmp_path: Path) -> None:
    with _site_corpus(tmp_path, "git-docs") as corpus:
        documents = {document.id: document for document in corpus.documents()}
    synopsis = documents["git-stage#_synopsis"]
    assert synopsis.title == "git-stage(1) Manual Page › SYNOPSIS"
    assert "git stage <arg>…" in synopsis.text
    # The manual's own repeated lines are content, kept on every page.
    assert "Part of the git(1) suite" in documents["git-stage#_git"].text
    assert not any("Last updated" in document.text for document in documents.values())


def test_an_mdbook_sites_titles_lose_the_books_name(tmp_path: Path) -> None:
    with _site_corpus(tmp_path, "rust-book") as corpus:
        documents = {document.id: document for document in corpus.documents()}
        assert corpus.site_name == "The Rust Programming Language"
    assert documents["ch05-00-structs"].title == "Using Structs to Structure Related Data"
    for document in documents.values():
        assert "The Rust Programming Language" not in document.title
        # The book's table of contents, beside every chapter, is not the chapter's text.
        assert "Foreword" not in document.text and "Appendix" not in document.text


def test_an_mkdocs_sites_code_and_console_sessions_stay_code(tmp_path: Path) -> None:
    with _site_corpus(tmp_path, "mkdocs-docs") as corpus:
        documents = {document.id: document for document in corpus.documents()}
        assert corpus.site_name == "MkDocs"
    installing = documents["user-guide/installation#installing-mkdocs"]
    assert installing.title == "MkDocs Installation › Installing MkDocs"
    assert "\n\npip install mkdocs\n\n" in installing.text
    assert "\n\n$ mkdocs --version\nmkdocs, version 1.2.0" in installing.text
    for document in documents.values():
        assert not document.title.endswith("MkDocs") or document.title.startswith("MkDocs")
        assert "Edit on GitHub" not in document.text


def test_a_banner_every_page_repeats_above_its_title_is_no_section_of_it(tmp_path: Path) -> None:
    # A theme's notice inside the element marked as the content, above each page's title.
    site = tmp_path / "site"
    site.mkdir()
    topics = ["tasks", "workers", "routing", "beat", "canvas", "signals"]
    for topic in topics:
        (site / f"{topic}.html").write_text(
            f"<html><head><title>{topic} — Demo 5.2</title></head><body>"
            '<div class="body" role="main"><div class="deck"><p>This document describes the '
            f'current stable version of Demo (5.2). For development docs, <a href="x/{topic}">'
            f'go here</a>.</p></div><section id="{topic}"><h1>{topic.title()}</h1>'
            f"<p>How {topic} work in this project, in words of its own.</p></section></div>"
            "</body></html>",
            "utf-8",
        )
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        corpus.ingest(site, base_url="https://docs.example.org/")
        documents = list(corpus.documents())
    assert sorted(d.id for d in documents) == sorted(topics)  # one section a page, its own
    assert not any("stable version" in d.text for d in documents)


_MODULES = ("transform", "keys", "pattern", "imports", "numbers", "security")


def _site_of(tmp_path: Path, page: Callable[[str], str]) -> dict[str, Document]:
    """A site of one page per module, each ``page(module)``, ingested."""
    site = tmp_path / "site"
    site.mkdir()
    for module in _MODULES:
        (site / f"{module}.html").write_text(page(module), "utf-8")
    with Corpus.open(tmp_path / "site.sqlite") as corpus:
        corpus.ingest(site)
        return {document.id: document for document in corpus.documents()}


def test_a_site_name_atop_every_page_gives_way_to_the_pages_own_title(tmp_path: Path) -> None:
    # The shape of libxslt's API pages (Debian's libxslt1-dev): the site's name is each
    # page's h1, the module its h2, each function an h3 under a shared "Description".
    documents = _site_of(
        tmp_path,
        lambda module: (
            f"<html><head><title>Module {module} from demolib</title></head><body>"
            f"<h1>The Demo C library</h1><h2>Module {module} from demolib</h2>"
            f"<p>This module implements the {module} part of the library.</p>"
            "<h2>Description</h2>"
            f'<h3><a name="demo_{module}_run"></a>Function: demo_{module}_run</h3>'
            f"<pre>int demo_{module}_run (void)</pre><p>Runs the {module} step once.</p>"
            "</body></html>"
        ),
    )
    run = documents["keys#demo_keys_run"]
    assert run.title == "Module keys from demolib › Description › Function: demo_keys_run"
    opening = documents["keys#module-keys-from-demolib"]
    assert opening.title == "Module keys from demolib"  # the title once, not twice
    assert not any(
        "Demo C library" in d.title or "Demo C library" in d.text for d in documents.values()
    )


def test_a_heading_every_page_shares_below_its_own_title_stays_in_the_path(tmp_path: Path) -> None:
    # Only the top heading can be a banner: "Description" under each page's own h1 stays.
    documents = _site_of(
        tmp_path,
        lambda module: (
            f"<html><head><title>{module} - Demo</title></head><body><h1>{module}</h1>"
            f"<p>The {module} module.</p><h2>Description</h2><p>What {module} does.</p>"
            "</body></html>"
        ),
    )
    assert documents["keys#description"].title == "keys › Description"


_BOXED_EXAMPLE = """<html><head><title>mod_proxy - Apache HTTP Server</title></head><body>
<div id="page-content"><h1>Apache Module mod_proxy</h1>
<p>Multi-protocol proxy and gateway.</p>
<div class="directive-section"><h2><a name="proxypass" id="proxypass">ProxyPass</a> Directive</h2>
<p>This directive maps remote servers into the space of the local server.</p>
<div class="example"><h3>Example</h3><pre>ProxyPass "/mirror/foo/" "http://backend.example.com/"</pre></div>
<p>Setting <code>retry</code> to 0 retries a failed worker at once.</p>
<h3>Ordering ProxyPass directives</h3>
<p>The configured rules are checked in the order of configuration.</p>
</div>
<div class="directive-section"><h2><a name="proxyvia" id="proxyvia">ProxyVia</a> Directive</h2>
<p>This directive controls the use of the Via header.</p></div>
</div></body></html>"""


def test_a_boxs_heading_of_any_class_leaves_the_text_after_the_box_to_its_section() -> None:
    documents = _read_page(_BOXED_EXAMPLE, "mod_proxy")
    proxypass = documents["mod_proxy#proxypass"]
    # The example's code and the paragraph after its box are the directive's.
    assert 'ProxyPass "/mirror/foo/"' in proxypass.text
    assert "retries a failed worker" in proxypass.text
    assert not any(d.title.endswith("› Example") for d in documents.values())


_BOXES_SIDE_BY_SIDE = """<html><head><title>mod_proxy_http2</title></head><body>
<div id="page-content"><h1>Apache Module mod_proxy_http2</h1><p>HTTP/2 to backends.</p>
<div class="section"><h2 id="examples">Basic Examples</h2>
<p>The examples below configure HTTP/2 for backend connections.</p>
<div class="example"><h3>HTTP/2 (TLS)</h3><pre>ProxyPass "/app" "h2://app.example.com"</pre></div>
<div class="example"><h3>HTTP/2 (cleartext)</h3><pre>ProxyPass "/app" "h2c://app.example.com"</pre>
</div>
<div class="note"><p>The schemes in ProxyPassReverse are the usual https and http.</p></div>
</div></div></body></html>"""


def test_boxes_side_by_side_before_a_note_leave_all_to_the_section_around_them() -> None:
    documents = _read_page(_BOXES_SIDE_BY_SIDE, "mod_proxy_http2")
    examples = documents["mod_proxy_http2#examples"]
    assert "h2://app" in examples.text and "h2c://app" in examples.text
    assert "the usual https and http" in examples.text
    assert not any("HTTP/2 (" in d.title for d in documents.values())


_CLOSING_BOX = """<html><head><title>Data.Aeson.Encoding</title></head><body>
<div id="interface"><a href="#g:1" id="g:1"><h1>Encoding</h1></a>
<div class="top"><p class="src">data <a id="t:Encoding" class="def">Encoding</a></p>
<div class="doc"><p>An encoding of a JSON value.</p></div>
<div class="subs instances"><h4 class="instances">Instances</h4><details open><summary>
Instances details</summary><table><tr><td class="src">Show Encoding</td></tr></table>
</details></div></div>
<div class="top"><p class="src"><a id="v:fromEncoding" class="def">fromEncoding</a> ::
Encoding -&gt; Builder</p><div class="doc"><p>Acquire the underlying builder.</p></div></div>
<a href="#g:2" id="g:2"><h1>Predicates</h1></a>
<div class="top"><p class="src">nullEncoding :: Encoding -&gt; Bool</p></div>
</div></body></html>"""


def test_a_box_that_closes_its_block_leaves_the_next_block_to_the_section_around_it() -> None:
    # Haddock closes a type's declaration with its box of instances; the next
    # declaration is the group's, not the instances'.
    documents = _read_page(_CLOSING_BOX, "Data-Aeson-Encoding")
    encoding = documents["Data-Aeson-Encoding"]
    assert "Show Encoding" in encoding.text
    assert "Acquire the underlying builder." in encoding.text
    assert not any(d.title.endswith("› Instances") for d in documents.values())
    assert "nullEncoding" in documents["Data-Aeson-Encoding#g:2"].text


def test_a_heading_without_an_id_is_cited_at_the_section_around_it() -> None:
    url = "https://httpd.apache.org/docs/2.4/mod/mod_proxy.html"
    origin = SourceFile(Path("mod_proxy.html"), "mod_proxy", "mod_proxy.html", url)
    documents = [d for d in html.read(_BOXED_EXAMPLE, origin) if isinstance(d, Document)]
    ordering = next(d for d in documents if d.title.endswith("› Ordering ProxyPass directives"))
    assert "order of configuration" in ordering.text
    # No id names its place: a link reaches it through ProxyPass's.
    assert ordering.url == f"{url}#proxypass"
    assert {d.url for d in documents} == {url, f"{url}#proxypass", f"{url}#proxyvia"}


_SECTIONS_WITHOUT_IDS = """<html><head><title>Guide</title></head><body><main><h1>Guide</h1>
<p>What this guide covers.</p>
<div class="part"><h2>Installing</h2><p>Run the installer.</p></div>
<div class="part"><h2>Upgrading</h2><p>Stop the server first.</p></div>
</main></body></html>"""


def test_sections_wrapped_without_ids_stay_sections() -> None:
    documents = _read_page(_SECTIONS_WITHOUT_IDS, "guide")
    titles = {d.title: d for d in documents.values()}
    assert "Run the installer." in titles["Guide › Installing"].text
    assert "Stop the server first." in titles["Guide › Upgrading"].text
    assert "Stop the server" not in titles["Guide › Installing"].text
