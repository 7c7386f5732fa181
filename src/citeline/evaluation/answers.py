"""What one answer produced, gathered from its event stream as the events arrive.

:class:`AnswerCollector` folds ``start``/``token``/``citation``/``done`` events into one
:class:`ObservedAnswer`, with the times the caller observed. It takes the clock readings as
arguments, so it is pure and the runner alone owns the clock; it does not judge the answer
(that is :mod:`citeline.evaluation.metrics`).
"""

from __future__ import annotations

from dataclasses import dataclass

from citeline.events import Citation, Done, Event, QuoteVerdict, Token


@dataclass(frozen=True, slots=True)
class ObservedAnswer:
    """One question's answer: its prose, its citations, how it ended and how long it took.

    ``state`` is the ``done`` event's state, or ``failed`` when the stream broke off without
    one (``error`` then says why). ``first_token_seconds`` is ``None`` when no token carried
    text. ``verdicts`` is what became of each quote block (from ``done``).
    """

    question_id: str
    text: str
    citations: tuple[Citation, ...]
    state: str
    dropped_anchors: int
    provenance: str | None
    first_token_seconds: float | None
    total_seconds: float
    error: str | None = None
    verdicts: tuple[QuoteVerdict, ...] = ()


class AnswerCollector:
    """Accumulates one answer's events; ``finish`` gives the record."""

    def __init__(self, question_id: str, started_at: float) -> None:
        self._question_id = question_id
        self._started_at = started_at
        self._text: list[str] = []
        self._citations: list[Citation] = []
        self._done: Done | None = None
        self._first_token_at: float | None = None

    def add(self, event: Event, at: float) -> None:
        """Take ``event``, observed at clock reading ``at``."""
        if isinstance(event, Token):
            # An empty token is not something a reader sees, so it does not end the wait.
            if event.text and self._first_token_at is None:
                self._first_token_at = at
            self._text.append(event.text)
        elif isinstance(event, Citation):
            self._citations.append(event)
        elif isinstance(event, Done):
            self._done = event

    def finish(self, at: float, error: str | None = None) -> ObservedAnswer:
        """The record, with the stream over at clock reading ``at``."""
        done = self._done
        if done is None and error is None:
            error = "the answer stream ended without a done event"
        return ObservedAnswer(
            question_id=self._question_id,
            text="".join(self._text),
            citations=tuple(self._citations),
            state=done.state if done is not None and error is None else "failed",
            dropped_anchors=done.dropped_anchors if done is not None else 0,
            provenance=done.provenance if done is not None else None,
            first_token_seconds=(
                None if self._first_token_at is None else self._first_token_at - self._started_at
            ),
            total_seconds=at - self._started_at,
            error=error,
            verdicts=done.verdicts if done is not None else (),
        )
