"""Material for MkDocs' code annotations, written into the code as the notes they show.

On a Material page whose theme turns on ``content.code.annotate`` (or in a code block marked
``{ .yaml .annotate }``), a comment in the code holding ``(1)`` marks an annotation, and the
ordered list right after the block holds the notes: the page shows each note in a tooltip at
its marker and hides the list. ``# (1)!`` (the marker followed by ``!``) takes the comment's
own characters away too, so the line shows only the code and the marker. Read as written,
the code kept ``# (1)!`` and the notes became a list whose numbers tied them to nothing.

Here each note is written where its marker stands, as the comment's text: ``database=db,
# (1)!`` and the note "This is the db Motor database instance" read ``database=db,  # This
is the db Motor database instance``. A quoted passage then holds the line and what the page
says of it together, wherever the passage is cut, and the code stays valid in its language
(the note is a comment of it). Written as a numbered list after the code instead, a note
would need its number to be found again in a passage that may not hold the code. A marker
of the plain form (``# Set the port (1)``) keeps its comment, the note in parentheses in the
marker's place.

As Material does: only a marker inside a comment counts (after ``#``, ``//``, ``/*``,
``<!--`` or ``-- ``, as Pygments marks comments, written after a space or at the line's
start), only one that names an item of the list (``(3)`` beside a list of two stays as
written), and of the markers naming one note, the last shows it (the others show an empty
button, so they show nothing here). This module knows nothing of Markdown: the caller finds
the code block, the list and each note's text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# A comment's opener, a block comment's closer, or a marker. A marker's number has at most
# 9 digits: no list holds more items, and Python refuses to read a number of thousands.
_SCAN = re.compile(
    r"(?P<opener>(?:(?<=\s)|^)(?:#|//|/\*|<!--|--(?=\s|$)))"
    r"|(?P<closer>\*/|-->)"
    r"|\((?P<number>\d{1,9})\)(?P<force>!)?"
)
# A block comment's closer: the comment, and so a "(1)!" marker's reach, ends there.
_CLOSERS = {"/*": "*/", "<!--": "-->"}
# A code block's attribute list naming the annotate class: "``` { .yaml .annotate }".
_ANNOTATE_CLASS = re.compile(r"\{[^{}]*(?<![\w-])\.annotate(?![\w-])[^{}]*\}")
# The language a code block names first: "py", "{ .yaml", "{.python": Pygments marks no
# comment in a block of none, so no marker there is found.
_LANGUAGE = re.compile(r"\A\s*(?:\{\s*\.)?[\w#+.-]")


def annotates(info: str, everywhere: bool) -> bool:
    """Whether the code block whose info string is ``info`` may hold annotations: it names a
    language and the theme annotates every block (``everywhere``) or it is marked so."""
    return bool(_LANGUAGE.match(info)) and (everywhere or bool(_ANNOTATE_CLASS.search(info)))


@dataclass(frozen=True, slots=True)
class _Marker:
    """A marker found on one line: the span of it that shows no more (``start``, ``end``)
    and the note it names (from 1); for a ``(1)!`` marker, whose span is the rest of its
    comment (its closer included), the opener and the closer of the comment that the span
    holds."""

    line: int
    start: int
    end: int
    number: int
    force: bool
    opener: str = ""
    closer: str = ""


def annotated(code: str, notes: Sequence[str]) -> tuple[str, set[int]]:
    """``code`` with each marker that names one of ``notes`` (by its place, from 1)
    replaced by that note, and the numbers of the notes written into it."""
    lines = code.split("\n")
    markers = [
        marker
        for number, line in enumerate(lines)
        for marker in _markers(number, line)
        if marker.number <= len(notes)
    ]
    if not markers:
        return code, set()
    shown = {marker.number: marker for marker in markers}  # the last of each number
    for marker in reversed(markers):  # from the right, so spans to the left stay put
        line = lines[marker.line]
        note = " ".join(notes[marker.number - 1].split())
        text = _shown(marker, note if shown[marker.number] is marker else "")
        before = line[: marker.start]
        if not text and marker.end == len(line):
            before = before.rstrip()
        lines[marker.line] = before + text + line[marker.end :]
    return "\n".join(lines), set(shown)


def _shown(marker: _Marker, note: str) -> str:
    """What stands in ``marker``'s span: ``note`` as the comment's text, or nothing."""
    if not note:
        return ""
    if not marker.force:
        return f"({note})"
    opener = marker.opener + " " if marker.opener else " "
    return opener + note + (" " + marker.closer if marker.closer else "")


def _markers(number: int, line: str) -> list[_Marker]:
    """The markers inside comments on ``line`` (the ``number``-th), left to right."""
    found: list[_Marker] = []
    opener: re.Match[str] | None = None  # of the comment the scan is in
    reach = 0  # where the last marker's span ended: a "(1)!" takes the rest of the comment
    for scanned in _SCAN.finditer(line):
        if scanned.group("opener"):
            # The last before a marker opens its comment: "a // b  # (1)!" divides first.
            opener = scanned
        elif scanned.group("closer"):
            if opener is not None and _CLOSERS.get(opener.group()) == scanned.group():
                opener = None
        elif opener is not None and scanned.start() >= reach:
            marker = _marker(number, line, scanned, opener, reach)
            found.append(marker)
            reach = marker.end
    return found


def _marker(
    number: int, line: str, scanned: re.Match[str], opener: re.Match[str], reach: int
) -> _Marker:
    """The marker ``scanned`` in the comment ``opener`` opens; ``reach`` is where the span
    of the marker before it in that comment ended."""
    if not scanned.group("force"):
        return _Marker(number, scanned.start(), scanned.end(), int(scanned["number"]), False)
    # "(1)!": Material replaces the comment's text (what its markers before left of it)
    # with the marker, its characters too; a block comment's span keeps to the comment.
    closer = _CLOSERS.get(opener.group(), "")
    ends = line.find(closer, scanned.end()) if closer else -1
    start = max(opener.start(), reach)
    return _Marker(
        number,
        start,
        ends + len(closer) if ends >= 0 else len(line),
        int(scanned["number"]),
        True,
        opener.group() if start == opener.start() else "",
        closer if ends >= 0 else "",
    )
