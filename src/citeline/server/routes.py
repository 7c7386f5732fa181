"""The HTTP endpoints: each one reads its body, asks the guard, and hands off.

Kept thin on purpose: checking callers is ``guard``, running an answer is
``answer_stream``, keeping answers is ``store``, the wire format is ``sse`` and
``events``. What is left here is which of those each endpoint calls, in which order.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

import anyio.to_thread
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from citeline.server.answer_engine import AnswerEngine
from citeline.server.answer_stream import AnswerJob, AnswerRunner, StreamedAnswer
from citeline.server.guard import Guard, Refused
from citeline.server.metrics import ServerMetrics
from citeline.server.schemas import (
    MAX_ID_CHARS,
    MAX_QUESTION_CHARS,
    MAX_TOKEN_CHARS,
    AnswerRecord,
    AnswerRequest,
    ChatRequest,
    ConversationRecord,
    Health,
    NotFound,
    SearchResult,
    ServerInfo,
    snippet_of,
)
from citeline.server.settings import ServerSettings
from citeline.server.sse import (
    EventStreamResponse,
    event_stream,
    refusal_stream,
    unavailable_stream,
)
from citeline.server.store import (
    Conversation,
    ConversationMessage,
    Stores,
    StoreUnavailableError,
)

if TYPE_CHECKING:
    from citeline.corpus import Corpus


logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ServerState:
    """Everything one app serves with, built once at start-up."""

    settings: ServerSettings
    release: str | None
    guard: Guard
    engine: AnswerEngine
    runner: AnswerRunner
    stores: Stores
    corpus: Corpus
    metrics: ServerMetrics
    examples: tuple[str, ...] = ()

    async def record(self, streamed: StreamedAnswer) -> str:
        """Keep a streamed answer in the answer store; its id, for ``GET /v1/answers/{id}``."""
        stored = await self.stores.answers.add(
            question=streamed.question,
            text=streamed.text,
            citations=streamed.citations,
            release=self.release,
        )
        return stored.id


_SSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/event-stream": {}}, "description": "The answer's events."}
}


def _not_found(reason: Literal["no_answer", "no_conversation"]) -> JSONResponse:
    return JSONResponse(NotFound(reason=reason).model_dump(), status_code=404)


def client_address(request: Request) -> str:
    """The caller's address: the socket's, or a trusted proxy's X-Forwarded-For when
    ``CITELINE_FORWARDED_ALLOW_IPS`` names that proxy (uvicorn applies it)."""
    return request.client.host if request.client is not None else "unknown"


def build_router(state: ServerState) -> APIRouter:
    """The native API over ``state``, each group of routes added by its own step."""
    router = APIRouter()
    _add_answer(router, state)
    _add_chat(router, state)
    _add_stored(router, state)
    _add_collection(router, state)
    _add_operations(router, state)
    return router


def _refused(state: ServerState, verdict: Refused) -> Response:
    """The guard's refusal, counted, as the single-event stream every refusal is."""
    state.metrics.refusals.labels(cause=verdict.cause).inc()
    state.metrics.answers.labels(state="refused").inc()
    return refusal_stream()


def _add_answer(router: APIRouter, state: ServerState) -> None:
    @router.post(
        "/v1/answer",
        response_class=EventStreamResponse,
        responses=_SSE,
        summary="Answer a question as a stream of events",
    )
    async def answer(body: AnswerRequest, request: Request) -> Response:
        verdict = await state.guard.admit(body.caller_token, client_address(request))
        if isinstance(verdict, Refused):
            return _refused(state, verdict)
        job = AnswerJob(body.question, body.profile, (), state.release)
        return event_stream(state.runner.stream(job, state.record))


def _add_chat(router: APIRouter, state: ServerState) -> None:
    @router.post(
        "/v1/chat",
        response_class=EventStreamResponse,
        responses={**_SSE, 404: {"model": NotFound}},
        summary="Continue a conversation, or open one on a stored answer",
    )
    async def chat(body: ChatRequest, request: Request) -> Response:
        try:
            return await _chat(state, body, request)
        except StoreUnavailableError:
            # The page must not break because the store is down: the chat ends like any
            # failed answer, and the next message, once the store is back, works.
            logger.exception("chat failed: the conversation store is unavailable")
            state.metrics.answers.labels(state="failed").inc()
            return unavailable_stream()


async def _chat(state: ServerState, body: ChatRequest, request: Request) -> Response:
    """One chat turn: the conversation found (before the guard, so a stale id costs the
    caller no budget), its owner checked, the budget spent, the turn answered and kept."""
    client = client_address(request)
    found = await _conversation_of(state.stores, body)
    if isinstance(found, JSONResponse):
        return found
    conversation, opening = found
    identity = state.guard.identify(body.caller_token, client)
    if isinstance(identity, Refused):
        return _refused(state, identity)
    if conversation is not None and not conversation.is_owned_by(identity):
        # Whoever holds another reader's conversation id could otherwise add turns that
        # its owner's next answer takes as history. To them it does not exist, and the
        # refusal spends nothing.
        logger.info(
            "chat refused: the conversation belongs to another caller",
            extra={"outcome": "not_owner", "client": client},
        )
        return _not_found("no_conversation")
    verdict = await state.guard.spend(identity, client)
    if isinstance(verdict, Refused):
        return _refused(state, verdict)
    if conversation is None:
        conversation = await state.stores.conversations.create(opening, identity=identity)
    job = AnswerJob(body.message, "chat", conversation.messages, state.release, conversation.id)
    return event_stream(state.runner.stream(job, _turn_recorder(state, conversation.id)))


