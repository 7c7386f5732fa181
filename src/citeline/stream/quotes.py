"""Quote blocks: the model's ``<citation>`` evidence, taken out of a split stream and checked.

A model may back a claim with an element that opens at the start of a line::

    <citation>
    > Body mass in grams, weighed at the nest.
    My average comes from this column.
    </citation>

Its body holds exactly one contiguous run of blockquote lines (``> `` or ``>``: the evidence)
and any other lines (the model's explanation, never trusted). ``QuoteBlockScanner`` removes
every such element from the prose, whatever becomes of it, and reports an outcome for each;
``TrustedTexts`` decides whether the evidence really occurs in text the server trusts, trying
definitions first, then tables, then the rows data tools returned, then documents.

Pure and synchronous, no I/O. It does not know where trusted text comes from (the data and
corpus layers supply it as ``TrustedText`` entries) nor which events a verified quote becomes
(the agent decides that).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

TrustedKind: TypeAlias = Literal["definition", "table", "result", "document"]
RejectReason: TypeAlias = Literal["too_short", "not_found"]
MalformedReason: TypeAlias = Literal[
    "no_quote", "split_quote", "nested", "too_long", "unterminated"
]
QuoteStatus: TypeAlias = Literal["verified", "rejected", "malformed"]

# The order in which trusted text is searched; the first entry holding the quote is the source.
# A measure's definition is the owner's own word, so it outranks a table's description, which
# outranks the rows a data tool returned (``result``), then a document. Descriptions come
# before results so that words found in both count as a description, which earns no label.
KIND_ORDER: tuple[TrustedKind, ...] = ("definition", "table", "result", "document")

# Below ten characters a "quote" is a word or two ("body mass") that occurs in nearly any
# trusted text, so finding it proves nothing about the claim it is meant to back.
MIN_QUOTE_CHARS = 10

# A real quote block is a sentence or a paragraph (well under 2,000 characters); this bound
# only stops an element the model never closed from holding back the rest of the answer.
MAX_BODY_CHARS = 16_384

OPEN_TAG = "<citation>"
CLOSE_TAG = "</citation>"
# Tags match in any ASCII case: models write "<Citation>" as often as "<citation>", and a
# tag missed in one case reached the reader with its whole body. ASCII only, so that no
# look-alike (the Kelvin sign lower-cases to "k") turns prose into a tag.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_CLOSE = re.compile(re.escape(CLOSE_TAG), re.IGNORECASE | re.ASCII)
_NESTED_OPEN = re.compile("\n" + re.escape(OPEN_TAG), re.IGNORECASE | re.ASCII)

# Markdown emphasis and code marks are formatting a model adds or drops at will; curly quotes
# and long dashes are typography it changes at will. Neither changes what a passage says.
_FOLDS = str.maketrans(
    {
        "*": None,
        "_": None,
        "`": None,
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2013": "-",
        "\u2014": "-",
    }
)
_WHITESPACE = re.compile(r"\s+")


def normalise_quote(text: str) -> str:
    """Both sides of a match go through this: marks stripped, typography folded, whitespace
    collapsed to single spaces and trimmed. Case is kept: "NA" and "na" are different data."""
    return _WHITESPACE.sub(" ", text.translate(_FOLDS)).strip()


def _normalised_offsets(text: str) -> list[int]:
    """For each character of ``normalise_quote(text)``, its offset in ``text``.

    The same rules as ``normalise_quote`` one character at a time (a collapsed space maps to
    the character after the whitespace run), used only for the one entry a quote matched, so
    that the event can carry the trusted text's own words rather than the model's.
    """
    offsets: list[int] = []
    pending_space = False
    for index, char in enumerate(text):
        if char.isspace():
            pending_space = bool(offsets)
            continue
        if not char.translate(_FOLDS):
            continue
        if pending_space:
            offsets.append(index)
            pending_space = False
        offsets.append(index)
    return offsets


@dataclass(frozen=True, slots=True)
class TrustedText:
    """One piece of text the server vouches for: a measure's definition, a table's description,
    or a curated document. ``id`` is what a citation event names."""

    kind: TrustedKind
    id: str
    display_name: str
    text: str


@dataclass(frozen=True, slots=True)
class QuoteMatch:
    """Where a quote was found. ``text`` is the passage as the trusted text writes it."""

    kind: TrustedKind
    id: str
    display_name: str
    text: str


QuoteVerifier: TypeAlias = Callable[[str], "QuoteMatch | RejectReason"]


class TrustedTexts:
    """The trusted entries of one answer, searched in ``KIND_ORDER`` and, within a kind, in the
    order given; each entry is normalised once, however many quotes are checked."""

    def __init__(self, entries: Iterable[TrustedText]) -> None:
        ordered = sorted(entries, key=lambda entry: KIND_ORDER.index(entry.kind))
        self._entries = [(entry, normalise_quote(entry.text)) for entry in ordered]

    def __len__(self) -> int:
        return len(self._entries)

    def verify(self, quote: str) -> QuoteMatch | RejectReason:
        """The first entry holding ``quote`` after both are normalised, or why there is none."""
        needle = normalise_quote(quote)
        if len(needle) < MIN_QUOTE_CHARS:
            return "too_short"
        for entry, haystack in self._entries:
            at = haystack.find(needle)
            if at != -1:
                offsets = _normalised_offsets(entry.text)
                passage = entry.text[offsets[at] : offsets[at + len(needle) - 1] + 1]
                return QuoteMatch(entry.kind, entry.id, entry.display_name, passage)
        return "not_found"

    __call__ = verify


@dataclass(frozen=True, slots=True)
class QuoteBody:
    """An element's body split into its evidence (markers removed) and its explanation."""

    quote: str
    explanation: str


