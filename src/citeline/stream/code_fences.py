"""Where fenced code blocks are, in text that arrives in pieces.

Code in an answer is verbatim: a ```` ``` ```` block's ``[x](y)``, ``<a href>`` or
``# References`` comment is code, and the stream transforms must pass it through as
written. ``CodeFences`` follows the text line by line and says whether the line now
starting is inside a fenced block.

The rule is CommonMark's, narrowed in the one direction that is safe: an opening fence
counts only at column 0 (three or more backticks with no backtick after them, or three or
more tildes), so a fence that a renderer would close early (one inside a list item ends
with the item) is never taken for one. Mistaking code for prose costs a rewritten link in
code; mistaking prose for code would let a live link through. A closing fence is CommonMark's
(up to three spaces, the same character, at least as many, then only blanks). An unclosed
block runs to the end of the text, as it renders. After a line that starts an HTML block
(``<div>``), no fence opens until a blank line: a renderer with raw HTML on keeps the fence
line inside that block, and the markdown after the block's blank line is live. Indented
code blocks are not tracked: telling them from a list item's continuation needs the whole
block structure.

It decides nothing about what is inside a block; it holds no text back.
"""

from __future__ import annotations

from typing import Final

import regex

_OPENER: Final = regex.compile(r"(`{3,})[^`]*|(~{3,}).*", regex.DOTALL)
_CLOSER: Final = regex.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
_HTML_BLOCK_START: Final = regex.compile(r" {0,3}<[A-Za-z/!?]")
# What a line may start with and still be a fence line: blanks up to three, then fence
# characters. Anything else rules the line out at once, so most lines cost nothing.
_MAY_BE_FENCE: Final = regex.compile(r" {0,3}(?:`{1,2}|~{1,2}|`{3,}[^`]*|~{3,}.*)", regex.DOTALL)
# A fence line longer than this keeps only what decides it: the fence and whether a
# backtick follows (an opener) or only blanks do (a closer).
_COMPACT_OVER: Final = 256


class CodeFences:
    """Feed text in order; ``inside`` says whether the next line starts inside a block.

    ``inside`` changes only at a newline (or never, at the end), so a caller can ask it at
    any line start and get an answer that depends only on the text before that line.
    """

    def __init__(self, *, mid_line: bool = False) -> None:
        """``mid_line``: the text fed starts in the middle of a line of prose."""
        # The open fence's character and length, or None outside a block.
        self._fence: tuple[str, int] | None = None
        # The current line so far while it could still be a fence line, else None.
        self._line: str | None = None if mid_line else ""
        # The start of the current line (enough to see an HTML block open), and whether
        # one is open: from such a line to the next blank line.
        self._head = " " * 8 if mid_line else ""
        self._blank = not mid_line
        self._in_html = False
        # Whether the rest of the current line can change nothing: it is known not to be a
        # fence line, its start is seen, and it is not blank. Callers skip `feed` for text
        # without a newline while this holds, so most fragments of prose cost nothing more.
        # A plain attribute, since it is read for every fragment.
        self.settled = mid_line

    @property
    def inside(self) -> bool:
        return self._fence is not None

    def feed(self, text: str) -> None:
        if self.settled and "\n" not in text:
            return
        start = 0
        newline = text.find("\n")
        while newline != -1:
            self._extend(text[start:newline])
            self._end_line()
            start = newline + 1
            newline = text.find("\n", start)
        self._extend(text[start:])
        self.settled = self._line is None and not self._blank and len(self._head) >= 8

    def _extend(self, piece: str) -> None:
        if not piece:
            return
        if len(self._head) < 8:
            self._head += piece[: 8 - len(self._head)]
        if self._blank and piece.strip(" \t\r"):
            self._blank = False
        if self._line is None:
            return
        line = self._line + piece
        if not _MAY_BE_FENCE.fullmatch(line, partial=True):
            self._line = None
            return
        if len(line) > _COMPACT_OVER:
            line = _compact(line)
        self._line = line

    def _end_line(self) -> None:
        line, self._line = self._line, ""
        head, blank = self._head, self._blank
        self._head, self._blank = "", True
        if self._fence is None:
            if blank:
                self._in_html = False
            elif _HTML_BLOCK_START.match(head):
                self._in_html = True
        if line is None:
            return
        line = line.removesuffix("\r")
        if self._fence is None:
            if self._in_html:
                return
            opener = _OPENER.fullmatch(line)
            if opener is not None:
                run = opener.group(1) or opener.group(2)
                self._fence = (run[0], len(run))
            return
        closer = _CLOSER.fullmatch(line)
        char, length = self._fence
        if closer is not None and closer.group(1)[0] == char and len(closer.group(1)) >= length:
            self._fence = None


def _compact(line: str) -> str:
    """A long fence line reduced to what decides it: its blanks, its fence, and what
    follows, as a blank (only blanks), a backtick (one occurs) or a letter (anything else)."""
    match = regex.match(r"( {0,3})(`+|~+)(.*)", line, regex.DOTALL)
    if match is None:
        return line
    indent, fence, rest = match.groups()
    if not rest:
        tail = ""
    elif not rest.strip(" \t"):
        tail = " "
    elif "`" in rest:
        tail = "`"
    else:
        tail = "x"
    return indent + fence + tail
