"""A data table read as rows: each row one line, its cells in order between ``" | "``.

Read cell by cell, one line each with empty cells gone, a table whose rows leave cells
empty cannot be lined up with its columns: libvirt's API support matrix (hvsupport.html)
listed under each API the versions of only the drivers implementing it, with nothing saying
which driver each belongs to, and migration.html's table of what ``--undefinesource`` and
``--persistent`` do became a column of "Y" and "N". Here a row keeps every position, an
empty cell as an empty one, in the order the page gives its rows (the header row first), so
a reader can line each cell up with its column's head.

A table used for layout keeps the reader's cell-by-cell lines (``rows`` answers None): one
laid out for presentation (``role=presentation``), one that holds a table, a code block or
a heading (a page's layout, a numbered listing beside its code, a layout cell around a
section), one without two rows or two columns to line up (a bar of links, a box), and one
with no header cell whose every row holds a link (a menu, a column of index entries: GNU
Texinfo's chapter menus, Sphinx's index columns), which the lists-of-links rules read
line by line. It deliberately knows nothing about the marks the HTML reader puts in text:
the reader gives each cell's text (``cell_text``), or None for a cell that makes the table
one of layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from selectolax.lexbor import LexborNode

CELL_SEPARATOR = " | "
# The largest spans HTML reads (WHATWG HTML, "processing model" of tables): larger values
# are clamped, as browsers clamp them.
_MOST_COLUMNS_SPANNED = 1000
_MOST_ROWS_SPANNED = 65534
# How much a table's spans may add to its text: at most this many times the characters of
# its own cells. A cell that spans several positions is repeated in each, so that a row read
# alone (a passage cut in the middle of the table) still says what each of its columns
# holds: PostgreSQL's CREATE TRIGGER table writes "BEFORE" once over two rows, and left
# empty in the second, "| TRUNCATE | — | Tables" named no time. A hostile ``colspan=1000``
# in each of 10,000 rows would write 10 million positions; past the bound a span takes one
# position, as if it spanned none.
_SPAN_GROWTH = 2
_ROW_GROUPS = frozenset(["thead", "tbody", "tfoot"])
_CELLS = frozenset(["td", "th"])
_LAYOUT_ROLES = frozenset(["presentation", "none"])


class _Cell(NamedTuple):
    text: str
    columns: int
    rows: int


def rows(table: LexborNode, cell_text: Callable[[LexborNode], str | None]) -> list[str] | None:
    """``table``'s rows as lines, header first (in the page's order), or None for a table
    of layout (see the module's docstring). ``cell_text`` gives a cell's text on one line,
    or None where that cell makes the table one of layout. A row of nothing but empty cells
    is no line."""
    if str(table.attributes.get("role") or "").strip().lower() in _LAYOUT_ROLES:
        return None
    groups = _row_groups(table, cell_text)
    if groups is None:
        return None
    read = [row for group in groups for row in group]
    if len([row for row in read if row]) < 2 or max(len(row) for row in read) < 2:
        return None
    grid = _Grid(_SPAN_GROWTH * sum(len(cell.text) + 1 for row in read for cell in row))
    lines: list[str] = []
    for group in groups:
        _laid_out(group, grid, lines)
    return lines


def _row_groups(
    table: LexborNode, cell_text: Callable[[LexborNode], str | None]
) -> list[list[list[_Cell]]] | None:
    """The cells of each row of each of ``table``'s row groups (a span ends at its group's
    end), or None for a table of layout."""
    groups: list[list[list[_Cell]]] = []
    headed = linked = True  # no header cell yet; every row so far holds a link
    for group in table.iter():
        if group.tag not in _ROW_GROUPS and group.tag != "tr":
            continue
        read: list[list[_Cell]] = []
        for row in group.iter() if group.tag != "tr" else [group]:
            if row.tag != "tr":
                continue
            cells: list[_Cell] = []
            for cell in row.iter():
                if cell.tag not in _CELLS:
                    continue
                text = cell_text(cell)
                if text is None:
                    return None
                headed = headed and cell.tag != "th"
                cells.append(_Cell(text, *_spans(cell)))
            linked = linked and row.css_first("a[href]") is not None
            read.append(cells)
        groups.append(read)
    return None if headed and linked else groups


def _spans(cell: LexborNode) -> tuple[int, int]:
    """The columns and rows ``cell`` spans, clamped as browsers clamp them (0 or junk: 1)."""

    def span(name: str, most: int) -> int:
        value = str(cell.attributes.get(name) or "").strip()
        return min(int(value), most) if value.isdigit() and int(value) > 0 else 1

    return span("colspan", _MOST_COLUMNS_SPANNED), span("rowspan", _MOST_ROWS_SPANNED)


def _laid_out(group: list[list[_Cell]], grid: _Grid, lines: list[str]) -> None:
    """Adds the lines of one row group to ``lines``, laid out on ``grid``."""
    grid.above = {}  # a span ends at its group's end
    for cells in group:
        line = grid.row(cells)
        if len(cells) == 1 and all(text == cells[0].text for text in line):
            line = line[:1]  # a row of one cell spanning the table (a group's title)
        if any(line):
            lines.append(CELL_SEPARATOR.join(line))


class _Grid:
    """The positions of a table's rows, as HTML lays cells out: each cell at the first
    position no cell from a row above takes, over the columns it spans and down the rows
    it spans. Every position but a cell's first costs ``budget`` its characters; once it is
    spent, a cell takes its first position only."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        # column → text of a cell from a row above that reaches the next row, rows it has left
        self.above: dict[int, tuple[str, int]] = {}

    def row(self, cells: list[_Cell]) -> list[str]:
        reaching, self.above = self.above, {}
        line: list[str] = []
        for cell in cells:
            while len(line) in reaching and self._spend(reaching[len(line)][0]):
                self._carry(line, reaching.pop(len(line)))
            start = len(line)
            line.append(cell.text)
            while len(line) - start < cell.columns and self._spend(cell.text):
                line.append(cell.text)
            for column in range(start, len(line)):
                reaching.pop(column, None)  # overlapping cells (an error of the page's): this one
                if cell.rows > 1 and self.budget >= 0:
                    self.above[column] = (cell.text, cell.rows - 1)
        for column in sorted(reaching):
            while len(line) < column and self._spend(""):
                line.append("")
            if len(line) != column or not self._spend(reaching[column][0]):
                break
            self._carry(line, reaching[column])
        return line

    def _carry(self, line: list[str], reaching: tuple[str, int]) -> None:
        text, rows_left = reaching
        if rows_left > 1:
            self.above[len(line)] = (text, rows_left - 1)
        line.append(text)

    def _spend(self, text: str) -> bool:
        """Whether a position of ``text`` fits in the budget, which it then costs."""
        if self.budget < 0:
            return False
        self.budget -= len(text) + len(CELL_SEPARATOR)
        if self.budget < 0:
            self.above.clear()  # spent: no cell reaches further down
            return False
        return True