def _quote_line(line: str) -> str | None:
    """The text of a blockquote line without its marker, or ``None`` for any other line."""
    stripped = line.lstrip(" \t")
    if not stripped.startswith(">"):
        return None
    text = stripped[1:]
    return text[1:] if text.startswith(" ") else text


def parse_quote_body(body: str) -> QuoteBody | MalformedReason:
    """Split a body, or say why it is malformed: no blockquote line at all, or two runs of
    them (a blank or explanation line between), since then it is unclear which is evidence."""
    quote_lines: list[str] = []
    explanation: list[str] = []
    runs = 0
    in_run = False
    for raw in body.split("\n"):
        line = raw.rstrip("\r")
        quoted = _quote_line(line)
        if quoted is None:
            in_run = False
            if line.strip():
                explanation.append(line.strip())
            continue
        if not in_run:
            runs += 1
            in_run = True
        quote_lines.append(quoted)
    if runs == 0:
        return "no_quote"
    if runs > 1:
        return "split_quote"
    return QuoteBody("\n".join(quote_lines).strip(), "\n".join(explanation))


@dataclass(frozen=True, slots=True)
class QuoteOutcome:
    """What became of one element. ``reason`` is ``None`` only when verified; ``quote`` and
    ``explanation`` are empty when the body never parsed (malformed)."""

    status: QuoteStatus
    reason: RejectReason | MalformedReason | None = None
    quote: str = ""
    explanation: str = ""
    match: QuoteMatch | None = None


@dataclass(frozen=True, slots=True)
class QuoteScan:
    """One ``feed`` or ``flush``: the prose released, and the elements completed in it."""

    text: str
    outcomes: tuple[QuoteOutcome, ...] = ()


def _judge(body: str, verify: QuoteVerifier) -> QuoteOutcome:
    parsed = parse_quote_body(body)
    if isinstance(parsed, str):
        return QuoteOutcome("malformed", parsed)
    verdict = verify(parsed.quote)
    if isinstance(verdict, QuoteMatch):
        return QuoteOutcome("verified", None, parsed.quote, parsed.explanation, verdict)
    return QuoteOutcome("rejected", verdict, parsed.quote, parsed.explanation)


