"""A store out of reach (its database down) never turns into a 500 or a broken page.

A chat ends like any failed answer, a stored answer asked for gets a 503 that says to
retry, and a new answer is still streamed: only its record is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tests.support.app_servers import in_process
from tests.support.engine_doubles import CountingEngine
from tests.support.event_streams import post_stream

from citeline.events import Citation
from citeline.server import create_app
from citeline.server.settings import ServerSettings
from citeline.server.store import (
    AnswerStore,
    Conversation,
    ConversationMessage,
    ConversationStore,
    StoredAnswer,
    Stores,
    StoreUnavailableError,
)


class _DownAnswers(AnswerStore):
    async def add(
        self, *, question: str, text: str, citations: Sequence[Citation], release: str | None
    ) -> StoredAnswer:
        raise StoreUnavailableError("down for the test")

    async def get(self, answer_id: str) -> StoredAnswer | None:
        raise StoreUnavailableError("down for the test")


class _DownConversations(ConversationStore):
    async def create(
        self, messages: Sequence[ConversationMessage], *, identity: str
    ) -> Conversation:
        raise StoreUnavailableError("down for the test")

    async def get(self, conversation_id: str) -> Conversation | None:
        raise StoreUnavailableError("down for the test")

    async def append(
        self, conversation_id: str, messages: Sequence[ConversationMessage]
    ) -> Conversation | None:
        raise StoreUnavailableError("down for the test")


def _down() -> Stores:
    return Stores(answers=_DownAnswers(), conversations=_DownConversations(), close=lambda: None)


def test_a_chat_on_a_store_that_is_down_ends_failed_without_a_model_call(
    settings: Callable[..., ServerSettings], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    with in_process(create_app(settings(), engine=engine, stores=_down())) as server:
        for body in (
            {"message": "And autophagy?", "answer_id": "a" * 24, "caller_token": token()},
            {"message": "And autophagy?", "caller_token": token()},
        ):
            streamed = post_stream(server.client, "/v1/chat", body)
            assert streamed.status == 200
            assert streamed.names() == ["done"]
            assert streamed.done()["state"] == "failed"
    assert engine.calls == []


def test_a_stored_answer_asked_for_while_the_store_is_down_is_a_503_that_says_why(
    settings: Callable[..., ServerSettings],
) -> None:
    with in_process(create_app(settings(), engine=CountingEngine(), stores=_down())) as server:
        for path in ("/v1/answers/" + "a" * 24, "/v1/conversations/" + "c" * 24):
            response = server.client.get(path)
            assert response.status_code == 503
            assert response.json() == {"reason": "store_unavailable"}
            assert response.headers["retry-after"] == "5"


def test_an_answer_is_still_streamed_when_its_record_cannot_be_kept(
    settings: Callable[..., ServerSettings], token: Callable[..., str]
) -> None:
    with in_process(create_app(settings(), engine=CountingEngine(), stores=_down())) as server:
        streamed = post_stream(
            server.client, "/v1/answer", {"question": "What is apoptosis?", "caller_token": token()}
        )
    assert streamed.done()["state"] == "answered"
    assert "answer_id" not in streamed.done()
    assert streamed.text()
