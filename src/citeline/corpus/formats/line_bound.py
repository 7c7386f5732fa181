"""How many lines of a Markdown page are read: a bound on the short lines a page may hold.

markdown-it's work is per line, not per byte: each line of a paragraph is checked against
every rule that could end it (twice: for a setext underline, then for the paragraph's end),
a list item or a heading is a block of tokens of its own, and an open quote reads each lazy
line again at every level. A page of short lines is therefore dearer a MB than any other
page, and no one construct is the cause (a quote's depth, a list, a heading, a definition:
each is a few µs to some tens a line). So the page itself is bounded: it is read up to
``MAX_LINES_PER_MB`` lines for each MB it holds (that many for a smaller page), and the rest
is left out and counted in the ingest report (``TOO_MANY_LINES``), the page's beginning
indexed, as a page nested deeper than markdown-it reads is (``markdown.TOO_DEEP``). A page
whose lines average 40 characters or more, their line ends included, is never cut.
"""

from __future__ import annotations

import re
from itertools import islice

# The lines read for each MB of a page (1,000,000 characters), and for a page under a MB.
# Measured on one page of 20,000 to 50,000 lines of each kind, the whole ingest (7 December,
# load 2, Intel Xeon): a quote 20 deep over lazy lines 50 µs of CPU a line, list items,
# headings and table rows of two cells 36 to 45, items nested in 9 lists about 68
# (``hostile_files.py``'s row of them, 33 characters a line), paragraphs 13 to 16,
# definitions under def_list 25 (pausing the parse's cycle collection since, ``collection``,
# took a quarter off the nested items). At 25,000 the dearest costs 1.7 s a MB, under the
# 2 s every hostile page is held to (measured, those two rows 1.3 to 1.5 s); a bound at
# 140,000, which paragraphs allow, would let a page of items cost 6 s. Far above what
# documentation writes: the longest Markdown page of the development trees is Node.js's
# fs.md, 8,268 lines (262 KB), and Rust's release notes, 15,965 lines (895 KB), are longer
# than any of them; both are read whole.
MAX_LINES_PER_MB = 25_000
TOO_MANY_LINES = "ends of pages of too many short lines"

# Where ``str.splitlines`` ends a line, which is how the reader cuts the page into lines.
_LINE_END = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# The text split into lines at once to count them, so that a page of short lines never has
# more than this many characters of them held as strings.
_COUNTED_AT_ONCE = 1 << 20
_TEXT = re.compile(r"\S")


def within_lines(text: str) -> tuple[str, bool]:
    """``text`` up to the last line it may hold (``MAX_LINES_PER_MB``), and whether any of
    its text was past it (blank lines after the bound lose nothing)."""
    bound = max(MAX_LINES_PER_MB, len(text) * MAX_LINES_PER_MB // 1_000_000)
    if len(text) <= bound or (text.count("\n") < bound and _lines_at_most(text) <= bound):
        return text, False
    last = next(islice(_LINE_END.finditer(text), bound - 1, None), None)
    if last is None or _TEXT.search(text, last.end()) is None:
        return text, False
    return text[: last.start()], True


def _lines_at_most(text: str) -> int:
    """At least as many as ``text``'s lines: its lines counted ``_COUNTED_AT_ONCE``
    characters at a time (a line cut between two counts twice). An 18 MB page of 3,000
    lines is counted in 13 ms, where finding each line end took 190 and counting each kind
    of end 130 (a page of short lines, 25 ms a MB, goes to its bound by its newlines)."""
    return sum(
        len(text[start : start + _COUNTED_AT_ONCE].splitlines())
        for start in range(0, len(text), _COUNTED_AT_ONCE)
    )
