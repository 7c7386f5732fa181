"""Sphinx's markup as its themes and extensions write it, read by structure: permalinks
outside headings, glossary entries of several terms, a list of links a sentence
introduces, a heading that does not open the section its permalink names, and a page of
two top-level headings (Django's, lxml's changelog, and GNU Texinfo's Top node around a
manual's chapters). The cases are the pages of Debian's documentation packages that broke:
SQLAlchemy 1.4 (python-sqlalchemy-doc, the zzzeeksphinx theme), Scrapy 2.8
(python-scrapy-doc), Django 3.2 (python-django-doc), lxml 4.9.2 (python-lxml-doc) and the
Bash Reference Manual (bash-doc)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str) -> dict[str, Document]:
    url = f"https://docs.example.org/{page}.html"
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html", url)
    return {d.id: d for d in html.read(source, origin) if isinstance(d, Document)}


def test_a_permalink_mark_beside_a_parameters_name_is_no_text_wherever_it_sits() -> None:
    # SQLAlchemy's core/metadata.html: sphinx-paramlinks puts a "¶" after each parameter's
    # name in the field list of Column's constructor.
    page = """<html><body><div role="main"><section id="column"><h1>Column<a
    class="headerlink" href="#column">¶</a></h1><dl class="field-list simple">
    <dt class="field-odd">Parameters</dt><dd class="field-odd"><ul class="simple"><li><p><span
    class="target" id="sqlalchemy.schema.Column.params.server_default"></span><strong>
    server_default</strong><a class="paramlink headerlink reference internal"
    href="#sqlalchemy.schema.Column.params.server_default">¶</a> &ndash; <p>A FetchedValue
    instance.</p></li></ul></dd></dl>
    <p>See <a href="#column">#</a> and <a href="#sql-comments"># comments</a>; the mark
    <a href="other.html#x">¶</a> of another page is a link out.</p>
    <table><tr><td><a href="#index-_0023"><code>#</code></a>:</td><td><a
    href="#Special-Parameters">Special Parameters</a></td></tr></table></section></div>
    </body></html>"""
    (column,) = _read(page, "metadata").values()
    # (The page nests the description's paragraph in the item's, which HTML closes.)
    assert "server_default \u2013\n\nA FetchedValue instance." in column.text
    assert "See and # comments;" in column.text  # a link of words is text, "#" and all
    assert column.text.count("¶") == 1  # only the one to another page
    # A mark that leads elsewhere on the page is no permalink: Bash's Variable Index (GNU
    # Texinfo) lists the ``#`` special parameter so.
    assert "#:\nSpecial Parameters" in column.text


def test_a_glossary_entry_of_several_terms_is_at_its_first_terms_id_with_every_term() -> None:
    # SQLAlchemy's glossary.html: 28 of its 75 entries list several terms in a row.
    page = """<html><body><div role="main"><section id="glossary"><h1>Glossary</h1>
    <dl class="glossary">
    <dt id="term-1.x-style">1.x style<a class="headerlink" href="#term-1.x-style">¶</a></dt><dt
    id="term-2.0-style">2.0 style<a class="headerlink" href="#term-2.0-style">¶</a></dt>
    <dt id="term-0">1.x-style<a class="headerlink" href="#term-0">¶</a></dt>
    <!-- a comment between terms --><dt id="term-1">2.0-style<a class="headerlink"
    href="#term-1">¶</a></dt><dd><p>These terms are new in SQLAlchemy 1.4.</p></dd>
    <dt id="term-DBAPI">DBAPI</dt><dt id="term-pep-249">pep-249</dt><dd><p>DBAPI is shorthand
    for the phrase "Python Database API Specification".</p></dd>
    <dt id="term-dialect">dialect</dt><dd><p>A dialect talks to one kind of database.</p></dd>
    </dl></section></div></body></html>"""
    documents = _read(page, "glossary")
    assert list(documents) == [
        "glossary#term-1.x-style",
        "glossary#term-DBAPI",
        "glossary#term-dialect",
    ]
    style = documents["glossary#term-1.x-style"]
    assert style.title == "Glossary › 1.x style"
    assert style.url == "https://docs.example.org/glossary.html#term-1.x-style"
    assert style.text.startswith("1.x style\n2.0 style\n1.x-style\n2.0-style\nThese terms")
    dbapi = documents["glossary#term-DBAPI"]
    assert dbapi.title == "Glossary › DBAPI"
    assert dbapi.text.startswith("DBAPI\npep-249\nDBAPI is shorthand")
    # An entry of one term is as it was.
    assert documents["glossary#term-dialect"].text == (
        "dialect\nA dialect talks to one kind of database."
    )


def test_a_list_a_sentence_introduces_stays_text_though_it_links_every_subsection() -> None:
    # Scrapy's topics/extensions.html, the closespider extension: its list links the
    # ``std-setting-...`` labels just before the four subsections that follow, in order.
    settings = ("CLOSESPIDER_TIMEOUT", "CLOSESPIDER_ITEMCOUNT")
    listed = "".join(
        f'<li><p><a class="reference internal" href="#std-setting-{name}"><code>{name}</code>'
        "</a></p></li>"
        for name in settings
    )
    subsections = "".join(
        f'<section id="{name.lower()}"><span id="std-setting-{name}"></span><h5>{name}<a'
        f' class="headerlink" href="#{name.lower()}">¶</a></h5><p>Default: 0</p></section>'
        for name in settings
    )
    introduction = (
        "<p>The conditions for closing a spider can be configured through the following\n"
        "    settings:</p>"
    )
    page = f"""<html><body><div role="main"><section id="extensions"><h1>Extensions</h1>
    <p>The extensions framework inserts your own functionality into Scrapy.</p>
    <section id="module-closespider"><h4>Close spider extension</h4><p>Closes a spider
    automatically when some conditions are met.</p>
    {introduction}<ul class="simple">{listed}</ul><div class="admonition note"><p
    class="admonition-title">Note</p><p>Requests in the queue are still processed.</p></div>
    {subsections}</section></section></div></body></html>"""
    extension = _read(page, "extensions")["extensions#module-closespider"]
    assert "following settings:\n\nCLOSESPIDER_TIMEOUT\n\nCLOSESPIDER_ITEMCOUNT" in (extension.text)
    # The same list under a title, or after text it does not continue, is a table of
    # contents: docutils' ``contents`` box (CMake's), GNU Texinfo's menu of subsections.
    for before in ('<p class="topic-title">Contents:</p>', "<p>Closes a spider at once.</p>"):
        contents = page.replace(introduction, before)
        assert contents != page
        read = _read(contents, "extensions")["extensions#module-closespider"]
        assert "CLOSESPIDER_TIMEOUT\n" not in read.text
    # So is a list a sentence introduces that names the page's sections: Postfix's
    # READMEs, "This document provides information on the following topics:" in their
    # "Introduction", a list of it and the sections beside it.
    page = """<html><body><h1>Postfix Address Classes</h1><h2>Introduction</h2>
    <p>This document provides information on the following topics:</p><ul>
    <li><a href="#wtf">What are address classes good for?</a></li>
    <li><a href="#classes">What address classes does Postfix implement?</a></li></ul>
    <h2><a name="wtf">What are address classes good for?</a></h2><p>To simplify.</p>
    <h2><a name="classes">What address classes does Postfix implement?</a></h2>
    <p>Five.</p></body></html>"""
    introduction_section = next(iter(_read(page, "ADDRESS_CLASS_README").values()))
    assert introduction_section.text.endswith("the following topics:")


def test_a_heading_after_text_of_its_section_is_at_the_id_its_permalink_names() -> None:
    # SQLAlchemy's dialects/postgresql.html: the section's text comes before its heading,
    # whose permalink names the section.
    page = """<html><body><div id="docs-body" role="main">
    <section id="module-sqlalchemy.dialects.postgresql.base"><span id="postgresql"></span>
    <h1>PostgreSQL<a class="headerlink" href="#module-sqlalchemy.dialects.postgresql.base">¶</a>
    </h1><section id="dialect-postgresql"><p>Support for the PostgreSQL database.</p>
    <p>The following table summarizes current support levels.</p>
    <h2>DBAPI Support<a class="headerlink" href="#dialect-postgresql">¶</a></h2>
    <p>The following dialect/DBAPI options are available.</p></section>
    <section id="sequences-serial-identity"><h2>Sequences/SERIAL/IDENTITY<a class="headerlink"
    href="#sequences-serial-identity">¶</a></h2><p>PostgreSQL uses sequences.</p></section>
    </section></div></body></html>"""
    documents = _read(page, "dialects/postgresql")
    assert list(documents) == [
        "dialects/postgresql",
        "dialects/postgresql#dialect-postgresql",
        "dialects/postgresql#sequences-serial-identity",
    ]
    support = documents["dialects/postgresql#dialect-postgresql"]
    assert support.url == ("https://docs.example.org/dialects/postgresql.html#dialect-postgresql")
    assert support.title == "PostgreSQL › DBAPI Support"
    # A permalink to a place that is not around the heading names none of it.
    elsewhere = page.replace(
        '<h2>DBAPI Support<a class="headerlink" href="#dialect-postgresql">',
        '<h2>DBAPI Support<a class="headerlink" href="#postgresql">',
    )
    assert "dialects/postgresql#dialect-postgresql" not in _read(elsewhere, "dialects/postgresql")


def test_sections_under_a_second_top_level_heading_are_titled_under_it() -> None:
    # Django's ref/urls.html: two ``h1`` sections, each with its ``h2`` functions.
    page = """<html><body><div role="main" id="docs-content">
    <div class="section" id="s-module-django.urls.conf"><span id="module-django.urls.conf"></span>
    <h1><code>django.urls</code> functions for use in URLconfs</h1>
    <div class="section" id="s-path"><span id="path"></span><h2><code>path()</code><a
    class="headerlink" href="#path">¶</a></h2>
    <p>Returns an element for inclusion in urlpatterns.</p></div></div>
    <div class="section" id="s-module-django.conf.urls"><span id="module-django.conf.urls">
    </span><h1><code>django.conf.urls</code> functions for use in URLconfs</h1>
    <div class="section" id="s-static"><span id="static"></span><h2><code>static()</code><a
    class="headerlink" href="#static">¶</a></h2>
    <p>Helper function to return a URL pattern for serving files in debug mode.</p></div>
    <div class="section" id="s-url"><span id="url"></span><h2><code>url()</code><a
    class="headerlink" href="#url">¶</a></h2>
    <p>This function is an alias to re_path().</p></div></div></div></body></html>"""
    documents = _read(page, "ref/urls")
    assert documents["ref/urls#path"].title == (
        "django.urls functions for use in URLconfs › path()"
    )
    for name in ("static", "url"):
        assert documents[f"ref/urls#{name}"].title == (
            "django.urls functions for use in URLconfs"
            " › django.conf.urls functions for use in URLconfs"
            f" › {name}()"
        )


def test_a_release_heading_at_the_titles_level_stays_in_its_sections_titles() -> None:
    # lxml's changes-4.9.2.html (docutils' html4css1 writer): the page's title and each
    # release an ``h1``, a release with no text of its own, its "Bugs fixed" an ``h2``.
    page = """<html><body><div class="document" id="lxml-changelog">
    <h1 class="title">lxml changelog</h1>
    <div class="section" id="section-1"><h1>4.9.2 (2022-12-13)</h1>
    <div class="section" id="bugs-fixed"><h2>Bugs fixed</h2><ul class="simple"><li>CVE-2022-2309:
    A Bug in libxml2 2.9.1[0-4] could let namespace declarations leak.</li></ul></div></div>
    <div class="section" id="section-2"><h1>4.9.1 (2022-07-01)</h1>
    <div class="section" id="bugs-fixed-1"><h2>Bugs fixed</h2><ul class="simple"><li>A crash
    was resolved when using iterwalk().</li></ul></div>
    <div class="section" id="features-added"><h2>Features added</h2><div class="section"
    id="parser"><h3>Parser</h3><p>A new option.</p></div></div></div></div></body></html>"""
    titles = {name: document.title for name, document in _read(page, "changes").items()}
    assert titles == {
        "changes#bugs-fixed": "lxml changelog › 4.9.2 (2022-12-13) › Bugs fixed",
        "changes#bugs-fixed-1": "lxml changelog › 4.9.1 (2022-07-01) › Bugs fixed",
        # A heading of any level with no text of its own stays in the paths below it.
        "changes#parser": "lxml changelog › 4.9.1 (2022-07-01) › Features added › Parser",
    }


def test_a_second_top_level_heading_holds_the_headings_inside_the_element_it_opens() -> None:
    # The Bash Reference Manual (GNU Texinfo 6.8): the manual's title, then the Top node,
    # ``div.top``, whose ``h1`` opens it and which holds every chapter.
    page = """<html><body><h1 class="settitle">Bash Reference Manual</h1>
    <div class="top" id="Top"><h1 class="top">Bash Features</h1><p>This text is a brief
    description of the features that are present in the Bash shell.</p>
    <div class="chapter" id="Introduction"><h2 class="chapter">1 Introduction</h2>
    <div class="section" id="What-is-Bash_003f"><h3 class="section">1.1 What is Bash?</h3>
    <p>Bash is the shell, or command language interpreter, for the GNU operating system.</p>
    </div></div></div></body></html>"""
    documents = _read(page, "bash")
    assert documents["bash#What-is-Bash_003f"].title == (
        "Bash Reference Manual › Bash Features › 1 Introduction › 1.1 What is Bash?"
    )
    # Where the element ends before the next headings, they lie outside it.
    outside = page.replace(
        '</p>\n    <div class="chapter"', '</p></div>\n    <div><div class="chapter"'
    )
    assert outside != page
    assert _read(outside, "bash")["bash#What-is-Bash_003f"].title == (
        "Bash Reference Manual › 1 Introduction › 1.1 What is Bash?"
    )
    # A Top node named as the manual is (the R FAQ's) is its title again, once in a path.
    same = page.replace('"top">Bash Features<', '"top">Bash Reference Manual<')
    assert _read(same, "bash")["bash#What-is-Bash_003f"].title == (
        "Bash Reference Manual › 1 Introduction › 1.1 What is Bash?"
    )
