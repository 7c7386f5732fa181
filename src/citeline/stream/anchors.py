"""Reduce every link the model writes to its text, fragment by fragment.

Prose carries no links: sources reach a reader only as ``citation`` events. A model links
in many forms, and each one left in renders as a live link on some client (a probe found
autolinks, reference links, spaced and titled destinations, a newline before ``)`` and
nested brackets all reaching the page). This transform removes every CommonMark link form
and the HTML anchor, keeps the text a reader would have seen, and reports each as an
`Anchor` (href, display text, and where that text sits in the output) for the caller to
map onto a source the server vouches for, or to count as dropped:

- inline links ``[text](url "title")``: blanks and one newline around the destination,
  ``<url>`` destinations, any title quoting, balanced or escaped brackets in the text;
- reference links ``[text][label]`` and ``[text][]``, and their definitions
  ``[label]: url`` (the whole line goes; with no definitions left, a shortcut ``[label]``
  renders as the bracketed text it is);
- autolinks ``<https://...>`` and ``<name@host>``, reduced to the address as text;
- HTML ``<a href>...</a>``;
- images ``![alt](src)`` (inline or reference), reduced to their alt text like a link: a
  client that shows images would fetch a document's chosen address, question and all.

Any other HTML tag passes whole when ``active_html`` finds it inert; one that navigates,
fetches or runs is shown as text (its ``<`` written ``&lt;``). The text is read as
CommonMark reads it: spaces and tabs are its only blanks (a no-break or other Unicode space
is part of a destination), and a line ends at LF, CR, or CR and LF.

Code is verbatim: inside a fenced code block (``code_fences``) nothing is rewritten, since
there a link is literal text on every renderer. So is an inline code span that every
renderer reads as one (a model describing the link format writes `` `[Title](href)` ``:
reduced, it read as a citation, and the recorded eval scored a wrong answer 1.0 for it).
Whether backticks pair into a span depends on the renderer (raw HTML on or off, table
cells, runs that removed markup joins), and probes found each way to a span believed here
but not rendered, sheltering a live link; so a span is kept verbatim only when nothing
can change how it pairs: it opens and closes on one line (no LF or CR between) with runs of
the same length, no backtick outside a kept span precedes it in its paragraph, it holds no
``<`` (an HTML tag or autolink around its backticks) and no ``|`` (a table cell's edge), and
what follows its closing run cannot be removed markup (``<``, ``[``, ``!``, a backslash).
Any other span's links are reduced like prose. Bare URLs are text, not links: a client
renders prose without linkify (``contracts/stream.md``).

Fragments split anywhere: measured on a live endpoint, one anchor arrived as twenty-odd
pieces (``' <'``, ``'a'``, ``' href'``, ``'="'``, ...), so this holds back only text that
could still become link markup, and nothing else. It does not decide whether a link is a
real source (the caller does).
"""

from __future__ import annotations

import copy
import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import regex

from citeline.stream.active_html import is_active
from citeline.stream.code_fences import CodeFences, has_line_end

# --- The forms, as CommonMark writes them -------------------------------------------------

