"""Answers through the first-token gate: a few at a time up to their first token, the rest
waiting their turn in arrival order, none refused, and a reader who leaves frees a place."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.conversation import Profile
from citeline.events import Done, Event, Start, Token
from citeline.server.admission import FirstTokenGate
from citeline.server.answer_stream import AnswerJob, AnswerRunner, StreamedAnswer
from citeline.server.metrics import ServerMetrics
from citeline.server.store import ConversationMessage


class StepEngine:
    """Works a few loop steps before its first token (as a search and reads do), then says
    the question back in two tokens; logs when each answer starts and reaches its text."""

    model_name = "steps"

    def __init__(self, steps: int = 5) -> None:
        self.log: list[tuple[str, str]] = []
        self._steps = steps

    async def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        yield Start(release=None)
        self.log.append(("start", question))
        for _ in range(self._steps):
            await asyncio.sleep(0)
        self.log.append(("token", question))
        yield Token(question)
        await asyncio.sleep(0)
        self.log.append(("rest", question))
        yield Token(" again")
        yield Done(state="answered", seconds=0.0)


async def _record(answer: StreamedAnswer) -> str:
    return "id"


async def _answer(runner: AnswerRunner, question: str) -> list[Event]:
    job = AnswerJob(question, "search", (), release=None)
    return [event async for event in runner.stream(job, _record)]


@settings(max_examples=30, deadline=None)
@given(slots=st.integers(1, 4), answers=st.integers(1, 12), steps=st.integers(0, 6))
async def test_answers_reach_their_first_token_in_arrival_order_and_all_are_answered(
    slots: int, answers: int, steps: int
) -> None:
    engine = StepEngine(steps)
    runner = AnswerRunner(
        engine, timeout_seconds=10, metrics=ServerMetrics(), first_token_gate=FirstTokenGate(slots)
    )
    questions = [f"q{n}" for n in range(answers)]
    results = await asyncio.gather(*(_answer(runner, q) for q in questions))
    assert all(isinstance(events[-1], Done) for events in results)
    assert all(events[-1].state == "answered" for events in results if isinstance(events[-1], Done))
    assert [q for what, q in engine.log if what == "token"] == questions
    # Never more than ``slots`` answers between their start and their first token.
    working = 0
    for what, _ in engine.log:
        if what != "rest":
            working += 1 if what == "start" else -1
        assert working <= slots
    # An answer's rest waits while any other is before its first token (waiting for a slot
    # or holding one): before any rest is written, every answer has its first text.
    rests = [n for n, (what, _) in enumerate(engine.log) if what == "rest"]
    tokens_before = sum(1 for what, _ in engine.log[: rests[0]] if what == "token")
    assert tokens_before == answers


async def test_the_gate_is_busy_while_an_answer_holds_a_place_with_nobody_waiting() -> None:
    gate = FirstTokenGate(2)
    assert not gate.busy
    await gate.enter()
    assert gate.busy and gate.waiting == 0
    idle = asyncio.create_task(gate.idle())
    await asyncio.sleep(0)
    assert not idle.done()
    gate.leave()
    await asyncio.wait_for(idle, 1)
    assert not gate.busy


async def test_a_reader_who_leaves_the_queue_leaves_the_gate_busy_while_others_hold() -> None:
    gate = FirstTokenGate(1)
    await gate.enter()
    leaving = asyncio.create_task(gate.enter())
    await asyncio.sleep(0)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert gate.busy
    gate.leave()
    assert not gate.busy


async def test_without_a_gate_answers_run_side_by_side() -> None:
    engine = StepEngine()
    runner = AnswerRunner(engine, timeout_seconds=10, metrics=ServerMetrics())
    await asyncio.gather(*(_answer(runner, f"q{n}") for n in range(3)))
    assert [what for what, _ in engine.log[:3]] == ["start"] * 3


async def _one_place_held_and_two_waiting() -> tuple[
    FirstTokenGate, asyncio.Task[None], asyncio.Task[None]
]:
    """A gate of one place, held, and two readers waiting for it in turn."""
    gate = FirstTokenGate(1)
    await gate.enter()
    first = asyncio.create_task(gate.enter())
    second = asyncio.create_task(gate.enter())
    await asyncio.sleep(0)
    return gate, first, second


async def test_a_reader_who_leaves_while_waiting_gives_the_next_one_its_turn() -> None:
    gate, leaving, staying = await _one_place_held_and_two_waiting()
    assert gate.waiting == 2
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    gate.leave()
    await asyncio.wait_for(staying, 1)
    assert gate.waiting == 0


async def test_a_place_handed_to_a_reader_cancelled_in_that_instant_goes_to_the_next() -> None:
    gate, first, second = await _one_place_held_and_two_waiting()
    gate.leave()  # the place is handed to ``first`` ...
    first.cancel()  # ... which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await first
    await asyncio.wait_for(second, 1)


async def test_a_reader_cancelled_just_before_a_place_is_given_back_leaves_quietly() -> None:
    gate, leaving, staying = await _one_place_held_and_two_waiting()
    leaving.cancel()  # its wait is cancelled, but it has not run since ...
    gate.leave()  # ... when the place is given back past it, to the next in line
    with pytest.raises(asyncio.CancelledError):
        await leaving
    await asyncio.wait_for(staying, 1)
    assert gate.waiting == 0 and gate.busy
    gate.leave()
    assert not gate.busy


_STEPS = st.lists(
    st.tuples(st.sampled_from(["enter", "cancel", "leave", "step"]), st.integers(0, 9)),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(slots=st.integers(1, 3), steps=_STEPS)
def test_no_order_of_arrivals_cancellations_and_departures_breaks_the_gate(
    slots: int, steps: list[tuple[str, int]]
) -> None:
    asyncio.run(_play(slots, steps))


async def _play(slots: int, steps: list[tuple[str, int]]) -> None:
    """Readers arrive, are cancelled and leave in ``steps``' order, with loop steps between:
    never more than ``slots`` hold a place, no reader's wait ends in anything but a place or
    its cancellation, and once all are gone the gate is idle."""
    gate = FirstTokenGate(slots)
    readers: list[asyncio.Task[None]] = []
    gone: set[asyncio.Task[None]] = set()

    def holding() -> list[asyncio.Task[None]]:
        """The readers that hold a place: their wait ended in one and they have not left."""
        return [
            r
            for r in readers
            if r.done() and not r.cancelled() and r.exception() is None and r not in gone
        ]

    for step, number in steps:
        if step == "enter":
            readers.append(asyncio.create_task(gate.enter()))
        elif step == "cancel":
            waiting = [r for r in readers if not r.done()]
            if waiting:
                waiting[number % len(waiting)].cancel()
        elif step == "leave":
            held = holding()
            if held:
                gone.add(held[number % len(held)])
                gate.leave()
        else:
            await asyncio.sleep(0)
        assert len(holding()) <= slots
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for reader in readers:
        assert reader.cancelled() or reader.exception() is None
    for _ in holding():
        gate.leave()
    assert gate.waiting == 0 and not gate.busy


async def test_an_answer_that_fails_before_its_first_token_frees_its_place() -> None:
    class Failing(StepEngine):
        async def answer(
            self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
        ) -> AsyncIterator[Event]:
            yield Start(release=None)
            raise RuntimeError("the corpus went away")

    gate = FirstTokenGate(1)
    runner = AnswerRunner(
        Failing(), timeout_seconds=10, metrics=ServerMetrics(), first_token_gate=gate
    )
    for question in ("a", "b"):
        events = await asyncio.wait_for(_answer(runner, question), 2)
        assert isinstance(events[-1], Done) and events[-1].state == "failed"
    await asyncio.wait_for(gate.enter(), 1)


def test_a_gate_without_a_place_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one slot"):
        FirstTokenGate(0)
