"""One admitted answer as a stream of events: its deadline, its caller hanging up, its record.

The engine runs in a task of its own that feeds a bounded queue, and the stream reads
that queue under the answer's deadline. The split is what makes both endings clean: a
timeout cancels the engine's task without touching the caller's connection, and a caller
who hangs up (Starlette cancels the stream, or closes it after a failed send) cancels
the engine's task and waits for it to finish, so no model call outlives its reader.

What reaches the caller: the server's own ``start`` first (the engine's is dropped, so
``release`` and ``conversation_id`` are the server's), every ``token`` and ``citation``
as the engine decided them (up to the answer's character cap, where the answer ends
``answered`` with the text so far), and exactly one ``done``: the engine's as it decided it
(state, provenance, and whether anything was found are the engine's alone), given only what
the server owns, ``seconds`` timed from admission and an ``answer_id`` once it is stored.
Deliberately not here: the guard (refusals never reach this module), HTTP and SSE
encoding, which store is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeAlias

import anyio

from citeline.conversation import Profile
from citeline.events import Citation, Done, Event, Start, Token
from citeline.server.admission import FirstTokenGate
from citeline.server.answer_engine import AnswerEngine
from citeline.server.metrics import ServerMetrics
from citeline.server.store import ConversationMessage

logger = logging.getLogger("citeline.server.answers")

# Events the engine may run ahead of a slow reader; past that it waits, so a stalled
# connection holds at most this many events in memory instead of a whole answer.
_QUEUE_BOUND = 64
# How long a cancelled engine gets to unwind (close its HTTP call to the model) before
# the stream stops waiting; the hang-up contract is cancellation within one second.
_STOP_GRACE_SECONDS = 0.5
# How long, in all, an answer past its first token lets answers still before theirs go first
# (``admission``): 200 at once on two processes wait about half a second for their turn;
# the bound keeps a steady stream of new answers from holding the rest back.
_REST_DEFERRAL_SECONDS = 2.0
# The default engine enforces the same timeout itself, so it can flush the text its
# pipeline held; this margin lets it end first, and the stream's own deadline stays the
# backstop for an engine that ignores the timeout.
_ENGINE_FIRST_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class AnswerJob:
    """What to answer, and what the stream's ``start`` event says."""

    question: str
    profile: Profile
    history: Sequence[ConversationMessage]
    release: str | None
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class StreamedAnswer:
    """An answered answer exactly as the caller received it."""

    question: str
    text: str
    citations: tuple[Citation, ...]


