"""Stored answers and "Continue in chat", through the app in process.

A chat opened from an ``answer_id`` must hold exactly the text the reader saw, never a
regeneration, and a stored answer must survive a restart of the server.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.support.app_servers import Served
from tests.support.engine_doubles import ANSWER_CITATIONS, CountingEngine
from tests.support.event_streams import post_stream

from citeline.server.store import ConversationMessage


def _answer(server: Served, caller_token: str, question: str = "What is apoptosis?") -> str:
    streamed = post_stream(
        server.client, "/v1/answer", {"question": question, "caller_token": caller_token}
    )
    return str(streamed.done()["answer_id"])


def test_a_stored_answer_is_returned_exactly_as_streamed(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), release="r1")
    streamed = post_stream(
        server.client, "/v1/answer", {"question": "What is apoptosis?", "caller_token": token()}
    )
    stored = server.client.get(f"/v1/answers/{streamed.done()['answer_id']}").json()
    assert stored["id"] == streamed.done()["answer_id"]
    assert stored["question"] == "What is apoptosis?"
    assert stored["text"] == streamed.text()
    assert stored["citations"] == streamed.payloads("citation")
    assert stored["release"] == "r1"
    assert stored["created_at"].endswith("+00:00")


def test_an_unknown_answer_is_404_no_answer(serve: Callable[..., Served]) -> None:
    server = serve(CountingEngine())
    response = server.client.get("/v1/answers/AAAAAAAAAAAAAAAAAAAAAAAA")
    assert response.status_code == 404
    assert response.json() == {"reason": "no_answer"}


def test_a_stored_answer_survives_a_restart(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    first = serve(CountingEngine())
    answer_id = _answer(first, token())
    text = first.client.get(f"/v1/answers/{answer_id}").json()["text"]
    # A second server on the same database file, as after a restart.
    second = serve(CountingEngine())
    response = second.client.get(f"/v1/answers/{answer_id}")
    assert response.status_code == 200
    assert response.json()["text"] == text


def test_a_chat_opened_from_an_answer_holds_exactly_the_streamed_text(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    streamed = post_stream(
        server.client, "/v1/answer", {"question": "What is apoptosis?", "caller_token": token()}
    )
    chat = post_stream(
        server.client,
        "/v1/chat",
        {
            "message": "And necroptosis?",
            "answer_id": streamed.done()["answer_id"],
            "caller_token": token(),
        },
    )
    assert len(engine.calls) == 2, "the opening answer is not regenerated"
    call = engine.calls[1]
    assert call.question == "And necroptosis?"
    assert call.profile == "chat"
    assert call.history == (
        ConversationMessage("user", "What is apoptosis?"),
        ConversationMessage("assistant", streamed.text(), ANSWER_CITATIONS),
    )
    start = chat.events[0]
    assert start[0] == "start" and len(start[1]["conversation_id"]) == 24
    assert chat.done()["state"] == "answered"
    conversation = server.client.get(
        f"/v1/conversations/{start[1]['conversation_id']}",
        headers={"authorization": f"Bearer {token()}"},
    ).json()
    assert [(m["role"], m["text"]) for m in conversation["messages"]] == [
        ("user", "What is apoptosis?"),
        ("assistant", streamed.text()),
        ("user", "And necroptosis?"),
        ("assistant", chat.text()),
    ]


def test_a_follow_up_sees_the_whole_conversation(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    first = post_stream(server.client, "/v1/chat", {"message": "Hello?", "caller_token": token()})
    conversation_id = first.events[0][1]["conversation_id"]
    assert engine.calls[0].history == ()
    second = post_stream(
        server.client,
        "/v1/chat",
        {"message": "More?", "conversation_id": conversation_id, "caller_token": token()},
    )
    assert second.events[0][1]["conversation_id"] == conversation_id
    assert [m.text for m in engine.calls[1].history] == ["Hello?", first.text()]


def test_chat_refusals_are_the_same_single_event_with_no_model_call(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine, rate_limit=1)
    answer_id = _answer(server, token("reader-1"))
    for caller_token in ("", "garbage", token("reader-1", ttl=-5), token("reader-1")):
        refused = post_stream(
            server.client,
            "/v1/chat",
            {"message": "More?", "answer_id": answer_id, "caller_token": caller_token},
        )
        assert refused.events == [("done", {"state": "refused", "seconds": 0.0})]
    assert len(engine.calls) == 1


def test_chat_on_an_unknown_answer_or_conversation_is_404(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    for key, reason in (("answer_id", "no_answer"), ("conversation_id", "no_conversation")):
        response = server.client.post(
            "/v1/chat",
            json={"message": "More?", key: "A" * 24, "caller_token": token()},
        )
        assert response.status_code == 404
        assert response.json() == {"reason": reason}
    assert engine.calls == []


def test_chat_with_both_an_answer_and_a_conversation_is_422(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    response = server.client.post(
        "/v1/chat",
        json={"message": "m", "answer_id": "a", "conversation_id": "c", "caller_token": ""},
    )
    assert response.status_code == 422


@pytest.mark.parametrize("key", ["conversation_id", "answer_id"])
def test_an_id_with_a_nul_or_a_slash_is_422_before_any_store_is_asked(
    serve: Callable[..., Served], token: Callable[..., str], key: str
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    for bad in ("abc\x00def", "../answers"):
        response = server.client.post(
            "/v1/chat", json={"message": "More?", key: bad, "caller_token": token()}
        )
        assert response.status_code == 422
    assert engine.calls == []