class QuoteBlockScanner:
    """Removes ``<citation>`` elements from text split at arbitrary points.

    Rules, each there so the result is the same however the stream was split:

    - Tags match in any ASCII case (``<Citation>``, ``</CITATION>``).
    - The opening tag counts only as the first characters of a line (``x <citation>`` is
      prose). At a line start the scanner holds back at most ``len(CLOSE_TAG) - 1`` characters
      while they could still become a tag; all other prose is released in the same ``feed``.
    - A closing tag at a line start outside an element is dropped (with its newline): it can
      only close an element that was abandoned, and it means nothing to a reader.
    - The element ends at the first ``</citation>``; one newline right after it goes with it,
      so removing a block leaves no extra blank line.
    - An opening tag at a line start inside a body is reserved markup: the element is
      abandoned (recorded as ``nested``) and the new tag opens the next element.
    - A body longer than ``MAX_BODY_CHARS`` is abandoned (``too_long``) and discarded through
      its closing tag, wherever on a line that falls (or up to an opening tag at a line start,
      or the end of the stream): the body is model markup, so none of it may reach the
      reader. Up to the bound the body is held, to be judged whole; past it, text is dropped
      as it arrives and only the last ``len(CLOSE_TAG) - 1`` characters are kept, in case
      they are the start of the closing tag split across fragments.
    - At ``flush`` an unterminated element is dropped (``unterminated``); a held partial tag
      is released as the prose it turned out to be.
    """

    def __init__(self, verify: QuoteVerifier) -> None:
        self._verify = verify
        self._held = ""
        self._in_body = False
        # Past MAX_BODY_CHARS: the body is being dropped up to its closing tag.
        self._discarding = False
        self._after_close = False
        self._at_line_start = True
        # How far into the held body the tag searches have already looked, so feeding a long
        # body one character at a time does not search it from the start on every call.
        self._searched = 0

    def feed(self, text: str) -> QuoteScan:
        buffer = self._held + text
        self._held = ""
        released: list[str] = []
        outcomes: list[QuoteOutcome] = []
        at = 0
        while at < len(buffer):
            if self._after_close:
                self._after_close = False
                if buffer[at] == "\n":
                    at += 1
                    self._at_line_start = True
                continue
            if self._discarding:
                consumed = self._discard(buffer, at, outcomes)
                if consumed is None:
                    self._held = buffer[max(at, len(buffer) - (len(CLOSE_TAG) - 1)) :]
                    break
                at = consumed
                continue
            if self._in_body:
                consumed = self._scan_body(buffer, at, outcomes)
                if consumed is None:
                    self._held = buffer[at:]
                    break
                at = consumed
                continue
            if self._at_line_start:
                rest = buffer[at : at + len(CLOSE_TAG)].translate(_ASCII_LOWER)
                if rest.startswith(OPEN_TAG):
                    self._in_body = True
                    self._searched = 0
                    at += len(OPEN_TAG)
                    continue
                if rest == CLOSE_TAG:
                    self._after_close = True
                    self._at_line_start = False
                    at += len(CLOSE_TAG)
                    continue
                if at + len(rest) == len(buffer) and (
                    OPEN_TAG.startswith(rest) or CLOSE_TAG.startswith(rest)
                ):
                    self._held = buffer[at:]
                    break
            newline = buffer.find("\n", at)
            end = len(buffer) if newline == -1 else newline + 1
            released.append(buffer[at:end])
            self._at_line_start = newline != -1
            at = end
        return QuoteScan("".join(released), tuple(outcomes))

    def _scan_body(self, buffer: str, at: int, outcomes: list[QuoteOutcome]) -> int | None:
        """Decide the body starting at ``buffer[at]``: the offset to go on from, or ``None``
        while undecided. Only the first ``MAX_BODY_CHARS + 1`` characters can hold the end."""
        body = buffer[at:]
        start = max(0, self._searched - len(CLOSE_TAG))
        found = _CLOSE.search(body, start)
        close = -1 if found is None else found.start()
        found = _NESTED_OPEN.search(body, max(0, start - 1))
        nested = -1 if found is None else found.start() + 1
        self._searched = len(body)
        if nested != -1 and (close == -1 or nested < close) and nested <= MAX_BODY_CHARS:
            outcomes.append(QuoteOutcome("malformed", "nested"))
            self._leave_body(at_line_start=True)
            return at + nested
        if close != -1 and close <= MAX_BODY_CHARS:
            outcomes.append(_judge(body[:close], self._verify))
            self._leave_body(at_line_start=False)
            self._after_close = True
            return at + close + len(CLOSE_TAG)
        if len(body) >= MAX_BODY_CHARS + len(CLOSE_TAG):
            # No tag starts within the bound: from here on the body is only dropped. A
            # closing tag starting later, or an opening one whose line starts at the bound,
            # is found by _discard.
            self._leave_body(at_line_start=False)
            self._discarding = True
            return at + MAX_BODY_CHARS
        return None

    def _discard(self, buffer: str, at: int, outcomes: list[QuoteOutcome]) -> int | None:
        """Drop an oversized body from ``buffer[at]`` to its end: the offset after its closing
        tag, the start of an opening tag's line, or ``None`` when neither has arrived yet."""
        found = _CLOSE.search(buffer, at)
        close = -1 if found is None else found.start()
        found = _NESTED_OPEN.search(buffer, at)
        nested = -1 if found is None else found.start() + 1
        if nested != -1 and (close == -1 or nested < close):
            outcomes.append(QuoteOutcome("malformed", "too_long"))
            self._discarding = False
            self._at_line_start = True
            return nested
        if close != -1:
            outcomes.append(QuoteOutcome("malformed", "too_long"))
            self._discarding = False
            self._after_close = True
            self._at_line_start = False
            return close + len(CLOSE_TAG)
        return None

    def _leave_body(self, *, at_line_start: bool) -> None:
        self._in_body = False
        self._searched = 0
        self._at_line_start = at_line_start

    def flush(self) -> QuoteScan:
        """End of stream: release a held partial tag, drop an unterminated element."""
        held, in_body, discarding = self._held, self._in_body, self._discarding
        self._held = ""
        self._in_body = False
        self._discarding = False
        self._after_close = False
        self._at_line_start = True
        self._searched = 0
        if discarding:
            return QuoteScan("", (QuoteOutcome("malformed", "too_long"),))
        if in_body:
            return QuoteScan("", (QuoteOutcome("malformed", "unterminated"),))
        return QuoteScan(held)
