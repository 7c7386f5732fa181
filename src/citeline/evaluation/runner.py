"""Runs evaluation questions through an answer engine and scores each answer as it ends.

The engine is any callable from question text to an async iterator of events: the CLI
binds :func:`citeline.answer` to a corpus and a model, so every ``--model`` setting is
evaluated by the same code. This module owns the clock (time to first token, total time)
and the per-answer time bound; it does not know about corpora, models or output formats.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from citeline.evaluation.answers import AnswerCollector, AnswerRecord
from citeline.evaluation.metrics import QuestionScore, score_answer
from citeline.evaluation.questions import EvalQuestion
from citeline.events import Event

AnswerStream = Callable[[str], AsyncIterator[Event]]

# A real provider answers in seconds to tens of seconds; an answer still streaming after
# five minutes is stuck, and one stuck answer must not stall an evaluation of hundreds.
DEFAULT_ANSWER_TIMEOUT_SECONDS: Final = 300.0


@dataclass(frozen=True, slots=True)
class EvaluatedAnswer:
    """One question, the answer it got and that answer's score."""

    question: EvalQuestion
    record: AnswerRecord
    score: QuestionScore


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
    """
    if warm_up and questions:
        await _record_answer(questions[0], answer, timeout_seconds, clock)
    results: list[EvaluatedAnswer] = []
    for question in questions:
        record = await _record_answer(question, answer, timeout_seconds, clock)
        result = EvaluatedAnswer(question, record, score_answer(question, record))
        results.append(result)
        if on_answer is not None:
            on_answer(result)
    return results


async def _record_answer(
    question: EvalQuestion,
    answer: AnswerStream,
    timeout_seconds: float | None,
    clock: Callable[[], float],
) -> AnswerRecord:
    collector = AnswerCollector(question.id, started_at=clock())
    error: str | None = None
    stream = answer(question.question)
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
