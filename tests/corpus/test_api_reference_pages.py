"""C API references read whole: the synopsis tables gtk-doc and Doxygen open a page with,
hand-written in the generators' shapes (GTK-Doc 1.33 over DocBook XSL as GLib and libsoup
ship it, Doxygen 1.9 as libsdl2-doc does)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted


def _read(source: str, page: str) -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _row(type_: str, anchor: str, name: str) -> str:
    return f"""<tr><td class="function_type">{type_}</td><td class="function_name"><a
    class="link" href="SoupAuthDomain.html#{anchor}">{name}</a> <span>()</span></td></tr>"""


def _entry(anchor: str, name: str, signature: str, text: str) -> str:
    return f"""<div class="refsect2"><a name="{anchor}"></a><h3>{name} ()</h3>
    <pre class="programlisting">{signature}</pre><p>{text}</p></div><hr>"""


_ENTRIES = _entry(
    "soup-auth-domain-add-path",
    "soup_auth_domain_add_path",
    "void\nsoup_auth_domain_add_path (SoupAuthDomain *domain,\n    const char *path);",
    "Adds path to domain.",
) + _entry(
    "soup-auth-domain-covers",
    "soup_auth_domain_covers",
    "gboolean\nsoup_auth_domain_covers (SoupAuthDomain *domain,\n    SoupMessage *msg);",
    "Checks if domain requires msg to be authenticated.",
)


def _gtkdoc(summary: str) -> str:
    return f"""<html><head><title>SoupAuthDomain: libsoup Reference Manual</title>
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head><body>
<div class="refentry"><a name="SoupAuthDomain"></a><div class="refnamediv"><h2><span
class="refentrytitle"><a name="SoupAuthDomain.top_of_page"></a>SoupAuthDomain</span></h2>
<p>SoupAuthDomain — Server-side authentication</p></div>
<div class="refsect1"><a name="SoupAuthDomain.functions"></a><h2>Functions</h2>
<div class="informaltable"><table class="informaltable" width="100%" border="0"><tbody>
{summary}</tbody></table></div></div>
<div class="refsect1"><a name="SoupAuthDomain.description"></a><h2>Description</h2>
<p>A SoupAuthDomain manages authentication for all or part of a SoupServer.</p></div>
<div class="refsect1"><a name="SoupAuthDomain.functions_details"></a><h2>Functions</h2>
{_ENTRIES}
</div></div></body></html>"""


_SUMMARY = _row("void", "soup-auth-domain-add-path", "soup_auth_domain_add_path") + _row(
    "gboolean", "soup-auth-domain-covers", "soup_auth_domain_covers"
)


def test_a_table_of_the_entries_a_page_documents_further_on_is_no_text_of_it() -> None:
    documents = {d.id: d for d in _read(_gtkdoc(_SUMMARY), "SoupAuthDomain")}
    assert list(documents) == [
        "SoupAuthDomain",
        "SoupAuthDomain#SoupAuthDomain.description",
        "SoupAuthDomain#soup-auth-domain-add-path",
        "SoupAuthDomain#soup-auth-domain-covers",
    ]
    covers = documents["SoupAuthDomain#soup-auth-domain-covers"]
    assert covers.title == "SoupAuthDomain › Functions › soup_auth_domain_covers ()"
    assert covers.text.startswith("soup_auth_domain_covers ()\n\ngboolean\nsoup_auth_domain")


def test_a_table_whose_rows_say_more_than_the_entries_they_link_is_text() -> None:
    # A comparison table links the sections it compares, and says what they do not.
    more = _SUMMARY.replace('<td class="function_type">void</td>', "<td>deprecated</td>")
    assert more != _SUMMARY
    ids = [d.id for d in _read(_gtkdoc(more), "SoupAuthDomain")]
    assert "SoupAuthDomain#SoupAuthDomain.functions" in ids
    # Rows that link elsewhere (another page's entries) are no synopsis of this one.
    elsewhere = _SUMMARY.replace('href="SoupAuthDomain.html#', 'href="SoupServer.html#')
    ids = [d.id for d in _read(_gtkdoc(elsewhere), "SoupAuthDomain")]
    assert "SoupAuthDomain#SoupAuthDomain.functions" in ids


_DOXYGEN = """<html><head><title>Acme: acme_events.h File Reference</title>
<meta name="generator" content="Doxygen 1.9.4"></head><body><div id="doc-content">
<div class="header"><div class="headertitle"><div class="title">acme_events.h File
Reference</div></div></div><div class="contents">
<div class="textblock"><code>#include "acme_stdinc.h"</code></div>
<table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader"><a
id="define-members" name="define-members"></a>Macros</h2></td></tr>
<tr class="memitem:a1"><td class="memItemLeft" align="right" valign="top">#define&#160;</td>
<td class="memItemRight" valign="bottom"><a class="el" href="../../d9/d42/acme__events_8h.html#a1">
ACME_GetEventState</a>(type)&#160;&#160;&#160;<a class="el"
href="../../d9/d42/acme__events_8h.html#a2">ACME_EventState</a>(type, ACME_QUERY)</td></tr>
<tr class="separator:a1"><td class="memSeparator" colspan="2">&#160;</td></tr>
<tr class="memitem:a2"><td class="memItemLeft" align="right" valign="top">int&#160;</td>
<td class="memItemRight" valign="bottom"><a class="el" href="../../d9/d42/acme__events_8h.html#a2">
ACME_EventState</a> (int type, int state)</td></tr>
<tr class="memdesc:a2"><td class="mdescLeft">&#160;</td><td class="mdescRight">Set the
state of processing events by type. <a href="../../d9/d42/acme__events_8h.html#a2">More...</a>
</td></tr></table>
<a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2>
<div class="textblock"><p>Include file for Acme event handling.</p></div>
<h2 class="groupheader">Macro Definition Documentation</h2>
<a id="a1" name="a1"></a><h2 class="memtitle">ACME_GetEventState</h2>
<div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">
#define ACME_GetEventState</td><td>(</td><td class="paramtype"></td><td class="paramname">
type</td><td>)&#160;&#160;&#160;<a class="el" href="../../d9/d42/acme__events_8h.html#a2">
ACME_EventState</a>(type, ACME_QUERY)</td></tr></table></div>
<div class="memdoc"><p>Definition at line 1136 of file acme_events.h.</p></div></div>
<h2 class="groupheader">Function Documentation</h2>
<a id="a2" name="a2"></a><h2 class="memtitle">ACME_EventState()</h2>
<div class="memitem"><div class="memproto">int ACME_EventState (int type, int state)</div>
<div class="memdoc"><p>Set the state of processing events by type.</p><p>This function
may be used to query ACME_GetEventState.</p></div></div>
</div></div></body></html>"""


def test_doxygens_member_table_is_no_text_and_a_signature_table_in_an_entry_is() -> None:
    documents = {d.id: d for d in _read(_DOXYGEN, "d9/d42/acme__events_8h")}
    page = "d9/d42/acme__events_8h"
    assert f"{page}#define-members" not in documents
    macro = documents[f"{page}#a1"].text
    assert "#define ACME_GetEventState" in macro and "ACME_EventState(type, ACME_QUERY)" in macro
    assert documents[f"{page}#a2"].text.endswith("may be used to query ACME_GetEventState.")


def _index(entries: list[tuple[str, str, str]]) -> str:
    """gtk-doc's API index: each entry its name linked to its place, its kind, the page's
    title linked."""
    rows = "".join(
        f"""<dt><a class="link" href="glib-{page}.html#{name}">{name}</a>, {kind} in <a
        class="link" href="glib-{page}.html">{page.replace("-", " ")}</a></dt><dd></dd>"""
        for name, kind, page in entries
    )
    return f"""<html><head><title>Index: GLib Reference Manual</title>
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head><body>
<div class="index"><div class="titlepage"><h1 class="title"><a name="api-index-full"></a>Index
</h1></div><a name="idx"></a><a name="idxA"></a><h3 class="title">A</h3>
<div class="indexdiv"><dl>{rows}</dl></div></div></body></html>"""


_INDEX_ENTRIES = [
    ("g_abort", "macro", "Miscellaneous-Utility-Functions"),
    ("ABS", "macro", "Standard-Macros"),
    ("g_access", "function", "File-Utilities"),
    ("g_aligned_alloc", "function", "Memory-Allocation"),
    ("g_aligned_free", "function", "Memory-Allocation"),
    ("G_ALIGNOF", "macro", "Standard-Macros"),
]


def test_an_index_of_entries_each_a_link_and_its_kind_is_a_list_of_links() -> None:
    origin = SourceFile(Path("api-index-full.html"), "api-index-full", "api-index-full.html")
    (item,) = html.read(_index(_INDEX_ENTRIES), origin)
    assert item == Omitted(html.LINK_LISTS, 1)


def test_a_list_of_links_each_with_a_line_of_its_own_is_text() -> None:
    # Doxygen's list of data structures with their brief lines, a module index's synopses.
    rows = "".join(
        f'<li><a href="d{n}/struct_{n}.html">SDL_Struct{n}</a> holds the state of one device'
        f" while it is open</li>"
        for n in range(12)
    )
    page = f"""<html><head><title>SDL: Data Structures</title></head><body><div
    class="contents"><h1>Data Structures</h1><ul>{rows}</ul></div></body></html>"""
    (document,) = _read(page, "annotated")
    assert "SDL_Struct11 holds the state of one device while it is open" in document.text


def test_a_footnote_that_names_a_later_section_is_text() -> None:
    # docutils' footnote: a table row that links back to its mark in the text, and to a
    # section after it whose words it repeats.
    page = """<html><head><title>Python Source Reader</title></head><body>
    <div class="document"><h1 class="title">Python Source Reader</h1>
    <div class="section" id="model"><h1>Model</h1><p>The Python module is read<a
    class="footnote-reference" href="#id2" id="id1">[1]</a>.</p>
    <table class="docutils footnote" id="id2"><tbody><tr><td class="label"><a
    class="fn-backref" href="#id1">[1]</a></td><td>See <a class="reference internal"
    href="#docstring-extractor">Docstring Extractor</a> below.</td></tr></tbody></table></div>
    <div class="section" id="docstring-extractor"><h1>Docstring Extractor</h1><p>See the
    module below: it reads each docstring.</p></div></div></body></html>"""
    model = {d.id: d for d in _read(page, "pysource")}["pysource#model"]
    assert model.text.endswith("See Docstring Extractor below.")


def test_a_list_of_links_to_pages_with_a_date_beside_each_is_text() -> None:
    # lxml's "Old Versions": each release linked to its files and changes, its date beside.
    rows = "".join(
        f'<li><a href="https://lxml.de/files/lxml-4.{n}.0.tgz">lxml 4.{n}.0</a>, released'
        f' 2022-0{n % 9 + 1}-01 (<a href="changes-4.{n}.0.html">changes for 4.{n}.0</a>)</li>'
        for n in range(10)
    )
    page = f"""<html><head><title>lxml</title></head><body><div class="document">
    <h1 class="title">lxml - XML and HTML with Python</h1><p>lxml is the most feature-rich
    and easy-to-use library for processing XML and HTML in the Python language.</p>
    <div class="section" id="old-versions"><h1>Old Versions</h1><ul>{rows}</ul></div>
    </div></body></html>"""
    documents = {d.id: d for d in _read(page, "index")}
    assert "lxml 4.9.0, released 2022-01-01 (changes for 4.9.0)" in (
        documents["index#old-versions"].text
    )
