"""A data table reads as rows, each a line of its cells between " | ", empty cells kept in
their places and the header row first; a table of layout (a menu of links, a page's frame,
a bar) keeps a line per cell. The cases are libvirt's API support matrix and migration
table, PostgreSQL's CREATE TRIGGER table, Python's tables of operations and GNU Texinfo's
menus, and tables no page should hold."""

from __future__ import annotations

import time
from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "page") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _text(body: str) -> str:
    (document,) = _read(f"<html><body><main><h1>Page</h1>{body}</main></body></html>")
    return document.text


def test_empty_cells_keep_their_positions_under_the_header_row() -> None:
    # libvirt's hvsupport.html: under each API, the version of each driver implementing it.
    body = """<p>Which calls work on which drivers.</p><table class="top_table"><thead>
    <tr><th>API</th><th>Version</th><th>bhyve</th><th>esx</th><th>qemu</th></tr></thead>
    <tbody><tr><td><a href="html/libvirt-libvirt-host.html#virConnectBaselineCPU">
    virConnectBaselineCPU</a></td><td>0.7.7</td><td>1.2.4</td><td/><td>0.7.7</td></tr>
    <tr><td><a href="html/libvirt-libvirt-host.html#virConnectCompareHypervisorCPU">
    virConnectCompareHypervisorCPU</a></td><td>4.4.0</td><td/><td/><td>4.4.0</td></tr>
    </tbody></table><p>After the table.</p>"""
    assert _text(body) == (
        "Page\n\nWhich calls work on which drivers.\n\n"
        "API | Version | bhyve | esx | qemu\n"
        "virConnectBaselineCPU | 0.7.7 | 1.2.4 | | 0.7.7\n"
        "virConnectCompareHypervisorCPU | 4.4.0 | | | 4.4.0\n\n"
        "After the table."
    )


def test_a_cell_spanning_columns_or_rows_stands_in_each_position_it_takes() -> None:
    # libvirt's migration.html: a header row of groups over the columns' own heads;
    # PostgreSQL's CREATE TRIGGER: "BEFORE" written once over two rows.
    body = """<table><thead><tr><th colspan="2">Before migration</th><th>Flags</th></tr>
    <tr><th>Source type</th><th>Source config</th><th>--persistent</th></tr></thead>
    <tbody><tr><td rowspan="2">Transient</td><td>N</td><td>Y</td></tr>
    <tr><td>Y</td><td>N</td></tr><tr><td colspan="3">Persistent domains</td></tr>
    </tbody></table>"""
    assert _text(body).endswith(
        "Before migration | Before migration | Flags\n"
        "Source type | Source config | --persistent\n"
        "Transient | N | Y\nTransient | Y | N\nPersistent domains"
    )


def test_paragraphs_lists_and_markup_in_a_cell_stay_on_its_rows_line() -> None:
    # Python's stdtypes.html: each cell a paragraph; a note's list inside a cell.
    body = """<table class="docutils align-default"><colgroup><col/><col/></colgroup><thead>
    <tr class="row-odd"><th class="head"><p>Operation</p></th><th class="head"><p>Result</p>
    </th></tr></thead><tbody><tr class="row-even"><td><p><code class="docutils literal">
    <span class="pre">x</span> <span class="pre">//</span> <span class="pre">y</span></code></p>
    </td><td><p>floored quotient of <em>x</em> and <em>y</em></p><p>See the notes:</p>
    <ul><li><p>rounds towards minus infinity</p></li><li>never a float<br>for ints</li></ul>
    </td></tr></tbody></table>"""
    assert _text(body).endswith(
        "Operation | Result\nx // y | floored quotient of x and y See the notes: rounds towards"
        " minus infinity never a float for ints"
    )


def test_a_texinfo_menu_and_a_layout_table_keep_a_line_per_cell() -> None:
    # The Z Shell Manual (texi2html): a chapter's menu of the pages of its sections, a table
    # of links with no header; and a table that frames other tables.
    menu = """<table class="menu" border="0" cellspacing="0">
    <tr><td align="left" valign="top"><a href="zsh_2.html#SEC4">2.1 Overview</a></td>
    <td>&nbsp;&nbsp;</td><td align="left" valign="top">What zsh is</td></tr>
    <tr><td align="left" valign="top"><a href="zsh_2.html#SEC5">2.2 Compatibility</a></td>
    <td>&nbsp;&nbsp;</td><td align="left" valign="top"></td></tr></table>"""
    assert _text(f"<p>The chapter in brief.</p>{menu}").endswith(
        "2.1 Overview\n\nWhat zsh is\n\n2.2 Compatibility"
    )
    frame = """<table><tr><td><table><tr><th>Name</th><th>Kind</th></tr>
    <tr><td>alpha</td><td>first</td></tr></table></td><td>Side note</td></tr>
    <tr><td>Footer</td><td>Contact</td></tr></table>"""
    framed = _text(frame)
    assert "Name | Kind\nalpha | first" in framed  # the table inside is one of data
    assert framed.endswith("Side note\n\nFooter\nContact")
    presented = '<table role="presentation"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d'
    assert _text(presented + "</td></tr></table>").endswith("a\nb\n\nc\nd")


def test_a_huge_table_is_read_in_time_and_space_bounded_by_its_size() -> None:
    rows = "".join(f"<tr><td>name {i}</td><td></td><td>{i}</td></tr>" for i in range(10_000))
    wide = "<tr>" + "".join(f"<th>c{i}</th>" for i in range(1_000)) + "</tr>"
    wide += "<tr>" + "<td>x</td>" * 1_000 + "</tr>"
    # Spans past any page's: each of 10,000 rows spans 1,000 columns, a cell of the first
    # reaches 65,534 rows down, a row of 1,000 cells each reaching to the end.
    spans = '<tr><td rowspan="65534">reach</td>' + '<td rowspan="0">y</td>' * 1_000 + "</tr>"
    spans += '<tr><td colspan="1000">wide</td></tr>' * 10_000
    started = time.process_time()
    text = _text(f"<table>{rows}</table><table>{wide}</table><table>{spans}</table>")
    assert time.process_time() - started < 20
    assert "name 9999 | | 9999" in text and "c998 | c999\nx | x" in text
    assert len(text) < 2_000_000
