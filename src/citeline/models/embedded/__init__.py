"""The embedded model: an offline, deterministic, extractive writer that runs the real tool loop.

One folder, apart from the real providers' plumbing: ``model`` (the turn: search, read,
answer or say nothing was found), ``ranking`` and ``passages`` (which section and which run of
it answers, as fitted weights over features), ``tuning`` (every tunable, and the weights file
beside it), ``terms`` (the words every choice compares), ``session`` (the model in citeline's
tool loop) and the data path (``data``, ``data_intent``, ``data_facts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from citeline.models.embedded.model import (
    FRAGMENT_CHARS,
    NO_TOOLS,
    NOTHING_FOUND,
    TOOLS_FAILED,
    SourceText,
    ToolOutcome,
    ToolRequest,
    TurnView,
    next_step,
    stream_fragments,
    write_answer,
)
from citeline.models.embedded.ranking import follow_up_query as _follow_up_query
from citeline.models.embedded.tuning import current_tuning
from citeline.text.answer_terms import content_terms


def follow_up_query(question: str, earlier: Sequence[str]) -> str:
    """The search query the embedded model asks for ``question`` after the earlier user
    questions ``earlier`` (oldest first): the question and the recent questions' subject
    words it does not name (``ranking.follow_up_query``, with the tuning in force)."""
    return _follow_up_query(question, earlier, current_tuning())


__all__ = [
    "FRAGMENT_CHARS",
    "NOTHING_FOUND",
    "NO_TOOLS",
    "TOOLS_FAILED",
    "SourceText",
    "ToolOutcome",
    "ToolRequest",
    "TurnView",
    "content_terms",
    "follow_up_query",
    "next_step",
    "stream_fragments",
    "write_answer",
]
