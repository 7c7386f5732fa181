"""Runs evaluation questions through an answer engine and scores each answer as it ends.

The engine is any callable from a question and the conversation so far to an async
iterator of events: the CLI binds :func:`citeline.answer` to a corpus, data and a model,
so every ``--model`` setting is evaluated by the same code. A question with ``history`` is
asked in its conversation, as a chat asks it: each earlier question is answered in turn,
and the follow-up is asked with every earlier question and answer before it. This module
owns the clock (time to first token, total time) and the per-answer time bound; it does
not know about corpora, models or output formats.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from citeline.evaluation.answers import AnswerCollector, ObservedAnswer
from citeline.evaluation.metrics import QuestionScore, score_answer
from citeline.evaluation.questions import EvalQuestion
from citeline.events import Event
from citeline.models import ChatMessage

# The question, then the conversation before it (empty for a question that opens one).
AnswerStream = Callable[[str, Sequence[ChatMessage]], AsyncIterator[Event]]

# A real provider answers in seconds to tens of seconds; an answer still streaming after
# five minutes is stuck, and one stuck answer must not stall an evaluation of hundreds.
DEFAULT_ANSWER_TIMEOUT_SECONDS: Final = 300.0


@dataclass(frozen=True, slots=True)
class EvaluatedAnswer:
    """One question, the answer it got and that answer's score.

    ``conversation`` is what the answer was asked after: the earlier questions and the
    answers they got in this run, as :class:`ChatMessage` values; empty for most questions.
    """

    question: EvalQuestion
    record: ObservedAnswer
    score: QuestionScore
    conversation: tuple[ChatMessage, ...] = ()


async def evaluate_answers(
    questions: Sequence[EvalQuestion],
    answer: AnswerStream,
    *,
    on_answer: Callable[[EvaluatedAnswer], None] | None = None,
    warm_up: bool = False,
    timeout_seconds: float | None = DEFAULT_ANSWER_TIMEOUT_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
) -> list[EvaluatedAnswer]:
    """Ask each question in turn and score its answer; ``on_answer`` hears each as it ends.

    Questions run one at a time on purpose: concurrent answers would make time to first
    token measure contention between them rather than the engine. An answer whose stream
    raises or overruns ``timeout_seconds`` is recorded as ``failed`` with the reason, and
    the evaluation goes on. With ``warm_up``, the first question is asked once more before
    the run, unscored and untimed: a process's first answer pays one-time costs (measured
    with the embedded model over SciFact: 2 to 3.5 s to the first token of the first
    answer, about 70 ms for the answers after it), which belong to start-up, not answering.

    A question with ``history`` first has its earlier questions answered, unscored, each
    with the conversation before it; only the follow-up is timed and scored. An earlier
    answer that failed stays in the conversation with whatever text it streamed, as a chat
    keeps it.
    """
    if warm_up and questions:
        first = questions[0]
        await _record_answer(first.id, first.question, (), answer, timeout_seconds, clock)
    results: list[EvaluatedAnswer] = []
    for question in questions:
        conversation = await _conversation(question, answer, timeout_seconds, clock)
        record = await _record_answer(
            question.id, question.question, conversation, answer, timeout_seconds, clock
        )
        result = EvaluatedAnswer(question, record, score_answer(question, record), conversation)
        results.append(result)
        if on_answer is not None:
            on_answer(result)
    return results


async def _conversation(
    question: EvalQuestion,
    answer: AnswerStream,
    timeout_seconds: float | None,
    clock: Callable[[], float],
) -> tuple[ChatMessage, ...]:
    """The earlier questions of ``question``'s conversation, each with the answer it got."""
    messages: list[ChatMessage] = []
    for earlier in question.history:
        reply = await _record_answer(
            question.id, earlier, tuple(messages), answer, timeout_seconds, clock
        )
        messages.append(ChatMessage(role="user", text=earlier))
        messages.append(ChatMessage(role="assistant", text=reply.text))
    return tuple(messages)


async def _record_answer(
    question_id: str,
    text: str,
    conversation: tuple[ChatMessage, ...],
    answer: AnswerStream,
    timeout_seconds: float | None,
    clock: Callable[[], float],
) -> ObservedAnswer:
    collector = AnswerCollector(question_id, started_at=clock())
    error: str | None = None
    stream = answer(text, conversation)
    try:
        async with asyncio.timeout(timeout_seconds):
            async for event in stream:
                collector.add(event, clock())
    except TimeoutError:
        error = f"no done event within {timeout_seconds:g} seconds"
    except Exception as failure:  # the engine's contract is done{failed}; record any breach
        error = f"{type(failure).__name__}: {failure}"
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
    return collector.finish(clock(), error=error)
