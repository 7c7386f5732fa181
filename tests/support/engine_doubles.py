"""Answer engines for the server's tests: one that counts its calls, slow ones, broken ones.

They stand in for ``citeline.answer`` behind the ``AnswerEngine`` interface, so the
contract tests can count model calls (every refusal must leave the count at zero) and
hold an answer open for as long as a hang-up or timeout test needs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from citeline.agent import Profile
from citeline.events import Citation, Done, Event, Start, Token
from citeline.server.store import ConversationMessage


@dataclass(frozen=True)
class Call:
    question: str
    profile: Profile
    history: tuple[ConversationMessage, ...]


# Fragments chosen to hold what a reader's page must render: markdown, a citation whose
# offsets point into the concatenated text, one by id and one by url.
ANSWER_TOKENS = ("Apoptosis is ", "programmed cell death", " [1]; see also *the review*.")
ANSWER_CITATIONS = (
    Citation(n=1, display_name="programmed cell death", id="R-HSA-109581", start=13, end=34),
    Citation(n=2, display_name="the review", url="https://example.org/review"),
)


@dataclass
class CountingEngine:
    """Answers every question with the same cited answer and records each call."""

    model_name: str = "counting double"
    calls: list[Call] = field(default_factory=list)
    state: str = "answered"

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        self.calls.append(Call(question, profile, tuple(history)))
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        yield Start(release="engine's own release, which the server replaces")
        if self.state == "answered":
            for text in ANSWER_TOKENS:
                yield Token(text)
            for citation in ANSWER_CITATIONS:
                yield citation
        yield Done(state=self.state, seconds=9.9, provenance="sourced")  # type: ignore[arg-type]


@dataclass
class SlowEngine:
    """Sends one token, then waits far longer than any test, noting when it is cancelled."""

    model_name: str = "slow double"
    calls: int = 0
    cancelled_at: float | None = None
    finished_at: float | None = None

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        self.calls += 1
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        try:
            yield Start()
            yield Token("The first words of an answer that")
            await asyncio.sleep(3600)
            yield Done(state="answered")
        except asyncio.CancelledError:
            self.cancelled_at = time.monotonic()
            raise
        finally:
            self.finished_at = time.monotonic()


@dataclass
class RaisingEngine:
    """Sends one token, then raises, as a broken upstream or a bug would."""

    model_name: str = "raising double"

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        yield Start()
        yield Token("Half an ")
        raise RuntimeError("the upstream model closed the connection")


@dataclass
class EndlessEngine:
    """Writes forever, as a model with no token limit was measured to (10 MB and counting),
    noting whether it was stopped."""

    model_name: str = "endless double"
    stopped: bool = False

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        try:
            yield Start()
            while True:
                yield Token("All work and no play. " * 3)
                await asyncio.sleep(0)
        finally:
            self.stopped = True