# Link text: anything but unescaped brackets, balanced bracket pairs nested to any depth,
# backslash escapes, and newlines that do not make a blank line (a blank line ends the
# paragraph, and a link cannot span two). Not code spans: a span binds tighter than the
# brackets, so "[`]`](u)" is a link, but a span alternative here made matching backtrack
# exponentially on runs of backticks (0.4 ms a match); an unbalanced bracket inside a code
# span inside link text is the one form not reduced (contracts/stream.md).
_TEXT_ITEM: Final = (
    r"(?:[^\[\]\\\r\n]|\\[^\r\n]|\\(?=[\r\n])|(?:\r\n?|\n)(?![ \t]*[\r\n])|(?&brackets))"
)
_DEFINE: Final = (
    rf"(?(DEFINE)(?P<brackets>\[{_TEXT_ITEM}*\])"
    rf"(?P<parens>\((?:[^\x01-\x20\x7f()\\]|\\.|(?&parens))*\)))"
)
# A line ends as CommonMark ends one: LF, CR, or CR and LF. Blanks are spaces and tabs only:
# CommonMark takes a no-break space, U+2000 to U+200A, U+3000 and the like as part of a
# destination, and a probe's "zebra\u00a0care" kept a live link that a Unicode-wide notion
# of blanks took for prose.
_LINE_ENDING: Final = r"(?:\r\n|\r|\n)"
# Blanks with at most one line ending, around a destination and a title.
_GAP: Final = rf"[ \t]*(?:{_LINE_ENDING}[ \t]*)?"
_GAP_REQUIRED: Final = rf"(?:[ \t]+(?:{_LINE_ENDING}[ \t]*)?|{_LINE_ENDING}[ \t]*)"
# In a destination or a title a backslash takes the next character with it, whatever it
# is: markdown-it reads "\\" and a newline inside a destination, and so must this.
_ESCAPE: Final = r"\\[\s\S]"
# A bare destination holds no ASCII control character and no space (CommonMark), but NUL,
# which a renderer reads as U+FFFD, and every other character.
_DESTINATION: Final = (
    rf"(?:<(?P<angled>(?:[^<>\r\n\\]|{_ESCAPE})*)>"
    rf"|(?P<bare>(?:[^\x01-\x20\x7f()\\]|{_ESCAPE}|(?&parens))+))"
)
_TITLE: Final = (
    rf"""(?:"(?:[^"\\]|{_ESCAPE})*"|'(?:[^'\\]|{_ESCAPE})*'"""
    rf"""|\((?:[^()\\]|{_ESCAPE})*\))"""
)
_LABEL: Final = r"(?P<label>(?:[^\[\]\\]|\\.){0,999})"
_INLINE_OR_REFERENCE: Final = (
    rf"\[(?P<text>{_TEXT_ITEM}*)\]"
    rf"(?:\({_GAP}(?:{_DESTINATION}(?:{_GAP_REQUIRED}{_TITLE})?)?{_GAP}\)"
    rf"|\[{_LABEL}\])"
)
# A definition is a whole line: "[label]:", the destination, an optional title, blanks.
_DEFINITION_BODY: Final = (
    rf"\[(?P<def_label>(?:[^\[\]\\]|\\.){{1,999}})\]:{_GAP}{_DESTINATION}"
    rf"(?:{_GAP_REQUIRED}{_TITLE})?[ \t]*"
)
_LINK: Final = regex.compile(_DEFINE + _INLINE_OR_REFERENCE)
_LINK_OR_DEFINITION: Final = regex.compile(
    _DEFINE + rf"(?:{_INLINE_OR_REFERENCE}|{_DEFINITION_BODY}{_LINE_ENDING})"
)
# At the end of the stream a definition needs no line ending.
_LINK_OR_LAST_DEFINITION: Final = regex.compile(
    _DEFINE + rf"(?:{_INLINE_OR_REFERENCE}|{_DEFINITION_BODY}(?:{_LINE_ENDING}|\Z))"
)
_LINE_END: Final = regex.compile(r"[\r\n]")
_LINE_ENDINGS: Final = regex.compile(_LINE_ENDING)
_LINE_ENDING_AT_END: Final = regex.compile(rf"{_LINE_ENDING}\Z")
# What may follow a definition's line and make it longer: its title, on a line of its own.
_TITLE_LINE: Final = regex.compile(rf"[ \t]*{_TITLE}[ \t]*{_LINE_ENDING}")
# An image is a link after "!", and is reduced as one: to its alt text.
_IMAGE: Final = regex.compile(_DEFINE + "!" + _INLINE_OR_REFERENCE)
# A tag, any case, read as a browser reads one: "<" or "</", a letter, the name up to a
# blank, "/" or ">", then attributes up to the first ">" outside a quoted value; a quote
# starts a value only after "=" ("<a -'x href=u>" is a link with an attribute named "-'x").
# The anchor tag ("<a" and ">", or a blank or "/" and attributes; "</a" and ">") is a link;
# any other tag is an element, judged by ``active_html``. "x < y" and "a <" are not tags.
# An autolink, tried first as a renderer tries it: a scheme of two to 32 characters, ":",
# no ASCII control character, space or angle bracket (NUL reads as U+FFFD); or an e-mail
# address.
_ATTRIBUTES: Final = r"""(?:[\s/](?:[^>=]|=\s*"[^"]*"|=\s*'[^']*'|=(?!\s*["']))*)?"""
_ANGLE: Final = regex.compile(
    r"<(?P<uri>[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x01-\x20\x7f<>]*)>"
    r"|<(?P<email>[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
    rf"|(?P<tag><a{_ATTRIBUTES}>|</a\s*>)"
    rf"|(?P<element></?[A-Za-z][^\s/>]*{_ATTRIBUTES}>)",
    regex.IGNORECASE,
)
_HREF: Final = regex.compile(
    r"""\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", regex.IGNORECASE
)
_ESCAPED: Final = regex.compile(r"\\([!-/:-@\[-`{-~])")
# Where a definition may start: its line so far is blanks and container markers only
# (block quotes, list items), as CommonMark lets a definition sit inside either.
_CONTAINER_PREFIX: Final = regex.compile(r"[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*")
# What the scanner stops at; everything between these goes out as it is.
_SPECIAL: Final = regex.compile(r"[<\[\\\r\n!`]")
_SPECIAL_CHARS: Final = frozenset("<[\\\r\n!`")
# What a kept code span may not hold, and what may not follow it (see the module's doc).
_SPAN_UNSAFE_INSIDE: Final = frozenset("<|\r\n")
_SPAN_UNSAFE_AFTER: Final = frozenset("<[\\`!")
_SPECIAL_IN_TEXT: Final = frozenset("<[]@")
_SPECIAL_MARKUP: Final = regex.compile(r"[<\[]")
# What `_inert` escapes: an unescaped "[" or "]" (after an even number of backslashes),
# and any "<".
# What an autolink cannot hold: an ASCII control character or a space (NUL reads as U+FFFD).
_BLANK: Final = regex.compile(r"[\x01-\x20\x7f]")
_INERT_BRACKETS: Final = regex.compile(r"(?<!\\)(?:\\\\)*(?P<char>[\[\]])|(?P<char><)")
_INERT: Final = regex.compile(
    r"(?<!\\)(?:\\\\)*(?P<char>[\[\]])|(?P<char><)|(?P<char>@)"
    r"|^[A-Za-z][A-Za-z0-9+.\-]{1,31}(?P<char>:)"
)

# --- Bounds ----------------------------------------------------------------------------

# How long a candidate may grow before it is given up. Real anchor tags are about seventy
# characters; holding forever would strand text that never completes (an unclosed "<a" or a
# bracketed aside in prose). A candidate given up while it could still have become markup
# loses its first character ("<" or "["), so what follows can never complete it: releasing
# that character instead would let a long link through.
MAX_TAG: Final = 200
# A markdown link holds its display text as well as its URL, so it gets more room.
MAX_LINK: Final = 400
# The most any candidate holds.
MAX_HELD: Final = MAX_LINK
# How deep the check that removed markup cannot revive a dead candidate nests: the text
# after the candidate is reduced by a stripper that checks its own dead candidates, to this
# depth. Probes needed two ("<<https:<https://..>>"); each level multiplies the worst
# case by the candidates in a bound's worth of text, so the depth stays small.
REVIVE_DEPTH: Final = 3
# While a held candidate is in one of these states, only the characters listed for it can
# change its verdict; text without them just extends it. Re-matching the candidate on
# every fragment was 40% of the pipeline's time on the benchmark answer (a link arrives as
# a dozen fragments). Any other state is re-matched.
_HOLD_STATE: Final = regex.compile(
    r"""(?P<tag></?[A-Za-z][^>=]*)"""
    r"""|(?P<tag_quoted></?[A-Za-z][^\s/>]*[\s/](?:[^>=]|=\s*"[^"]*"|=\s*'[^']*'|=(?!\s*["']))*"""
    r"""=\s*"[^"]*)"""
    r"|(?P<link_text>!?\[[^\[\]\\\r\n]*)"
    r"|(?P<link_url>!?\[[^\[\]\\\r\n]*\]\([^\x00-\x20\x7f()\\<>\"']+)",
    regex.IGNORECASE,
)
_STATE_CHANGES_ON: Final = {
    # Undecided until its ">" (an autolink's or e-mail address's too); "=" may open a quote.
    "tag": regex.compile(r"[>=]"),
    "tag_quoted": regex.compile(r'"'),
    "link_text": regex.compile(r"[\[\]\\\r\n]"),
    "link_url": regex.compile(r"""[\x00-\x20\x7f()\\<>"']"""),
}


class _Verdict:
    """A candidate's state when no match decides it: more text is needed, or it has
    reached its bound while it could still have become markup."""


_UNDECIDED: Final = _Verdict()
_GIVE_UP: Final = _Verdict()


def _settle(
    pattern: regex.Pattern[str], text: str, start: int, end: int, *, final: bool, full: bool
) -> regex.Match[str] | _Verdict | None:
    """The match the whole text would give at ``start`` within ``text[:end]``, ``None`` when
    there is none, or a `_Verdict` while that depends on text not yet seen (``full``: the
    bound is reached, so nothing more will be seen).

    A complete match is taken only once no longer one is still possible: "[1]: u" and a
    newline make a complete definition, and a title on the next line a longer one; the
    verdict must not depend on where the stream was split between them. The other
    patterns cannot grow once complete (a tag or an autolink ends at its ">", a link at
    its ")" or "]"), so only definitions pay for the check.
    """
    if final:
        return pattern.match(text, start, end)
    match = pattern.match(text, start, end, partial=True)
    if match is None:
        return None
    if not match.partial:
        if pattern is not _LINK_OR_DEFINITION:
            return match
        longer = pattern.fullmatch(text, start, end, partial=True)
        # A definition's title may follow on the next line, where the complete match (its
        # line ending) already ends, so a full match of what is buffered does not say that
        # no longer one can come.
        title_may_follow = (
            match.group("def_label") is not None
            and _TITLE_LINE.fullmatch(text, match.end(), end, partial=True) is not None
        )
        if full or not (title_may_follow or (longer is not None and longer.partial)):
            return pattern.match(text, start, end)
        return _UNDECIDED
    return _GIVE_UP if full else _UNDECIDED


@dataclass(frozen=True, slots=True)
class Anchor:
    """One link the model wrote, as the reader saw it.

    ``text`` is the display text as emitted; ``start``/``end`` are its offsets (in code
    points) in the concatenated output. They are ``None`` when no text of it reached the
    reader: a reference definition (``text`` is then its label), or, in a `Pipeline`, text
    that fell in the dropped sources section.
    """

    href: str
    text: str
    start: int | None
    end: int | None


@dataclass(slots=True)
class _OpenAnchor:
    href: str | None
    start: int
    pieces: list[str]
    # Where this anchor goes in the list of completed anchors: a markdown link inside
    # its text completes first but appears later.
    position: int


class AnchorStripper:
    """Feed fragments in, get link-free text out; `take_anchors` for what was removed.

    Text between the characters ``<``, ``[``, ``!``, a backtick, ``\\`` and a line ending
    passes at once. A ``<`` is held only while what follows could still make a tag or an
    autolink (so ``x < y`` is never delayed), a ``[`` or ``![`` only while it could still
    make a link, an image or a definition, a backtick run until its line or its closing
    run decides whether it is a span kept as code. Held text becomes prose when it can no
    longer become markup; a candidate that outgrows `MAX_TAG` / `MAX_LINK`, or that markup
    removed where it died would bring back, loses its first character. `flush` decides
    whatever is held as the end of the text. Inside a fenced code block everything passes
    at once.

    An HTML anchor's display text streams as it arrives; the anchor is complete at its
    ``</a>``, and a link inside that text is reported after it. One never closed ends where
    the next anchor tag opens or the stream ends, as an HTML parser would end it. An orphan
    ``</a>`` is removed. A link with an empty destination, or an ``<a>`` without a
    non-empty ``href``, loses its markup but yields no anchor; so does a reference whose
    label has no definition yet (its definition, when it comes, is the anchor).
    """

    def __init__(self, *, mid_line: bool = False, revive_depth: int = REVIVE_DEPTH) -> None:
        """``mid_line`` starts it as if in the middle of a line of prose, and
        ``revive_depth`` bounds how deep revival checks nest: for reducing a piece of a
        longer text on its own, in bounded time."""
        self._revive_depth = revive_depth
        # The reduction of the text after a held candidate's first character, kept while
        # the candidate is undecided: (that character, text fed, reducer, text reduced).
        self._revival: tuple[str, str, AnchorStripper, str] | None = None
        self._held = ""
        self._held_bound = 0
        self._held_stops: regex.Pattern[str] | None = None
        # The last decided character was an unescaped backslash: the next one is escaped.
        self._escaped = False
        self._emitted = 0
        # Backticks in the reader's current paragraph (a span may pair across its lines),
        # and how many of them are in kept spans: a span is kept only when no other
        # backtick before it in its paragraph could pair with its runs.
        self._line_ticks = 0
        self._line_kept_ticks = 0
        self._line_blank = not mid_line
        self._last_out = ""
        # The output ends with an unescaped backslash (read only while `_last_out` is one):
        # markup removed after a lone backslash ("\\</a>") leaves it before what follows,
        # so "\\</a>\\[x](u)" reads "\\\\[x](u)", a live link, and a backtick after it
        # opens no code span.
        self._out_escapes = False
        self._open: _OpenAnchor | None = None
        self._anchors: list[Anchor] = []
        self._fences = CodeFences(mid_line=mid_line)
        # The current line's decided text while it is only blanks and container markers.
        self._line_prefix: str | None = None if mid_line else ""
        self._definitions: dict[str, str] = {}

    @property
    def held_chars(self) -> int:
        """How many characters are held back, waiting to be decided."""
        return len(self._held)

    def feed(self, text: str) -> str:
        held = self._held
        if not held:
            if not self._escaped and _SPECIAL_CHARS.isdisjoint(text):
                # The fast path, written out: most fragments are prose in the middle of a
                # line, where nothing but the last character and the offset can change.
                if text:
                    self._last_out = text[-1]
                    if self._line_blank and text.strip(" \t"):
                        self._line_blank = False
                    if not self._fences.settled:
                        self._fences.feed(text)
                    self._emitted += len(text)
                    if self._open is not None:
                        self._open.pieces.append(text)
                    if self._line_prefix is not None:
                        self._track_line(text)
                return text
        elif (
            self._held_stops is not None
            and len(held) + len(text) < self._held_bound
            and self._held_stops.search(text) is None
        ):
            self._held = held + text
            return ""
        return self._scan(held + text, final=False)

    def flush(self) -> str:
        held, self._held = self._held, ""
        out = self._scan(held, final=True) if held else ""
        self._close_open_anchor()
        return out

    def take_anchors(self) -> list[Anchor]:
        """The anchors completed since the last call, in order of appearance.

        Links inside an open HTML anchor's text wait for it to close, so that it comes
        out before them.
        """
        if not self._anchors:
            return []
        keep_from = len(self._anchors) if self._open is None else self._open.position
        anchors, self._anchors = self._anchors[:keep_from], self._anchors[keep_from:]
        if self._open is not None:
            self._open.position = 0
        return anchors

    # --- Scanning ----------------------------------------------------------------------

    def _scan(self, text: str, *, final: bool) -> str:
        out: list[str] = []
        at = 0
        self._held = ""
        self._held_stops = None
        if self._escaped and at < len(text):
            self._escaped = False
            if text[at] not in "\r\n<":
                self._pass(out, text[at])
                at += 1
        while at < len(text):
            if self._fences.inside:
                end = _after_line_end(text, at)
                self._pass(out, text[at:end])
                at = end
                continue
            found = _SPECIAL.search(text, at)
            if found is None:
                self._pass(out, text[at:])
                break
            special = found.start()
            self._pass(out, text[at:special])
            at = special
            char = text[at]
            if char in "\r\n":
                self._pass(out, char)
                at += 1
            elif char == "!":
                if at + 1 < len(text) and text[at + 1] == "[":
                    decided = self._candidate(out, text, at, final=final)
                    if decided is None:
                        return "".join(out)
                    at = decided
                elif at + 1 == len(text) and not final:
                    # Whether it makes an image depends on the next character.
                    self._hold(text[at:], MAX_LINK)
                    return "".join(out)
                else:
                    self._pass(out, "!")
                    at += 1
            elif char == "`":
                decided = self._code_span(out, text, at, final=final)
                if decided is None:
                    return "".join(out)
                at = decided
            elif char == "\\":
                at = self._backslash(out, text, at, final=final)
            else:
                decided = self._candidate(out, text, at, final=final)
                if decided is None:
                    return "".join(out)
                at = decided
        return "".join(out)

    def _backslash(self, out: list[str], text: str, at: int, *, final: bool) -> int:
        """Pass the backslash at ``text[at]`` with what it escapes; the offset after them."""
        if self._last_out == "\\" and self._out_escapes:
            # Escaped by the backslash before removed markup: a literal backslash, and the
            # character after it is read as unescaped.
            self._pass(out, "\\")
            return at + 1
        if at + 1 == len(text):
            self._pass(out, "\\")
            self._escaped = not final
            return at + 1
        if text[at + 1] in "\r\n<":
            # A backslash escapes nothing inside raw HTML, where a "<a" after it is still a
            # tag: "<" is never taken as escaped.
            self._pass(out, "\\")
            return at + 1
        # An escaped "!" makes no image: the "[" after it opens a link.
        self._pass(out, text[at : at + 2])
        return at + 2

    def _code_span(self, out: list[str], text: str, at: int, *, final: bool) -> int | None:
        """Decide the backtick run at ``text[at]``: a code span every renderer reads as one
        passes verbatim; any other run passes as text and the scan goes on after it. The
        offset to go on from, or ``None`` once the rest of ``text`` is held (at most
        `MAX_LINK` characters, and never past the line's end)."""
        run_end = at
        while run_end < len(text) and text[run_end] == "`":
            run_end += 1
        limit = min(len(text), at + MAX_LINK)
        if run_end == len(text) and not final and run_end < at + MAX_LINK:
            self._hold(text[at:], MAX_LINK)  # the run may grow
            return None
        length = run_end - at
        search = run_end
        close: tuple[int, int] | None = None
        while close is None:
            tick = text.find("`", search, limit)
            line_end = _LINE_END.search(text, search, limit)
            newline = -1 if line_end is None else line_end.start()
            if tick == -1 or (newline != -1 and newline < tick):
                if newline == -1 and limit == len(text) and not final and limit < at + MAX_LINK:
                    self._hold(text[at:], MAX_LINK)  # the closing run may come
                    return None
                break
            end = tick
            while end < len(text) and text[end] == "`":
                end += 1
            if end == len(text) and not final and end < at + MAX_LINK:
                self._hold(text[at:], MAX_LINK)  # this run may grow
                return None
            if end - tick == length:
                close = (tick, end)
            search = end
        if close is not None and close[1] == len(text) and not final:
            self._hold(text[at:], MAX_LINK)  # what follows decides it
            return None
        if close is not None and self._keeps_span(text, run_end, close):
            span = text[at : close[1]]
            self._pass(out, span)
            self._line_kept_ticks += length * 2
            return close[1]
        self._pass(out, text[at:run_end])
        return run_end

    def _keeps_span(self, text: str, opened: int, close: tuple[int, int]) -> bool:
        """Whether the span closing at ``close`` is one on every renderer (module doc)."""
        if self._line_ticks != self._line_kept_ticks or self._last_out == "`":
            return False
        if self._last_out == "\\" and self._out_escapes:
            return False  # its opening run is escaped
        if not _SPAN_UNSAFE_INSIDE.isdisjoint(text[opened : close[0]]):
            return False
        return close[1] == len(text) or text[close[1]] not in _SPAN_UNSAFE_AFTER

    def _candidate(self, out: list[str], text: str, at: int, *, final: bool) -> int | None:
        """Decide the "<", "[" or "![" at ``text[at]``: the offset to go on from, or ``None``
        once the rest of ``text`` is held."""
        if text[at] == "!":
            bound, pattern = MAX_LINK, _IMAGE
        elif text[at] == "[":
            bound = MAX_LINK
            definition_here = self._line_prefix is not None and _CONTAINER_PREFIX.fullmatch(
                self._line_prefix
            )
            if not definition_here:
                pattern = _LINK
            else:
                pattern = _LINK_OR_LAST_DEFINITION if final else _LINK_OR_DEFINITION
        else:
            bound, pattern = MAX_TAG, _ANGLE
        # Matched within the bound only, so the verdict never depends on how much text
        # happens to be buffered: a candidate still open at the bound is given up.
        window = min(len(text), at + bound)
        match = _settle(pattern, text, at, window, final=final, full=window - at >= bound)
        if match is _UNDECIDED:
            self._hold(text[at:], bound)
            return None
        if match is _GIVE_UP:
            return at + 1
        if match is None:
            revives = (
                self._revives(text, at, pattern, bound, final=final)
                if self._revive_depth > 0
                else False
            )
            if revives is None:
                self._hold(text[at:], bound)
                return None
            self._revival = None
            if not revives:
                self._pass(out, text[at])
            return at + 1
        assert isinstance(match, regex.Match)
        if pattern is _ANGLE and match.group("element") is not None:
            return self._take_element(out, match)
        # A definition inside a quote or a list item keeps its line's newline, so the
        # container's other lines stay apart.
        contained = bool(self._line_prefix and self._line_prefix.strip())
        if pattern is _ANGLE:
            self._take_angle(out, match)
        else:
            self._take_link(out, match, contained=contained)
        return match.end()

    def _revives(
        self, text: str, at: int, pattern: regex.Pattern[str], bound: int, *, final: bool
    ) -> bool | None:
        """Whether a candidate that cannot complete as written would complete in the text a
        reader gets, once the markup after its first character is reduced: ``True`` (give
        it up), ``False`` (prose), ``None`` (undecided).

        "[a]</a>(u)" cannot complete, but with "</a>" removed the reader's text is "[a](u)",
        a live link; so can "<a" before a removed tag and " href=...>" after it, or a tag
        read first as a destination and removed later. A candidate so revived is given up
        like one past its bound. Only text within the bound is read, so the verdict does
        not depend on how much was buffered.
        """
        window = min(len(text), at + bound)
        markup = _SPECIAL_MARKUP.search(text, at + 1, window)
        if markup is None:
            return False
        # Where it dies as written, found by doubling: most candidates ("x < y", "[1] ")
        # die within a character or two, before any markup could change them.
        viable, step = at + 1, 1
        while viable < window:
            probe = min(window, viable + step)
            if pattern.match(text, at, probe, partial=True) is None:
                break
            viable, step = probe, step * 2
        # text[at:viable] can still become markup; the candidate dies within the next
        # `step` characters. Markup starting after that cannot have changed its fate.
        if min(window, viable + step) <= markup.start():
            return False
        rest = text[at + 1 : window]
        # While undecided, the held candidate comes back with a little more text on every
        # fragment: the reduction so far is kept and only the new text is fed, so a
        # candidate costs its length once, not once per fragment.
        cached = self._revival
        if cached is not None and cached[0] == text[at] and rest.startswith(cached[1]):
            _, fed, inner, reduced = cached
            reduced += inner.feed(rest[len(fed) :])
        else:
            inner = AnchorStripper(mid_line=True, revive_depth=self._revive_depth - 1)
            # It goes on as this one would once the candidate's character is prose: a
            # backtick earlier in the paragraph keeps it from taking a span for code that
            # this one would reduce.
            inner._line_ticks, inner._line_kept_ticks = self._line_ticks, self._line_kept_ticks
            inner._last_out = text[at]
            reduced = inner.feed(rest)
        self._revival = (text[at], rest, inner, reduced)
        if inner.held_chars > 0 and not final and window - at < bound:
            # The reduction's tail is itself undecided: any verdict now could differ from
            # the one the whole text gives.
            return None
        reduced += copy.deepcopy(inner).flush()
        if reduced == rest:
            return False
        again = pattern.match(text[at] + reduced, partial=not final)
        if again is None:
            return False
        if again.partial:
            return None if not final and window - at < bound else True
        return True

    def _hold(self, candidate: str, bound: int) -> None:
        self._held = candidate
        self._held_bound = bound
        state = _HOLD_STATE.fullmatch(candidate)
        self._held_stops = None if state is None else _STATE_CHANGES_ON[str(state.lastgroup)]

    # --- Taking markup -------------------------------------------------------------------

    def _take_link(self, out: list[str], match: regex.Match[str], *, contained: bool) -> None:
        label = match.groupdict().get("def_label")
        if label is not None:
            ending = _LINE_ENDING_AT_END.search(match.group()) if contained else None
            if ending is not None:
                self._release(out, ending.group())
            href = _destination(match)
            key = _label_key(label)
            if key not in self._definitions:
                self._definitions[key] = href
                if href:
                    self._anchors.append(Anchor(href=href, text=label, start=None, end=None))
            return
        text = match.group("text")
        if match.group("label") is not None:
            key = _label_key(match.group("label") or text)
            href = self._definitions.get(key, "")
        else:
            href = _destination(match)
        # The display text may hold links, code and tags of its own: it is reduced by a
        # stripper of its own, and whatever links it held are reported after this one.
        # Most display text is a word or two with nothing to reduce.
        inner = None if _SPECIAL_CHARS.isdisjoint(text) else AnchorStripper()
        reduced = text if inner is None else inner.feed(text) + inner.flush()
        shown, moved = _inert(reduced)
        start = self._emitted
        self._release(out, shown)
        if href:
            self._anchors.append(Anchor(href=href, text=shown, start=start, end=self._emitted))
        for anchor in inner.take_anchors() if inner is not None else ():
            if anchor.start is None or anchor.end is None:
                self._anchors.append(anchor)
            else:
                first, last = moved(anchor.start), moved(anchor.end)
                self._anchors.append(
                    Anchor(anchor.href, shown[first:last], first + start, last + start)
                )

    def _take_angle(self, out: list[str], match: regex.Match[str]) -> None:
        tag = match.group("tag")
        if tag is not None:
            self._take_tag(tag)
            return
        address = match.group("uri") or match.group("email")
        href = address if match.group("uri") else f"mailto:{address}"
        shown, _ = _inert(address)
        start = self._emitted
        self._release(out, shown)
        self._anchors.append(Anchor(href=href, text=shown, start=start, end=self._emitted))

    def _take_element(self, out: list[str], match: regex.Match[str]) -> int:
        """A tag other than an anchor: passed whole when it is inert and holds nothing that
        could be markup; else its "<" is written "&lt;" (the reader sees the tag as text) and
        what follows is read as prose. Passed piece by piece, an inert tag's inside could
        be rewritten into an active one ("<b [x ](u)onclick=...>" reads "<b x onclick=...>"
        once the link is reduced), so one with a "<" or "[" inside is never passed whole."""
        element = match.group("element")
        if not is_active(element) and _SPECIAL_MARKUP.search(element, 1) is None:
            self._pass(out, element)
            return match.end()
        self._release(out, "&lt;")
        return match.start() + 1

    def _take_tag(self, tag: str) -> None:
        self._close_open_anchor()
        if tag[1] == "/":
            return
        href = _HREF.search(tag)
        quoted = next((group for group in href.groups() if group is not None), "") if href else ""
        value = html.unescape(quoted).strip()
        self._open = _OpenAnchor(
            href=value or None, start=self._emitted, pieces=[], position=len(self._anchors)
        )

    def _close_open_anchor(self) -> None:
        anchor, self._open = self._open, None
        if anchor is None or anchor.href is None:
            return
        text = "".join(anchor.pieces)
        self._anchors.insert(
            anchor.position,
            Anchor(href=anchor.href, text=text, start=anchor.start, end=anchor.start + len(text)),
        )

    # --- Bookkeeping -----------------------------------------------------------------------

    def _pass(self, out: list[str], text: str) -> None:
        """Input that goes out unchanged."""
        self._release(out, text)

    def _release(self, out: list[str], text: str) -> None:
        if text:
            out.append(text)
            self._emit(text)

    def _emit(self, text: str) -> None:
        self._emitted += len(text)
        before, self._last_out = self._last_out, text[-1]
        if text[-1] == "\\":
            run = len(text) - len(text.rstrip("\\"))
            continued = run == len(text) and before == "\\" and self._out_escapes
            self._out_escapes = (run % 2 == 1) != continued
        ends_line = has_line_end(text)
        if ends_line or "`" in text or self._line_blank:
            self._track_ticks(text, before)
        if self._open is not None:
            self._open.pieces.append(text)
        # Fences and line starts are the reader's: a "~~~" line inside a removed tag is no
        # fence, and taken for one it sheltered the links after it (a fuzzed probe).
        if not self._fences.settled or ends_line:
            self._fences.feed(text)
        if self._line_prefix is not None or ends_line:
            self._track_line(text)

    def _track_ticks(self, text: str, before: str) -> None:
        """Count the paragraph's backticks; a blank line ends the paragraph. ``before`` is
        the character output just before ``text``: a CR there and an LF first here are one
        line ending, split between two fragments, not a blank line."""
        if before == "\r" and text.startswith("\n"):
            text = text[1:]
        for number, line in enumerate(_LINE_ENDINGS.split(text)):
            if number:
                if self._line_blank:
                    self._line_ticks = self._line_kept_ticks = 0
                self._line_blank = True
            if self._line_blank and line.strip(" \t"):
                self._line_blank = False
            self._line_ticks += line.count("`")

    def _track_line(self, text: str) -> None:
        """Output: where a definition may start is a matter of the text the reader's
        renderer gets, so "<a>[1]: u" is a definition once the tag is gone."""
        newline = max(text.rfind("\n"), text.rfind("\r"))
        if newline == -1:
            if self._line_prefix is not None:
                prefix = self._line_prefix + text
                self._line_prefix = (
                    prefix if len(prefix) <= 64 and _CONTAINER_PREFIX.fullmatch(prefix) else None
                )
        else:
            rest = text[newline + 1 :]
            self._line_prefix = rest if _CONTAINER_PREFIX.fullmatch(rest) else None


def _inert(text: str) -> tuple[str, Callable[[int], int]]:
    """Reduced text that cannot join the text around it into new markup, and where each
    offset of ``text`` moved to in it: "[[1]](u)(v)" reduced to a bare "[1]" would have
    made "[1](v)" a live link, and an address between a "<" and a ">" an autolink. Unescaped
    "[" and "]", every "@" and a colon after a leading scheme get a backslash (a renderer
    shows "\\[1\\]" as "[1]"); every "<" becomes "&lt;", since a backslash escapes
    nothing inside raw HTML."""
    if _SPECIAL_IN_TEXT.isdisjoint(text) and ":" not in text:
        return text, _unmoved
    # An autolink holds no blank, so text with one cannot become (part of) one.
    pattern = _INERT if _BLANK.search(text) is None else _INERT_BRACKETS
    pieces: list[str] = []
    added = [0] * (len(text) + 1)
    extra = 0
    last = 0
    for found in pattern.finditer(text):
        at = found.start("char")
        pieces.append(text[last:at])
        escaped = "&lt;" if found.group("char") == "<" else "\\" + found.group("char")
        pieces.append(escaped)
        for offset in range(last, at + 1):
            added[offset] = extra
        extra += len(escaped) - 1
        last = at + 1
    pieces.append(text[last:])
    for offset in range(last, len(text) + 1):
        added[offset] = extra
    return "".join(pieces), lambda offset: offset + added[offset]


def _after_line_end(text: str, at: int) -> int:
    """Where the line that ``text[at:]`` continues ends, after its line ending (LF, CR, or
    CR and LF); the end of ``text`` when none is in it."""
    found = _LINE_END.search(text, at)
    if found is None:
        return len(text)
    end = found.end()
    if found.group() == "\r" and text.startswith("\n", end):
        end += 1
    return end


def _unmoved(offset: int) -> int:
    return offset


def _destination(match: regex.Match[str]) -> str:
    raw = match.group("angled")
    if raw is None:
        raw = match.group("bare") or ""
    return html.unescape(_ESCAPED.sub(r"\1", raw)).strip()


def _label_key(label: str) -> str:
    """CommonMark's label matching: case-folded, inner whitespace collapsed."""
    return " ".join(label.split()).casefold()
