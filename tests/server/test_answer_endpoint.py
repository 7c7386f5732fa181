"""POST /v1/answer, in process: the events, their shapes, and every way an answer ends."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from tests.support.app_servers import Served
from tests.support.engine_doubles import (
    ANSWER_CITATIONS,
    ANSWER_TOKENS,
    CountingEngine,
    RaisingEngine,
    SlowEngine,
)
from tests.support.event_streams import post_stream


def test_an_answer_is_start_tokens_citations_and_one_done(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine, release="2026-09")
    streamed = post_stream(
        server.client, "/v1/answer", {"question": "What is apoptosis?", "caller_token": token()}
    )
    assert streamed.status == 200
    assert streamed.content_type.startswith("text/event-stream")
    assert streamed.names() == ["start", "token", "token", "token", "citation", "citation", "done"]
    assert streamed.events[0] == ("start", {"release": "2026-09"})
    assert streamed.text() == "".join(ANSWER_TOKENS)
    assert streamed.payloads("citation") == [c.payload() for c in ANSWER_CITATIONS]
    done = streamed.done()
    assert done["state"] == "answered"
    assert len(done["answer_id"]) == 24
    assert done["provenance"] == "sourced"
    assert done["seconds"] == round(done["seconds"], 1)
    assert engine.calls[0].question == "What is apoptosis?"
    assert engine.calls[0].profile == "search"
    assert engine.calls[0].history == ()


def test_a_citation_carries_exactly_one_nonempty_identifier(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    for citation in streamed.payloads("citation"):
        keys = {"id", "url"} & citation.keys()
        assert len(keys) == 1
        assert citation[keys.pop()]


def test_the_release_defaults_to_none_for_an_index_without_one(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    assert streamed.events[0] == ("start", {"release": None})


def test_nothing_found_has_no_answer_id(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(state="nothing_found"))
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    assert streamed.names() == ["start", "done"]
    assert "answer_id" not in streamed.done()
    assert streamed.done()["state"] == "nothing_found"


def test_the_search_profile_is_the_default_and_chat_can_be_asked_for(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    body = {"question": "q", "caller_token": token(), "profile": "chat"}
    post_stream(server.client, "/v1/answer", body)
    assert engine.calls[0].profile == "chat"


@pytest.mark.parametrize(
    "body",
    [
        {"caller_token": ""},
        {"question": "", "caller_token": ""},
        {"question": "   \n", "caller_token": ""},
        {"question": "x" * 2001, "caller_token": ""},
        {"question": 42, "caller_token": ""},
        {"question": "q", "caller_token": None},
        {"question": "q", "caller_token": "", "profile": "poetry"},
    ],
    ids=["missing", "empty", "blank", "too-long", "number", "null-token", "unknown-profile"],
)
def test_a_body_that_breaks_the_schema_gets_422_json_and_no_model_call(
    serve: Callable[..., Served], body: dict[str, object]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    response = server.client.post("/v1/answer", json=body)
    assert response.status_code == 422
    assert "detail" in response.json()
    assert engine.calls == []


def test_a_body_that_is_not_json_gets_422(serve: Callable[..., Served]) -> None:
    server = serve(CountingEngine())
    response = server.client.post(
        "/v1/answer", content=b"question=q", headers={"content-type": "text/plain"}
    )
    assert response.status_code == 422


def test_a_question_of_exactly_2000_characters_is_answered(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    body = {"question": "x" * 2000, "caller_token": token()}
    assert post_stream(server.client, "/v1/answer", body).done()["state"] == "answered"


def test_an_engine_that_raises_flushes_what_it_sent_then_fails_quietly(
    serve: Callable[..., Served], token: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.server")
    server = serve(RaisingEngine())
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    assert streamed.status == 200
    assert streamed.names() == ["start", "token", "done"]
    assert streamed.done() == {"state": "failed", "seconds": streamed.done()["seconds"]}
    assert any("broken upstream" in record.getMessage() for record in caplog.records)


def test_a_timeout_ends_failed_and_is_logged_as_a_slow_upstream(
    serve: Callable[..., Served], token: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.server")
    engine = SlowEngine()
    server = serve(engine, answer_timeout=0.3)
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    assert streamed.names() == ["start", "token", "done"]
    assert streamed.done()["state"] == "failed"
    assert "answer_id" not in streamed.done()
    assert engine.cancelled_at is not None
    assert server.state.runner.running == 0
    assert any("slow upstream" in record.getMessage() for record in caplog.records)
