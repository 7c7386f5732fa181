"""The engine decides how an answer ended; the server relays its ``done`` and adds only what
it owns: ``seconds`` (timed from admission) and the ``answer_id`` of the stored answer.

Run in process on the server's ``AnswerRunner``: no socket is needed to see what it relays.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import pytest

from citeline.events import Citation, Done, Event, Start, Token
from citeline.server.answer_engine import Profile
from citeline.server.answer_stream import AnswerJob, AnswerRunner, StreamedAnswer
from citeline.server.metrics import ServerMetrics
from citeline.server.store import ConversationMessage


class FixedEngine:
    """Says ``text`` in one token, cites ``citations``, then ends with ``done``."""

    model_name = "fixed"

    def __init__(self, text: str, done: Done, citations: Sequence[Citation] = ()) -> None:
        self._text = text
        self._done = done
        self._citations = citations

    async def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        yield Start(release="engine-release")
        if self._text:
            yield Token(self._text)
        for citation in self._citations:
            yield citation
        yield self._done


async def _relayed(engine: FixedEngine) -> tuple[list[Event], list[StreamedAnswer]]:
    stored: list[StreamedAnswer] = []

    async def record(answer: StreamedAnswer) -> str:
        stored.append(answer)
        return "stored-id"

    runner = AnswerRunner(engine, timeout_seconds=10, metrics=ServerMetrics())
    job = AnswerJob("q", "search", (), release="server-release")
    return [event async for event in runner.stream(job, record)], stored


CITATION = Citation(n=1, display_name="Apoptosis", id="R-HSA-109581", start=0, end=9)


@pytest.mark.parametrize(
    "engine_done",
    [
        Done(state="answered", seconds=99.0, provenance="cited", dropped_anchors=2),
        Done(state="answered", seconds=99.0, provenance="untrusted"),
        Done(state="nothing_found", seconds=99.0, provenance="none", dropped_anchors=1),
        Done(state="failed", seconds=99.0, dropped_anchors=3),
    ],
    ids=["answered cited", "answered untrusted", "nothing found", "failed"],
)
async def test_the_server_adds_only_seconds_and_the_answer_id_to_the_engines_done(
    engine_done: Done,
) -> None:
    events, stored = await _relayed(FixedEngine("Apoptosis is cell death.", engine_done))
    done = events[-1]
    assert isinstance(done, Done)
    answer_id = "stored-id" if engine_done.state == "answered" else None
    assert done == replace(engine_done, seconds=done.seconds, answer_id=answer_id)
    # Timed by the server, from admission: not the engine's own figure.
    assert done.seconds < 99.0
    assert len(stored) == (1 if engine_done.state == "answered" else 0)


async def test_the_server_never_re_decides_what_the_engine_found() -> None:
    # Whether an answer found anything is the engine's rule alone (agent/engine.py): an
    # engine that calls an answer with no text answered is relayed as it said.
    events, stored = await _relayed(FixedEngine("", Done(state="answered", provenance="none")))
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.provenance, done.answer_id) == ("answered", "none", "stored-id")
    assert stored == [StreamedAnswer("q", "", ())]


async def test_the_start_is_the_servers_and_tokens_and_citations_are_relayed() -> None:
    engine = FixedEngine("Apoptosis is cell death.", Done(state="answered"), [CITATION])
    events, stored = await _relayed(engine)
    assert events[0] == Start(release="server-release")
    assert events[1:3] == [Token("Apoptosis is cell death."), CITATION]
    assert stored == [StreamedAnswer("q", "Apoptosis is cell death.", (CITATION,))]
