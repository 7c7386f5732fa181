"""An answer engine that yields exactly the events a contract fixture lists.

The wire-profile tests feed it a fixture's native events, so what the server streams can be
compared with the fixture's encoded events, and its calls are recorded as the counting
double records them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from tests.support.engine_doubles import Call

from citeline.agent import Profile
from citeline.events import Event
from citeline.server.store import ConversationMessage


@dataclass
class ScriptedEngine:
    """Yields ``events`` for every question, recording each call."""

    events: Sequence[Event]
    model_name: str = "scripted double"
    calls: list[Call] = field(default_factory=list)

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        self.calls.append(Call(question, profile, tuple(history)))
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        for event in self.events:
            yield event
