"""Drop the trailing source list that models append to an answer, fragment by fragment.

Models end answers with a list such as ``## Sources`` followed by links, although
the server already emits one ``citation`` event per real source: left in, the reader
sees every source twice, and the model's list names sources nobody verified. This
module finds that heading in text split at arbitrary points and drops it and
everything after it.

It deliberately does not look at the list's items, at anchors (``anchors.py``
strips those first) or at headings anywhere but at a real line start, and it never
drops text that comes before the heading.
"""

from __future__ import annotations

from typing import Final

import regex

# Measured before the prompts pinned one heading, these are the headings real answers
# used: "## Sources", "### Sources", "## Most relevant sources", "**Most relevant
# sources**", "## Key sources", "## Top citations", "## Relevant references",
# "**Sources:**". The qualifier set is closed on purpose.
#
# The asymmetry that settles any future widening: a heading this misses costs the
# reader a duplicate list; a line it matches wrongly costs the reader the rest of the
# answer. When in doubt, do not match. So "## Cellular sources" survives ("cellular"
# is not a qualifier) and so does "## Sources of reactive oxygen species" (the last
# word must be the source word).
QUALIFIERS: Final = (
    "most",
    "more",
    "relevant",
    "key",
    "top",
    "main",
    "primary",
    "all",
    "further",
    "additional",
    "related",
    "supporting",
    "complete",
    "full",
    "cited",
    "used",
)
_TITLE: Final = (
    rf"(?:(?:{'|'.join(QUALIFIERS)})[ \t]+){{0,3}}(?:source|reference|citation)s?[ \t]*:?"
)
# A whole line: a markdown heading (one to six "#" then a space) or a bold-only line.
# Trailing blanks and the "\r" of a "\r\n" ending belong to the line.
_HEADING: Final = regex.compile(
    rf"(?:\#{{1,6}}[ \t]+{_TITLE}|\*\*{_TITLE}\*\*:?)[ \t\r]*",
    regex.IGNORECASE,
)

# The longest partial line held back while it could still become a heading. The
# longest heading the pattern accepts with single spaces is under 60 characters; the
# bound leaves room for odd spacing and keeps the lag small. A line longer than this
# is never a heading, whether it arrived whole or a character at a time.
MAX_HELD: Final = 120


def _is_heading(line: str) -> bool:
    return len(line) <= MAX_HELD and _HEADING.fullmatch(line) is not None


def _could_become_heading(partial_line: str) -> bool:
    """True while more characters could still turn this partial line into a heading."""
    if not partial_line:
        return True
    if partial_line[0] not in "#*" or len(partial_line) > MAX_HELD:
        return False
    return _HEADING.fullmatch(partial_line, partial=True) is not None


class SourcesSectionStripper:
    """Feed fragments in, get the answer without its trailing source list; then `flush`.

    A heading is decided only when its line ends (or at `flush`): mid-stream,
    ``## Sources`` would match before `` of reactive oxygen species`` arrives. Until
    then only the partial line that could still become a heading is held, at most
    `MAX_HELD` characters; everything else is released by the same `feed` call.
    """

    def __init__(self) -> None:
        self._held = ""
        # Whether the held text begins at a real line start. Once part of a line has
        # been released, the rest of that line cannot be a heading: a "^" test on the
        # held buffer would match at offset zero whether or not it is a line start,
        # and a bolded "**sources**" mid-sentence would eat the answer.
        self._at_line_start = True
        self._released = 0
        self._dropped_at: int | None = None

    @property
    def released(self) -> int:
        """How many characters have been released so far."""
        return self._released

    @property
    def dropped_at(self) -> int | None:
        """The input offset where the dropped source list began, once one was found."""
        return self._dropped_at

    @property
    def held_chars(self) -> int:
        """How many characters are held back, waiting for their line to be decided."""
        return len(self._held)

    def feed(self, text: str) -> str:
        if self._dropped_at is not None:
            return ""
        if not self._held and not self._at_line_start and "\n" not in text:
            self._released += len(text)
            return text
        return self._scan(self._held + text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        if self._dropped_at is not None:
            return ""
        if self._at_line_start and _is_heading(held):
            self._dropped_at = self._released
            return ""
        self._released += len(held)
        self._at_line_start = held == "" and self._at_line_start
        return held

    def _scan(self, text: str) -> str:
        at_line_start = self._at_line_start
        line_start = 0
        newline = text.find("\n")
        while newline != -1:
            if at_line_start and _is_heading(text[line_start:newline]):
                self._dropped_at = self._released + line_start
                self._held = ""
                return self._release(text[:line_start])
            line_start = newline + 1
            at_line_start = True
            newline = text.find("\n", line_start)
        partial_line = text[line_start:]
        if at_line_start and _could_become_heading(partial_line):
            self._held = partial_line
            self._at_line_start = True
            return self._release(text[:line_start])
        self._held = ""
        self._at_line_start = False
        return self._release(text)

    def _release(self, text: str) -> str:
        self._released += len(text)
        return text