async def _conversation_of(
    stores: Stores, body: ChatRequest
) -> tuple[Conversation | None, tuple[ConversationMessage, ...]] | JSONResponse:
    """The conversation ``body`` continues (None for a new one) and the messages a new one
    opens with (a stored answer's question and text), or the 404 for an unknown id."""
    if body.conversation_id is not None:
        conversation = await stores.conversations.get(body.conversation_id)
        if conversation is None:
            return _not_found("no_conversation")
        return conversation, ()
    if body.answer_id is not None:
        stored = await stores.answers.get(body.answer_id)
        if stored is None:
            return _not_found("no_answer")
        return None, (
            ConversationMessage("user", stored.question),
            ConversationMessage("assistant", stored.text, stored.citations),
        )
    return None, ()


def _turn_recorder(
    state: ServerState, conversation_id: str
) -> Callable[[StreamedAnswer], Awaitable[str]]:
    """Keeps a streamed chat answer in the answer store and appends the turn to its
    conversation; the answer's id, for ``done``."""

    async def record_turn(streamed: StreamedAnswer) -> str:
        answer_id = await state.record(streamed)
        await state.stores.conversations.append(
            conversation_id,
            (
                ConversationMessage("user", streamed.question),
                ConversationMessage("assistant", streamed.text, streamed.citations),
            ),
        )
        return answer_id

    return record_turn


def _add_stored(router: APIRouter, state: ServerState) -> None:
    stores = state.stores

    @router.get(
        "/v1/answers/{answer_id}",
        response_model=AnswerRecord,
        responses={404: {"model": NotFound}},
        summary="A stored answer, exactly as it was streamed",
    )
    async def stored_answer(
        answer_id: Annotated[str, Path(max_length=MAX_ID_CHARS)],
    ) -> AnswerRecord | JSONResponse:
        stored = await stores.answers.get(answer_id)
        if stored is None:
            return _not_found("no_answer")
        return AnswerRecord.of(stored)

    @router.get(
        "/v1/conversations/{conversation_id}",
        response_model=ConversationRecord,
        responses={404: {"model": NotFound}},
        summary="A conversation's messages so far",
    )
    async def stored_conversation(
        conversation_id: Annotated[str, Path(max_length=MAX_ID_CHARS)],
        request: Request,
        authorization: Annotated[str, Header(max_length=MAX_TOKEN_CHARS + 16)] = "",
    ) -> ConversationRecord | JSONResponse:
        """Only to the caller who opened it: the same caller token as in the chat, sent as
        ``Authorization: Bearer TOKEN`` (none in open mode, where the address decides)."""
        conversation = await stores.conversations.get(conversation_id)
        if conversation is None:
            return _not_found("no_conversation")
        scheme, _, caller_token = authorization.partition(" ")
        if scheme.lower() != "bearer":
            caller_token = ""
        identity = state.guard.identify(caller_token.strip(), client_address(request))
        if isinstance(identity, Refused) or not conversation.is_owned_by(identity):
            return _not_found("no_conversation")
        return ConversationRecord.of(conversation)


def _add_collection(router: APIRouter, state: ServerState) -> None:
    @router.get(
        "/v1/search",
        response_model=list[SearchResult],
        summary="Passages of the collection for a query (no model is called)",
    )
    async def search(
        q: Annotated[str, Query(min_length=1, max_length=MAX_QUESTION_CHARS)],
        k: Annotated[int, Query(ge=1)] = 10,
    ) -> list[SearchResult]:
        limit = min(k, state.settings.search_max_k)
        hits = await anyio.to_thread.run_sync(state.corpus.search, q, limit)
        return [
            SearchResult(
                id=hit.doc_id,
                title=hit.title,
                snippet=snippet_of(hit.text),
                url=hit.url,
                start=hit.start,
                end=hit.end,
            )
            for hit in hits
        ]

    @router.get("/v1/info", response_model=ServerInfo, summary="Model, release and mode")
    async def info() -> ServerInfo:
        documents, site_name = await anyio.to_thread.run_sync(_size_and_name, state.corpus)
        return ServerInfo(
            model=state.engine.model_name,
            release=state.release,
            open=state.guard.open,
            link_template=state.settings.link_template,
            # Never the release label: without one given at ingest it is a content digest,
            # and the page greeted an owner's own site with "Ask 643e583a91d4".
            collection=state.settings.collection_name or site_name,
            documents=documents,
            examples=list(state.examples),
            rate_limit=state.settings.rate_limit,
            rate_window=state.settings.rate_window,
            retrieval=state.corpus.retrieval.value,
        )


def _add_operations(router: APIRouter, state: ServerState) -> None:
    @router.get("/healthz", response_model=Health, summary="Liveness")
    async def healthz() -> Health:
        return Health(status="ok")

    @router.get("/metrics", summary="Prometheus metrics", response_class=Response)
    async def metrics() -> Response:
        body, content_type = state.metrics.exposition()
        return Response(body, media_type=content_type)


def _size_and_name(corpus: Corpus) -> tuple[int, str | None]:
    return len(corpus), corpus.site_name
