"""The server's Prometheus metrics, on a registry of its own.

A registry per app, not the process-wide default, so two apps in one process (the tests
start several) never collide over metric names. Every label value is created up front,
so a dashboard sees a zero rather than a missing series. Deliberately not here: when
things are counted (the server does that) and any HTTP.
"""

from __future__ import annotations

from typing import get_args

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest

from citeline.events import DoneState
from citeline.server.guard import REFUSAL_CAUSES

# Seconds; the embedded model's first token comes in tens of milliseconds, a remote
# model's in one to several seconds, and the answer timeout defaults to 120 s.
_LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


class ServerMetrics:
    """Answers by state, refusals by cause, abandoned streams, latency histograms."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.answers = Counter(
            "citeline_answers",
            "Answers ended, by the state of their done event.",
            ["state"],
            registry=self.registry,
        )
        self.refusals = Counter(
            "citeline_refusals",
            "Requests refused before any model call, by cause.",
            ["cause"],
            registry=self.registry,
        )
        self.abandoned = Counter(
            "citeline_abandoned_streams",
            "Answers whose caller hung up before the done event.",
            registry=self.registry,
        )
        self.in_flight = Gauge(
            "citeline_answers_in_flight",
            "Answers being generated now.",
            registry=self.registry,
        )
        self.time_to_first_token = Histogram(
            "citeline_time_to_first_token_seconds",
            "From admission to the first token event.",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.answer_seconds = Histogram(
            "citeline_answer_seconds",
            "From admission to the done event.",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        for state in get_args(DoneState):
            self.answers.labels(state=state)
        for cause in REFUSAL_CAUSES:
            self.refusals.labels(cause=cause)

    def exposition(self) -> tuple[bytes, str]:
        """The metrics in Prometheus's text format, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
