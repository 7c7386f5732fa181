"""Replace the model's inline anchors by their display text, fragment by fragment.

Models cite inline in two forms: HTML ``<a href="URL">text</a>`` and markdown
``[text](URL)``. A reader must see only ``text``; the link becomes an `Anchor` (href,
display text, and where that text sits in the output) for the caller to map onto a
source the server vouches for. Fragments split anywhere: measured on a live endpoint,
one anchor arrived as twenty-odd pieces (``' <'``, ``'a'``, ``' href'``, ``'="'``, ...),
so this holds back only text that could still become anchor markup, and nothing else.

It deliberately does not decide whether a link is a real source (the caller does),
does not touch other HTML tags or markdown images (``![alt](src)`` passes through),
and does not parse HTML beyond the ``a`` element.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Final

import regex

# A complete opening or closing anchor tag: "<a" then a blank or ">", so "<abbr>" and
# "<a-b>" are other tags; any attributes, either quote style, any case.
_TAG: Final = regex.compile(r"<a(?:\s[^>]*)?>|</a\s*>", regex.IGNORECASE)
_HREF: Final = regex.compile(
    r"""\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", regex.IGNORECASE
)
# A complete markdown link: display text on one line without brackets, a non-empty URL
# without whitespace (one level of balanced parentheses, as in Wikipedia URLs) and an
# optional "title", which is dropped.
_LINK: Final = regex.compile(
    r"""\[(?P<text>[^\[\]\n]*)\]\((?P<url>(?:[^\s()]|\([^\s()]*\))+)(?:[ \t]+"[^"\n]*")?[ \t]*\)"""
)
_MARKUP_START: Final = regex.compile(r"[<\[]")

# While a held candidate is in one of these states, only the characters listed for it
# can change its verdict; text without them just extends it. Re-matching the candidate
# on every fragment was 40% of the pipeline's time on the benchmark answer (a link
# arrives as a dozen fragments). Any other state is re-matched.
_HOLD_STATE: Final = regex.compile(
    r"(?P<tag_attributes><a\s[^>]*)"
    r"|(?P<link_text>\[[^\[\]\n]*)"
    r"|(?P<link_url>\[[^\[\]\n]*\]\((?:[^\s()]|\([^\s()]*\))+)",
    regex.IGNORECASE,
)
_STATE_CHANGES_ON: Final = {
    "tag_attributes": regex.compile(r">"),
    "link_text": regex.compile(r"[\[\]\n]"),
    "link_url": regex.compile(r"[\s()]"),
}

# How long a candidate may grow before it is released as prose. Real anchor tags
# are about seventy characters; holding forever would strand text that never
# completes (an unclosed "<a" or a bracketed aside in prose).
MAX_TAG: Final = 200
# A markdown link holds its display text as well as its URL, so it gets more room.
MAX_LINK: Final = 400


@dataclass(frozen=True, slots=True)
class Anchor:
    """One anchor the model wrote, as the reader saw it.

    ``text`` is the display text as emitted; ``start``/``end`` are its offsets (in
    code points) in the concatenated output. They are ``None`` only when, in a
    `Pipeline`, the text fell in the dropped sources section.
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
    """Feed fragments in, get anchor-free text out; `take_anchors` for what was removed.

    Text before a ``<`` or ``[`` passes at once. A ``<`` is held only while what follows
    could still make an anchor tag (so ``x < y`` is never delayed), a ``[`` only while it
    could still make a markdown link (a newline inside the brackets ends that). Held
    text becomes prose when it can no longer become markup or outgrows `MAX_TAG` /
    `MAX_LINK`; `flush` releases whatever is held, verbatim.

    An HTML anchor's display text streams as it arrives; the anchor is complete at its
    ``</a>``, and a markdown link inside that text is reported after it. One never
    closed ends where the next anchor tag opens or the stream ends, as an HTML parser
    would end it. An orphan ``</a>`` is removed. An ``<a>`` without a non-empty ``href``
    loses its tags but yields no anchor.
    """

    def __init__(self) -> None:
        self._held = ""
        self._held_bound = 0
        self._held_stops: regex.Pattern[str] | None = None
        # The input character just before the held text: a "[" after "!" opens an
        # image, not a link, even when the "!" came in an earlier fragment.
        self._before_held = ""
        self._emitted = 0
        self._open: _OpenAnchor | None = None
        self._anchors: list[Anchor] = []

    @property
    def held_chars(self) -> int:
        """How many characters are held back, waiting to be decided."""
        return len(self._held)

    def feed(self, text: str) -> str:
        held = self._held
        if not held:
            if "<" not in text and "[" not in text:
                if text:
                    self._before_held = text[-1]
                    self._emitted += len(text)
                    if self._open is not None:
                        self._open.pieces.append(text)
                return text
        elif (
            self._held_stops is not None
            and len(held) + len(text) < self._held_bound
            and self._held_stops.search(text) is None
        ):
            self._held = held + text
            return ""
        return self._scan(held + text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        self._emit(held)
        self._close_open_anchor()
        return held

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

    def _scan(self, text: str) -> str:
        out: list[str] = []
        released = 0  # text[:released] is decided
        search_from = 0
        while (found := _MARKUP_START.search(text, search_from)) is not None:
            at = found.start()
            if text[at] == "[":
                before = text[at - 1] if at else self._before_held
                if before == "!":
                    search_from = at + 1
                    continue
                pattern, bound = _LINK, MAX_LINK
            else:
                pattern, bound = _TAG, MAX_TAG
            match = pattern.match(text, at, partial=True)
            if match is None or (match.partial and len(text) - at >= bound):
                search_from = at + 1
                continue
            if match.partial:
                self._release(out, text[released:at])
                self._before_held = text[at - 1] if at else self._before_held
                self._hold(text[at:], bound)
                return "".join(out)
            if match.end() - at > bound:
                search_from = at + 1
                continue
            self._release(out, text[released:at])
            if pattern is _LINK:
                self._take_link(out, match.group("text"), match.group("url"))
            else:
                self._take_tag(match.group())
            released = search_from = match.end()
        self._release(out, text[released:])
        if text:
            self._before_held = text[-1]
        self._held = ""
        return "".join(out)

    def _hold(self, candidate: str, bound: int) -> None:
        self._held = candidate
        self._held_bound = bound
        state = _HOLD_STATE.fullmatch(candidate)
        self._held_stops = None if state is None else _STATE_CHANGES_ON[str(state.lastgroup)]

    def _release(self, out: list[str], text: str) -> None:
        if text:
            out.append(text)
            self._emit(text)

    def _emit(self, text: str) -> None:
        self._emitted += len(text)
        if self._open is not None and text:
            self._open.pieces.append(text)

    def _take_link(self, out: list[str], text: str, url: str) -> None:
        start = self._emitted
        self._release(out, text)
        self._anchors.append(Anchor(href=url, text=text, start=start, end=self._emitted))

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
