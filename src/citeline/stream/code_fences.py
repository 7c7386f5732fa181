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
block runs to the end of the text, as it renders. Indented code blocks are not tracked:
telling them from a list item's continuation needs the whole block structure.

Lines end as CommonMark ends them: at a line feed, a carriage return, or the two together; a
lone CR closes a fence as surely as LF does (a probe closed a block with "```\r" that the
stream still took for code, and the link after it was live).

With raw HTML on, a renderer keeps a fence line that falls inside an HTML block in that
block, and the markdown after the block is live; so no fence opens inside one. Every
CommonMark type is followed: types 1 to 5 (``<pre``, ``<script``, ``<style``, ``<textarea``;
``<!--``; ``<?``; ``<!`` and a letter; ``<![CDATA[``) run until the line that holds their end
(``</pre>`` and the like, ``-->``, ``?>``, ``>``, ``]]>``), past blank lines; types 6 and 7
(any other line that starts with a tag) end at a blank line. A start is read more widely than
a renderer reads it (any tag name for types 6 and 7, any name that begins like ``pre`` for
type 1, up to three blanks before it): a block believed here and not rendered only keeps a
fence from opening, which costs rewritten code, never a live link.

It decides nothing about what is inside a block; it holds no text back.
"""

from __future__ import annotations

from typing import Final

import regex

_OPENER: Final = regex.compile(r"(`{3,})[^`]*|(~{3,}).*", regex.DOTALL)
_CLOSER: Final = regex.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
# The HTML block a line starts (CommonMark's seven types, read widely: see above), by the
# start of the line; each of types 1 to 5 with the text that ends it.
_HTML_BLOCK_START: Final = regex.compile(
    r" {0,3}<(?:(?P<raw>(?i:pre|script|style|textarea))|(?P<comment>!--)|(?P<cdata>!\[CDATA\[)"
    r"|(?P<processing>\?)|(?P<declaration>![A-Za-z])|(?P<tag>/?[A-Za-z]))"
)
_HTML_BLOCK_END: Final = {
    "raw": regex.compile(r"</(?:pre|script|style|textarea)>", regex.IGNORECASE),
    "comment": regex.compile(r"-->"),
    "cdata": regex.compile(r"\]\]>"),
    "processing": regex.compile(r"\?>"),
    "declaration": regex.compile(r">"),
}
# The longest end text above, less one: what of a line is kept to find an end split between
# two fragments.
_END_TAIL = len("</textarea>") - 1
# How much of a line's start decides whether it starts an HTML block: three blanks and
# "<![CDATA[" or "<textarea".
_HEAD = 12
# What a line may start with and still be a fence line: blanks up to three, then fence
# characters. Anything else rules the line out at once, so most lines cost nothing.
_MAY_BE_FENCE: Final = regex.compile(r" {0,3}(?:`{1,2}|~{1,2}|`{3,}[^`]*|~{3,}.*)", regex.DOTALL)
_LINE_END: Final = regex.compile(r"[\r\n]")
# A fence line longer than this keeps only what decides it: the fence and whether a
# backtick follows (an opener) or only blanks do (a closer).
_COMPACT_OVER: Final = 256


def has_line_end(text: str) -> bool:
    """Whether ``text`` holds a line ending (LF or CR)."""
    return "\n" in text or "\r" in text


class CodeFences:
    """Feed text in order; ``inside`` says whether the next line starts inside a block.

    ``inside`` changes only at a line ending (or never, at the end), so a caller can ask it
    at any line start and get an answer that depends only on the text before that line.
    """

    def __init__(self, *, mid_line: bool = False) -> None:
        """``mid_line``: the text fed starts in the middle of a line of prose."""
        # The open fence's character and length, or None outside a block.
        self._fence: tuple[str, int] | None = None
        # The current line so far while it could still be a fence line, else None.
        self._line: str | None = None if mid_line else ""
        # The start of the current line (enough to see an HTML block open), and whether
        # it is blank so far.
        self._head = " " * _HEAD if mid_line else ""
        self._blank = not mid_line
        # The HTML block open, by its type's name ("blank" for types 6 and 7, which a blank
        # line ends), or None; for types 1 to 5, whether the current line holds its end,
        # and the current line's last characters, to find an end split between fragments.
        self._html: str | None = None
        self._html_ends_here = False
        self._tail = ""
        # Whether the last character fed was a CR: an LF right after it ends no other line.
        self._after_cr = False
        # Whether the rest of the current line can change nothing: it is known not to be a
        # fence line, its start is seen, it is not blank, and no HTML block's end is looked
        # for. Callers skip `feed` for text without a line ending while this holds, so most
        # fragments of prose cost nothing more. A plain attribute: it is read every fragment.
        self.settled = mid_line

    @property
    def inside(self) -> bool:
        return self._fence is not None

    def feed(self, text: str) -> None:
        if not text or (self.settled and not has_line_end(text)):
            return
        start = 0
        if self._after_cr and text[0] == "\n":
            start = 1
        for end in _LINE_END.finditer(text, start):
            at = end.start()
            if at < start:
                continue  # the LF of a CRLF, taken with its CR
            self._extend(text[start:at])
            self._end_line()
            start = at + 1
            if text[at] == "\r" and text.startswith("\n", start):
                start += 1
        self._extend(text[start:])
        self._after_cr = text[-1] == "\r"
        self.settled = (
            self._line is None
            and not self._blank
            and len(self._head) >= _HEAD
            and (self._html in (None, "blank") or self._html_ends_here)
        )

    def _extend(self, piece: str) -> None:
        if not piece:
            return
        opened = False
        if len(self._head) < _HEAD:
            head = self._head + piece
            if len(head) >= _HEAD and self._fence is None and self._html is None:
                # The line's start is seen: it may open an HTML block, whose end may follow
                # on this very line ("<!-- a note -->").
                self._open_html(head)
                self._look_for_end(head)
                opened = True
            self._head = head[:_HEAD]
        if self._blank and piece.strip(" \t"):
            self._blank = False
        if not opened:
            self._look_for_end(piece)
        if self._line is None:
            return
        line = self._line + piece
        if not _MAY_BE_FENCE.fullmatch(line, partial=True):
            self._line = None
            return
        if len(line) > _COMPACT_OVER:
            line = _compact(line)
        self._line = line

    def _open_html(self, head: str) -> None:
        start = _HTML_BLOCK_START.match(head)
        if start is not None:
            kind = str(start.lastgroup)
            self._html = "blank" if kind == "tag" else kind
            self._html_ends_here = False
            self._tail = ""

    def _look_for_end(self, piece: str) -> None:
        if self._html is None or self._html == "blank" or self._html_ends_here:
            return
        seen = self._tail + piece
        if _HTML_BLOCK_END[self._html].search(seen):
            self._html_ends_here = True
        self._tail = seen[-_END_TAIL:]

    def _end_line(self) -> None:
        line, self._line = self._line, ""
        head, blank = self._head, self._blank
        self._head, self._blank = "", True
        if len(head) < _HEAD and self._fence is None and self._html is None:
            # A short line: its start is all there is.
            self._open_html(head)
            self._look_for_end(head)
        if self._html == "blank" and blank:
            self._html = None
        in_html = self._html is not None
        if self._html_ends_here:
            self._html = None
        self._html_ends_here = False
        self._tail = ""
        if line is None:
            return
        line = line.removesuffix("\r")
        if self._fence is None:
            if in_html:
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