# Stores a finished answer and returns its id.
RecordAnswer = Callable[[StreamedAnswer], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class _DeadlinePassed:
    """The answer's deadline came while the stream waited for the engine."""


def _wake_at_deadline(queue: _Queue) -> None:
    # A full queue means the stream is not waiting: it reads the clock after each event.
    with contextlib.suppress(asyncio.QueueFull):
        queue.put_nowait(_DeadlinePassed())


@dataclass(frozen=True, slots=True)
class _EngineEnded:
    """The engine stopped without a ``done``: by raising ``error``, or by running dry."""

    error: Exception | None


# What the engine's task hands the stream.
_Queue: TypeAlias = "asyncio.Queue[Event | _EngineEnded | _DeadlinePassed]"


@dataclass(slots=True)
class _Progress:
    """What one answer has streamed so far, and whether its last event has gone."""

    started: float
    text: list[str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    tokens: int = 0
    chars: int = 0
    ended: bool = False


class AnswerRunner:
    """Runs admitted answers on one engine under one timeout, counting them in ``metrics``."""

    def __init__(
        self,
        engine: AnswerEngine,
        *,
        timeout_seconds: float,
        metrics: ServerMetrics,
        max_chars: int | None = None,
        first_token_gate: FirstTokenGate | None = None,
    ) -> None:
        self._engine = engine
        self._gate = first_token_gate
        self._timeout = timeout_seconds
        self._max_chars = max_chars
        self._metrics = metrics
        self._running: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> int:
        """Engine tasks alive now; zero once every stream has ended, however it ended."""
        return len(self._running)

    async def stream(self, job: AnswerJob, record: RecordAnswer) -> AsyncGenerator[Event, None]:
        """The events of one answer; ``record`` stores it when it is answered."""
        progress = _Progress(time.monotonic())
        # The loop's clock, which is anyio's under asyncio; read directly, it costs no
        # backend lookup per event.
        clock = asyncio.get_running_loop().time
        deadline = clock() + self._timeout + _ENGINE_FIRST_SECONDS
        queue: _Queue = asyncio.Queue(maxsize=_QUEUE_BOUND)
        engine_task = asyncio.create_task(self._run_engine(job, queue), name="citeline-answer")
        self._running.add(engine_task)
        engine_task.add_done_callback(self._running.discard)
        # One timer for the whole answer wakes a stream that waits at its deadline, instead
        # of a cancel scope armed around every wait: at 20 tokens a second per stream the
        # queue is empty at nearly every token, and the scope cost about 6 us each
        # (measured, anyio 4.16 under uvloop), a fifth of the 30 us budget per token.
        timer = asyncio.get_running_loop().call_at(deadline, _wake_at_deadline, queue)
        self._metrics.in_flight.inc()
        try:
            yield Start(release=job.release, conversation_id=job.conversation_id)
            while not progress.ended:
                item = await queue.get()
                # The clock is read after every event too: when the queue is full the timer
                # cannot queue its wake-up, and an engine that never pauses was found
                # running on past its deadline.
                if isinstance(item, _DeadlinePassed) or clock() >= deadline:
                    await self._stop(engine_task)
                    yield self._timed_out(progress)
                elif isinstance(item, _EngineEnded):
                    yield self._engine_ended(item, progress)
                elif isinstance(item, Token):
                    self._count_token(progress)
                    if self._max_chars is not None and (
                        progress.chars + len(item.text) > self._max_chars
                    ):
                        async for event in self._cut(item, job, record, progress, engine_task):
                            yield event
                    else:
                        progress.chars += len(item.text)
                        progress.text.append(item.text)
                        yield item
                elif isinstance(item, Citation):
                    progress.citations.append(item)
                    yield item
                elif isinstance(item, Done):
                    done = await self._close(item, job, progress, record)
                    yield self._finish(done, progress)
        except (asyncio.CancelledError, GeneratorExit):
            # Starlette either cancels the stream (it saw http.disconnect) or closes it
            # (a send failed); both mean nobody is reading, and both are re-raised.
            if not progress.ended:
                self._abandoned(progress)
            await self._stop(engine_task)
            raise
        finally:
            timer.cancel()
            self._metrics.in_flight.dec()

    def _count_token(self, progress: _Progress) -> None:
        if progress.tokens == 0:
            self._metrics.time_to_first_token.observe(time.monotonic() - progress.started)
        progress.tokens += 1

    def _timed_out(self, progress: _Progress) -> Done:
        logger.warning(
            "answer timed out after %.1f s (slow upstream: the model or a tool "
            "did not finish in CITELINE_ANSWER_TIMEOUT=%g s)",
            time.monotonic() - progress.started,
            self._timeout,
            extra={"outcome": "timeout", "token_events": progress.tokens},
        )
        return self._finish(Done(state="failed"), progress)

    def _engine_ended(self, ended: _EngineEnded, progress: _Progress) -> Done:
        extra = {"outcome": "engine_error", "token_events": progress.tokens}
        if ended.error is not None:
            logger.error(
                "answer failed: the engine raised (broken upstream)",
                exc_info=ended.error,
                extra=extra,
            )
        else:
            logger.error("answer failed: the engine ended without a done event", extra=extra)
        return self._finish(Done(state="failed"), progress)

    async def _cut(
        self,
        token: Token,
        job: AnswerJob,
        record: RecordAnswer,
        progress: _Progress,
        engine_task: asyncio.Task[None],
    ) -> AsyncGenerator[Event, None]:
        """A model that never stops (a 10 MB answer was measured) would be streamed, stored
        and replayed to it as chat history: the answer ends at the cap instead, as far as it
        got, without the engine's label."""
        assert self._max_chars is not None
        kept = token.text[: self._max_chars - progress.chars]
        if kept:
            progress.text.append(kept)
            yield Token(kept)
        await self._stop(engine_task)
        logger.warning(
            "answer cut at CITELINE_ANSWER_MAX_CHARS=%d characters",
            self._max_chars,
            extra={"outcome": "cut", "token_events": progress.tokens},
        )
        done = await self._close(Done(state="answered"), job, progress, record)
        yield self._finish(done, progress)

    def _abandoned(self, progress: _Progress) -> None:
        self._metrics.abandoned.inc()
        logger.info(
            "answer abandoned by the caller after %.1f s and %d token events",
            time.monotonic() - progress.started,
            progress.tokens,
            extra={"outcome": "abandoned", "token_events": progress.tokens},
        )

    async def _close(
        self, done: Done, job: AnswerJob, progress: _Progress, record: RecordAnswer
    ) -> Done:
        """The engine's ``done`` as it decided it, with the ``answer_id`` the server owns once
        an answered answer is stored."""
        if done.state == "failed":
            logger.error(
                "answer failed: the engine reported a failure (broken upstream)",
                extra={"outcome": "engine_failed"},
            )
        if done.state != "answered":
            return done
        answer_id: str | None
        try:
            streamed = StreamedAnswer(
                job.question, "".join(progress.text), tuple(progress.citations)
            )
            answer_id = await record(streamed)
        except Exception:
            # The reader already has the whole answer; losing the record costs only
            # "Continue in chat", so the stream still ends answered, without an id.
            logger.exception("answer could not be stored", extra={"outcome": "store_error"})
            answer_id = None
        return replace(done, answer_id=answer_id)

    def _finish(self, done: Done, progress: _Progress) -> Done:
        """The answer's last event: the stream ends after it."""
        progress.ended = True
        # Timed from admission, not from the engine's start: the server owns ``seconds``.
        seconds = time.monotonic() - progress.started
        self._metrics.answers.labels(state=done.state).inc()
        self._metrics.answer_seconds.observe(seconds)
        return replace(done, seconds=seconds)

    async def _run_engine(self, job: AnswerJob, queue: _Queue) -> None:
        gate = self._gate
        if gate is not None:
            # Inside the answer's deadline: a wait past it ends the answer ``failed``.
            await gate.enter()
        held = gate is not None
        # How long the rest of this answer may still wait for others' first tokens.
        deferrable = _REST_DEFERRAL_SECONDS
        events = self._engine.answer(job.question, profile=job.profile, history=job.history)
        try:
            async for event in events:
                if held and gate is not None and isinstance(event, Token | Done):
                    # The answer's work before its first text is done: the next may start.
                    held = False
                    gate.leave()
                await queue.put(event)
                if isinstance(event, Done):
                    return
                if not held and gate is not None and gate.busy and deferrable > 0:
                    # Its rest (the next pieces through the pipeline) waits while others
                    # are before their first token: readers with no text at all come first.
                    deferrable -= await _wait_idle(gate, deferrable)
        except Exception as error:
            await queue.put(_EngineEnded(error))
            return
        finally:
            if held and gate is not None:
                gate.leave()
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()
        await queue.put(_EngineEnded(None))

    @staticmethod
    async def _stop(engine_task: asyncio.Task[None]) -> None:
        engine_task.cancel()
        # Shielded: the stream itself is usually being cancelled, and an unshielded wait
        # would be cancelled at once, leaving the engine's task running unobserved.
        with anyio.CancelScope(shield=True):
            await asyncio.wait({engine_task}, timeout=_STOP_GRACE_SECONDS)
        if not engine_task.done():
            logger.warning(
                "the engine did not stop within %.1f s of being cancelled",
                _STOP_GRACE_SECONDS,
                extra={"outcome": "engine_stuck"},
            )


async def _wait_idle(gate: FirstTokenGate, limit: float) -> float:
    """Wait until no answer at ``gate`` is before its first token, at most ``limit`` seconds;
    the seconds waited."""
    clock = asyncio.get_running_loop().time
    started = clock()
    try:
        async with asyncio.timeout(limit):
            await gate.idle()
    except TimeoutError:
        pass
    return clock() - started
