"""An evaluation's record of an answer built from a list of events, for the metric tests.

It times nothing and judges nothing: the i-th event is taken as observed i seconds after the
question was asked, so the timing measures have known values.
"""

from __future__ import annotations

from citeline.evaluation import AnswerCollector, ObservedAnswer
from citeline.events import Event


def answer_of(question_id: str, events: list[Event]) -> ObservedAnswer:
    """The record of ``events``, the i-th observed i seconds after the question was asked."""
    collector = AnswerCollector(question_id, started_at=0.0)
    for moment, event in enumerate(events, start=1):
        collector.add(event, float(moment))
    return collector.finish(float(len(events) + 1))
