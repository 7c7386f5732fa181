"""The citation request: a reminder to cite, riding on the first eligible tool result of a turn.

Models forget to cite. Rather than repeating the rule after every tool call (which
costs tokens and trains the model to skim it), the reminder joins exactly one
result per user turn: the first that needs citing and did not fail. The words are
``prompts/citation-request.md``; the rule is pinned as data in
``contracts/fixtures/citation-request.json``. This module does not know which
tools exist: the caller says whether a result is eligible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from citeline.agent.prompts import load_prompt
from citeline.models import ToolReply, TurnContent


class CitationRequest:
    """A once-per-user-turn flag and the reminder text. One per answer, never shared."""

    def __init__(self, reminder: str) -> None:
        self.reminder = reminder
        self._spent = False

    @classmethod
    def from_prompt(cls) -> CitationRequest:
        return cls(load_prompt("citation-request"))

    @property
    def spent(self) -> bool:
        return self._spent

    def reset(self) -> None:
        """A new user turn: the next eligible result carries the reminder again."""
        self._spent = False

    def add(self, reply: ToolReply, *, eligible: bool) -> ToolReply:
        """``reply``, with the reminder joined when it is this turn's first eligible success.

        A failed result passes through unspent: the model is sent its error, not its
        value, so a reminder joined there would never arrive.
        """
        if reply.error is not None or not eligible or self._spent:
            return reply
        self._spent = True
        return replace(reply, value=join_reminder(reply.value, self.reminder))


def join_reminder(value: object, reminder: str) -> object:
    """A string gets the reminder after a blank line; a list of parts gets one more text part;
    anything else becomes a two-part list, the value kept whole as the first part."""
    if isinstance(value, str):
        return f"{value}\n\n{reminder}"
    if isinstance(value, list):
        return [*value, reminder]
    return [value, reminder]


def turn_has_user_message(turn: Sequence[TurnContent]) -> bool:
    """Whether a model request starts a new user turn.

    A request holding anything but tool results carries the user's words; one of
    only tool results is the same question still running.
    """
    return any(content != "tool_result" for content in turn)
