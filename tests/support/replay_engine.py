"""An answer engine that replays a real answer's events and can hold still between two.

The browser tests use it where they must look at the page at one exact moment of a
stream (just before and just after a chip arrives; mid-answer for the screenshot):
the events are recorded from the real embedded model first, so what the page shows is
a real answer, only paused. The test releases each hold when it has looked.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from citeline.agent import Profile
from citeline.events import Event
from citeline.server.store import ConversationMessage

# A hold the test never releases ends here, so a failing test cannot hang the run.
HOLD_LIMIT_SECONDS = 60.0


@dataclass
class ReplayEngine:
    """Yields ``events``; before each index in ``holds`` it waits for ``release()``."""

    events: Sequence[Event]
    holds: frozenset[int]
    model_name: str
    _holding: threading.Event = field(default_factory=threading.Event)
    _released: threading.Event = field(default_factory=threading.Event)

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        return self._replay()

    async def _replay(self) -> AsyncIterator[Event]:
        for index, event in enumerate(self.events):
            if index in self.holds:
                self._released.clear()
                self._holding.set()
                # The server's loop runs in another thread than the test: poll, so the
                # loop stays free to flush what was already sent.
                waited = 0.0
                while not self._released.is_set() and waited < HOLD_LIMIT_SECONDS:
                    await asyncio.sleep(0.01)
                    waited += 0.01
            yield event

    def wait_until_holding(self, timeout: float = 20.0) -> None:
        if not self._holding.wait(timeout):
            raise AssertionError("the replayed answer never reached its hold")

    def release(self) -> None:
        """Let the replay go on to its next hold (cleared first, so a wait sees the next)."""
        self._holding.clear()
        self._released.set()
