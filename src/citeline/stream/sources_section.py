"""Drop the trailing source list that models append to an answer, fragment by fragment.

Models end answers with a list such as ``## Sources`` followed by links, although
the server already emits one ``citation`` event per real source: left in, the reader
sees every source twice, and the model's list names sources nobody verified. This
module finds that heading in text split at arbitrary points and drops it and
everything after it.

Lines end where CommonMark ends them (LF, CR or both), so ``## Sources`` ended by a lone CR
is a heading. It deliberately does not look at the list's items, at anchors (``anchors.py``
strips those first) or at headings anywhere but at a real line start, and it never
drops text that comes before the heading.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import regex

from citeline.stream.code_fences import CodeFences, has_line_end
from citeline.stream.lookalikes import fold_lookalikes

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
_TITLE: Final = rf"(?:(?:{'|'.join(QUALIFIERS)})[ \t]+){{0,3}}(?:source|reference|citation)s?"
# Punctuation may follow the title ("Sources:", "Sources.", "Sources —", "Sources ##"):
# never a letter or a digit. The strict rule keeps "*" for its bold markers.
_PUNCT: Final = r"(?:(?!\*)\p{P})"
_STRICT: Final = regex.compile(
    rf"(?:\#{{1,6}}[ \t]+{_TITLE}[ \t]*(?:{_PUNCT}[ \t]*)*"
    rf"|\*\*{_TITLE}[ \t]*(?:{_PUNCT}[ \t]*)*\*\*[ \t]*(?:{_PUNCT}[ \t]*)*)\r?",
    regex.IGNORECASE,
)
# Measured against upstream's rule (issue 15), four shapes reached readers as duplicate
# lists: an indented heading, an unclosed "**Sources", "** Sources **" and
# "## Sources**". The tolerant rule takes them too: up to three blanks (four make a code
# block), an optional "**" inside a "#" heading, and blanks, "*" and punctuation in any
# order after the title. The strict rule (the native contract) keeps them, as it always
# has: a site whose readers saw upstream's behaviour chooses the tolerant one.
_TOLERANT: Final = regex.compile(
    rf"[ ]{{0,3}}(?:\#{{1,6}}[ \t]+(?:\*\*[ \t]*)?|\*\*[ \t]*){_TITLE}[ \t*\p{{P}}]*\r?",
    regex.IGNORECASE,
)
# A line ends at LF, CR, or the two together, as CommonMark ends one; a CR split from its LF
# ends a line, and the LF then ends an empty one, which is never a heading.
_LINE_END: Final = regex.compile(r"\r\n|\r|\n")
HeadingRule: TypeAlias = Literal["strict", "tolerant"]
_RULES: Final[dict[str, regex.Pattern[str]]] = {"strict": _STRICT, "tolerant": _TOLERANT}

# The longest heading the pattern accepts with single blanks is under 60 characters
# once folded; a line longer than this, folded, is never a heading. The bound leaves room
# for odd spacing and keeps the lag small.
MAX_HEADING: Final = 120
# The most a partial line is held, as written: invisible characters fold to nothing, so a
# heading padded with zero-width spaces is longer written than folded (a probe padded
# "## Sources" past 120 characters and escaped). Past this, a line is released as prose.
MAX_HELD: Final = 1024


def _is_heading(line: str, rule: regex.Pattern[str]) -> bool:
    if len(line) > MAX_HELD:
        return False
    folded = fold_lookalikes(line)
    return len(folded) <= MAX_HEADING and rule.fullmatch(folded) is not None


def _could_become_heading(partial_line: str, rule: regex.Pattern[str]) -> bool:
    """True while more characters could still turn this partial line into a heading."""
    if not partial_line:
        return True
    first = partial_line[0]
    # Most lines start with an ASCII letter or digit, which no folding turns into a blank,
    # "#" or "*": decided without folding.
    if (first.isascii() and first not in " #*") or len(partial_line) > MAX_HELD:
        return False
    folded = fold_lookalikes(partial_line)
    return len(folded) <= MAX_HEADING and (rule.fullmatch(folded, partial=True) is not None)


class SourcesSectionStripper:
    """Feed fragments in, get the answer without its trailing source list; then `flush`.

    A heading is decided only when its line ends (or at `flush`): mid-stream,
    ``## Sources`` would match before `` of reactive oxygen species`` arrives. Until
    then only the partial line that could still become a heading is held, at most
    `MAX_HELD` characters; everything else is released by the same `feed` call. A line
    inside a fenced code block is code (a ``# References`` comment), never a heading.
    """

    def __init__(self, rule: HeadingRule = "strict") -> None:
        self._rule = _RULES[rule]
        self._held = ""
        # Whether the held text begins at a real line start. Once part of a line has
        # been released, the rest of that line cannot be a heading: a "^" test on the
        # held buffer would match at offset zero whether or not it is a line start,
        # and a bolded "**sources**" mid-sentence would eat the answer.
        self._at_line_start = True
        self._released = 0
        self._dropped_at: int | None = None
        # Fed everything released, so at a line start it knows whether that line is code.
        self._fences = CodeFences()

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
        if not self._held and not self._at_line_start and not has_line_end(text):
            # _release written out: this runs for nearly every fragment.
            self._released += len(text)
            if not self._fences.settled:
                self._fences.feed(text)
            return text
        return self._scan(self._held + text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        if self._dropped_at is not None:
            return ""
        if self._at_line_start and not self._fences.inside and _is_heading(held, self._rule):
            self._dropped_at = self._released
            return ""
        self._at_line_start = held == "" and self._at_line_start
        return self._release(held)

    def _scan(self, text: str) -> str:
        at_line_start = self._at_line_start
        line_start = 0
        out: list[str] = []
        for newline in _LINE_END.finditer(text):
            if (
                at_line_start
                and not self._fences.inside
                and _is_heading(text[line_start : newline.start()], self._rule)
            ):
                self._dropped_at = self._released
                self._held = ""
                return "".join(out)
            out.append(self._release(text[line_start : newline.end()]))
            line_start = newline.end()
            at_line_start = True
        partial_line = text[line_start:]
        if (
            at_line_start
            and not self._fences.inside
            and _could_become_heading(partial_line, self._rule)
        ):
            self._held = partial_line
            self._at_line_start = True
            return "".join(out)
        self._held = ""
        self._at_line_start = not partial_line and at_line_start
        out.append(self._release(partial_line))
        return "".join(out)

    def _release(self, text: str) -> str:
        self._released += len(text)
        if not self._fences.settled or has_line_end(text):
            self._fences.feed(text)
        return text
