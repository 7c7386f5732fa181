"""The runner's bookkeeping: clock readings, broken streams, timeouts, the answer callback.

These streams are scripted on purpose: each one is a stream the answer engine must never
produce (one that raises, one that hangs) or one whose timing must be exact. The real
engine runs in ``test_eval_command.py``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

from citeline.evaluation import EvalQuestion, EvaluatedAnswer, evaluate_answers
from citeline.events import Citation, Done, Event, Start, Token

QUESTIONS = [EvalQuestion("q1", "first", gold_ids=("a",)), EvalQuestion("q2", "second")]


def ticking_clock() -> itertools.count[float]:
    return itertools.count(start=0.0, step=1.0)


async def cited_answer(question: str) -> AsyncIterator[Event]:
    yield Start()
    yield Token(f"About {question}.")
    yield Citation(n=1, display_name="A", id="a", start=0, end=5)
    yield Done("answered")


async def test_each_answer_is_timed_by_the_clock_and_scored() -> None:
    clock = ticking_clock()
    results = await evaluate_answers(QUESTIONS[:1], cited_answer, clock=lambda: next(clock))
    [result] = results
    # Readings: 0 asked, 1 start, 2 token, 3 citation, 4 done, 5 finished.
    assert result.record.first_token_seconds == 2.0
    assert result.record.total_seconds == 5.0
    assert result.record.text == "About first."
    assert (result.score.precision, result.score.recall) == (1.0, 1.0)


async def test_a_stream_that_raises_is_recorded_as_failed_and_the_run_goes_on() -> None:
    async def breaks_once(question: str) -> AsyncIterator[Event]:
        yield Start()
        if question == "first":
            raise RuntimeError("provider went away")
        yield Done("answered")

    results = await evaluate_answers(QUESTIONS, breaks_once)
    assert [r.record.state for r in results] == ["failed", "answered"]
    assert results[0].record.error == "RuntimeError: provider went away"


async def test_a_stream_that_hangs_is_cut_off_and_closed() -> None:
    closed = asyncio.Event()

    async def hangs(question: str) -> AsyncIterator[Event]:
        try:
            yield Token("Thinking")
            await asyncio.sleep(3600)
            yield Done("answered")
        finally:
            closed.set()

    [result] = await evaluate_answers(QUESTIONS[:1], hangs, timeout_seconds=0.01)
    assert result.record.state == "failed"
    assert result.record.error == "no done event within 0.01 seconds"
    assert result.record.text == "Thinking"
    assert closed.is_set()


async def test_every_answer_is_reported_as_it_ends() -> None:
    heard: list[EvaluatedAnswer] = []
    results = await evaluate_answers(QUESTIONS, cited_answer, on_answer=heard.append)
    assert [r.question.id for r in heard] == ["q1", "q2"]
    assert heard == results


async def test_a_warm_up_asks_the_first_question_once_more_unscored() -> None:
    asked: list[str] = []

    async def recording(question: str) -> AsyncIterator[Event]:
        asked.append(question)
        async for event in cited_answer(question):
            yield event

    results = await evaluate_answers(QUESTIONS, recording, warm_up=True)
    assert asked == ["first", "first", "second"]
    assert [r.question.id for r in results] == ["q1", "q2"]
