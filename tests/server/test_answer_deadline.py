"""The answer's deadline holds however the engine behaves."""

from __future__ import annotations

import asyncio

from tests.support.engine_doubles import EndlessEngine, SlowEngine

from citeline.events import Done
from citeline.server.answer_stream import AnswerJob, AnswerRunner, StreamedAnswer
from citeline.server.metrics import ServerMetrics


async def test_an_engine_that_never_pauses_is_still_stopped_at_the_deadline() -> None:
    # Each of its events wakes the stream's wait before the deadline's cancellation lands,
    # or is already queued when the stream reads: the clock must be read after each one.
    engine = EndlessEngine()
    runner = AnswerRunner(engine, timeout_seconds=0.2, metrics=ServerMetrics())

    async def record(answer: StreamedAnswer) -> str:
        raise AssertionError("a timed-out answer is never stored")

    async with asyncio.timeout(10):  # a regression runs on forever: fail it instead
        events = [e async for e in runner.stream(AnswerJob("q", "search", (), None), record)]
    assert isinstance(events[-1], Done) and events[-1].state == "failed"
    assert engine.stopped
    assert runner.running == 0


async def test_a_silent_engine_is_stopped_at_the_deadline_while_the_stream_waits() -> None:
    # The stream waits on an empty queue here; one timer per answer must wake it.
    engine = SlowEngine()
    runner = AnswerRunner(engine, timeout_seconds=0.2, metrics=ServerMetrics())

    async def record(answer: StreamedAnswer) -> str:
        raise AssertionError("a timed-out answer is never stored")

    async with asyncio.timeout(10):
        events = [e async for e in runner.stream(AnswerJob("q", "search", (), None), record)]
    assert [type(e).__name__ for e in events] == ["Start", "Token", "Done"]
    assert isinstance(events[-1], Done) and events[-1].state == "failed"
    assert engine.cancelled_at is not None
    assert runner.running == 0
