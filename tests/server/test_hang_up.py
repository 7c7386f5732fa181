"""A caller who hangs up mid-answer: the model call is cancelled, logged once, not resumed."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import httpx
import pytest
from tests.support.app_servers import Served
from tests.support.engine_doubles import SlowEngine


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_hang_up_cancels_the_model_call_within_a_second(
    serve_live: Callable[..., Served],
    token: Callable[..., str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.server.answers")
    engine = SlowEngine()
    server = serve_live(engine)
    body = {"question": "q", "caller_token": token()}
    with (
        httpx.Client(base_url=server.url, timeout=30) as client,
        client.stream("POST", "/v1/answer", json=body) as response,
    ):
        for line in response.iter_lines():
            if line.startswith("event: token"):
                break
        hung_up = time.monotonic()
    assert _wait_for(lambda: engine.finished_at is not None, 5)
    assert engine.cancelled_at is not None
    assert engine.cancelled_at - hung_up < 1.0
    assert _wait_for(lambda: server.state.runner.running == 0, 1)
    abandoned = [
        record.getMessage()
        for record in caplog.records
        if record.getMessage().startswith("answer abandoned by the caller")
    ]
    assert len(abandoned) == 1
    assert abandoned[0].endswith("s and 1 token events")
    metrics = server.client.get("/metrics").text
    assert "citeline_abandoned_streams_total 1.0" in metrics
    assert 'citeline_answers_total{state="failed"} 0.0' in metrics


async def test_a_stream_closed_after_a_failed_send_also_cancels_the_engine(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The other way Starlette reports a hang-up: a send fails and it closes the stream
    # (GeneratorExit at a yield) instead of cancelling it (CancelledError at an await).
    from citeline.server.answer_stream import AnswerJob, AnswerRunner
    from citeline.server.metrics import ServerMetrics

    caplog.set_level(logging.INFO, logger="citeline.server.answers")
    engine = SlowEngine()
    runner = AnswerRunner(engine, timeout_seconds=60, metrics=ServerMetrics())

    async def never_called(streamed: object) -> str:
        raise AssertionError("an abandoned answer is not stored")

    stream = runner.stream(AnswerJob("q", "search", (), None), never_called)
    assert (await anext(stream)).name == "start"
    assert (await anext(stream)).name == "token"
    await stream.aclose()
    assert engine.cancelled_at is not None
    assert runner.running == 0
    assert [r.getMessage() for r in caplog.records if "abandoned" in r.getMessage()] == [
        "answer abandoned by the caller after 0.0 s and 1 token events"
    ]
