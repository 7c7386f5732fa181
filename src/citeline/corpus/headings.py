"""The headings that govern each passage, and the key that says a query names a title.

A passage of a long document rarely contains its section's heading: the heading is above it,
in an earlier passage. ``passage_headings`` gives each passage the Markdown ATX headings in
force at its start (the path: the last heading of each level above it) plus those inside it,
so the index can weigh them as it weighs the title. Lines inside fenced code blocks are not
headings: in the bundled Python sample most ``#`` lines are code comments.

``title_key`` is a title's (or a query's) distinct index terms in a canonical order: a query
whose key equals a section's title key names that section, and search puts it first.

It deliberately knows nothing about storage or ranking weights.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from citeline.corpus.documents import Passage
from citeline.text.index_terms import INDEX, asked_terms

_ATX = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")


def _headings(text: str) -> list[tuple[int, int, str]]:
    """Every ATX heading outside fenced code: (offset, level, heading text), in order."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            fence = opened.group(1)
        else:
            heading = _ATX.match(line.rstrip("\r\n"))
            if heading:
                found.append((offset, len(heading.group(1)), heading.group(2).strip()))
        offset += len(line)
    return found


def passage_headings(text: str, passages: Sequence[Passage]) -> list[str]:
    """For each passage, its heading path at its start and the headings inside it."""
    # An ATX heading needs a "#": most documents (every BEIR abstract) have none, and
    # walking their lines cost 30 ms of SciFact's ingest for nothing.
    if "#" not in text:
        return [""] * len(passages)
    headings = _headings(text)
    result: list[str] = []
    index = 0
    path: dict[int, str] = {}
    for passage in passages:
        while index < len(headings) and headings[index][0] < passage.start:
            _, level, heading = headings[index]
            path = {lvl: h for lvl, h in path.items() if lvl < level}
            path[level] = heading
            index += 1
        inside = [h for offset, _, h in headings[index:] if offset < passage.end]
        result.append(" ".join([*(path[lvl] for lvl in sorted(path)), *inside]))
    return result


def title_key(text: str) -> str:
    """The distinct index terms of ``text``, sorted: equal keys mean the same words."""
    return key_of(INDEX.terms(text))


def key_of(found: Iterable[str]) -> str:
    """``title_key`` of a text whose index terms are ``found``."""
    return " ".join(sorted(set(found)))


def query_title_keys(found: list[str]) -> tuple[str, str]:
    """The keys a query whose terms (``INDEX.terms``) are ``found`` names a title by: all
    its words (a FAQ entry is named by the question it is titled with), and its
    words less the question words, as search reads it ("What does X do?" names the
    reference page titled "X")."""
    return key_of(found), key_of(asked_terms(found))
