"""How many table cells of a Markdown page are read: a bound on the cells a page may hold.

markdown-it's work on a table is per cell, not per line: each cell, the header's, each
row's, and the empty ones it adds to a row shorter than the header, is three tokens and an
inline parse of its own, however few characters it holds. So a page of wide tables is
dearer a MB than the line bound (``line_bound``) lets through: 200 rows of 1,000 cells
(0.4 MB on 202 lines, which that bound reads whole) cost 2.2 s of CPU, 5.5 s a MB. The
page's tables are therefore read up to ``MAX_CELLS_PER_MB`` cells for each MB it holds
(that many for a smaller page): the rows past it, and every table after it, are left out
and counted in the ingest report (``TOO_MANY_CELLS``), the text around them read.
"""

from __future__ import annotations

from typing import Any

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import table as _table

# The cells read for each MB of a page (1,000,000 characters), and for a page under a MB.
# Measured on tables of 1,000 columns, the whole reading (7 December, load 2.6, Intel Xeon):
# a cell of one letter 11 µs of CPU, an empty one 7.5, of code 11, of a few words 12, of
# emphasis or a link 23 to 24. At 50,000 the dearest cells cost 1.2 s a MB, under the 2 s
# every hostile page is held to beside its rows' own lines; the cheapest (2 characters,
# 500,000 a MB) would cost 5.5. Far above what documentation writes: the most cells of any
# Markdown page of the development trees and of the 1,013 on this machine are Node.js's
# webcrypto.md, 586 (its widest table 13 columns), and the densest page holds 25,800 a MB
# (Schemathesis's hooks.md, 208 cells in 8 KB); all are read whole.
MAX_CELLS_PER_MB = 50_000
TOO_MANY_CELLS = "ends of tables of too many cells"

_LEFT = "citeline_cells_left"  # the cells the page may still hold, kept in the parse's env
_CUT = "citeline_cells_cut"  # and whether any were left out


def bound_cells(env: dict[str, Any], text: str) -> None:
    """Set the parse of ``text`` with ``env`` to read its tables up to the cells it may
    hold (``MAX_CELLS_PER_MB``)."""
    env[_LEFT] = max(MAX_CELLS_PER_MB, len(text) * MAX_CELLS_PER_MB // 1_000_000)


def cells_cut(env: dict[str, Any]) -> bool:
    """Whether the parse with ``env`` left out cells past its bound."""
    return bool(env.get(_CUT))


def bounded_table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's table rule, read up to the cells left (``bound_cells``; unbounded
    where none were set): a table is read up to the last row whose cells fit, its header's
    counted too, and its rows past them are skipped as its own rule would end them."""
    left = state.env.get(_LEFT) if isinstance(state.env, dict) else None
    if silent or left is None or not _table(state, start, end, True):
        return _table(state, start, end, silent)
    # The header's columns, which every row is read with: the delimiter row's parts.
    columns = sum(1 for part in _line(state, start + 1).split("|") if mdTrim(part))
    rows = left // columns - 1  # the body rows whose cells fit, after the header's
    if rows < 0:
        state.line = _table_end(state, start + 2, end)
        state.env[_CUT] = True
        return True
    last = min(end, start + 2 + rows)
    _table(state, start, last, False)
    state.env[_LEFT] = left - columns * (state.line - start - 1)
    if state.line == last < end:
        rest = _table_end(state, last, end)
        if rest > last:
            state.line = rest
            state.env[_CUT] = True
    return True


def _table_end(state: StateBlock, line: int, end: int) -> int:
    """The line after the last row of the table going on at ``line``, as markdown-it's
    table rule ends one: at a line indented less than its block, a line another block
    starts at, a blank line, or an indented code line."""
    terminators = state.md.block.ruler.getRules("blockquote")
    while line < end:
        if state.sCount[line] < state.blkIndent:
            break
        if any(terminates(state, line, end, True) for terminates in terminators):
            break
        if not mdTrim(_line(state, line)) or state.is_code_block(line):
            break
        line += 1
    return line


def _line(state: StateBlock, line: int) -> str:
    """``line``'s text after its indent."""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
