"""The runner's bookkeeping: clock readings, broken streams, timeouts, the answer callback.

These streams are scripted on purpose: each one is a stream the answer engine must never
produce (one that raises, one that hangs) or one whose timing must be exact. The real
engine runs in ``test_eval_command.py``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence

from citeline.evaluation import EvalQuestion, EvaluatedAnswer, evaluate_answers
from citeline.events import Citation, Done, Event, Start, Token
from citeline.models import ChatMessage

QUESTIONS = [EvalQuestion("q1", "first", gold_ids=("a",)), EvalQuestion("q2", "second")]


def ticking_clock() -> itertools.count[float]:
    return itertools.count(start=0.0, step=1.0)


async def cited_answer(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
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
    async def breaks_once(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
        yield Start()
        if question == "first":
            raise RuntimeError("provider went away")
        yield Done("answered")

    results = await evaluate_answers(QUESTIONS, breaks_once)
    assert [r.record.state for r in results] == ["failed", "answered"]
    assert results[0].record.error == "RuntimeError: provider went away"


async def test_a_stream_that_hangs_is_cut_off_and_closed() -> None:
    closed = asyncio.Event()

    async def hangs(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
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

    async def recording(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
        asked.append(question)
        async for event in cited_answer(question, history):
            yield event

    results = await evaluate_answers(QUESTIONS, recording, warm_up=True)
    assert asked == ["first", "first", "second"]
    assert [r.question.id for r in results] == ["q1", "q2"]


async def test_a_follow_up_is_asked_after_its_earlier_questions_with_their_answers() -> None:
    asked: list[tuple[str, tuple[ChatMessage, ...]]] = []

    async def recording(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
        asked.append((question, tuple(history)))
        async for event in cited_answer(question, history):
            yield event

    follow_up = EvalQuestion(
        "f1", "which one is faster?", gold_ids=("a",), history=("list or tuple?", "and sets?")
    )
    [result] = await evaluate_answers([follow_up], recording)
    opening = ChatMessage(role="user", text="list or tuple?")
    opening_answer = ChatMessage(role="assistant", text="About list or tuple?.")
    second = ChatMessage(role="user", text="and sets?")
    second_answer = ChatMessage(role="assistant", text="About and sets?.")
    assert asked == [
        ("list or tuple?", ()),
        ("and sets?", (opening, opening_answer)),
        ("which one is faster?", (opening, opening_answer, second, second_answer)),
    ]
    # Only the follow-up is scored; the conversation it was asked in is kept with it.
    assert result.record.text == "About which one is faster?."
    assert result.conversation == (opening, opening_answer, second, second_answer)


async def test_a_failed_earlier_answer_stays_in_the_conversation_with_what_it_said() -> None:
    histories: list[tuple[ChatMessage, ...]] = []

    async def first_breaks(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
        histories.append(tuple(history))
        yield Token(f"Partly {question}")
        if not history:
            raise RuntimeError("provider went away")
        yield Done("answered")

    follow_up = EvalQuestion("f1", "why?", history=("what?",))
    [result] = await evaluate_answers([follow_up], first_breaks)
    assert histories[-1][-1] == ChatMessage(role="assistant", text="Partly what?")
    assert result.record.state == "answered"
