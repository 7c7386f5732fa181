"""The reactome wire's routes: React-to-Me's answer endpoint, handoff and chat page.

Served beside the native routes when ``CITELINE_WIRE=reactome`` (``citeline serve --wire
reactome``), so a site running React-to-Me's front end can point it at citeline:

- ``POST /chat/api/answer``: the native answer (same guard, same engine, same runner, same
  answer store), written in the wire's encoding (``ReactomeWire.encode``);
- ``POST /api/handoff``: "Continue in chat" for a stored answer; the caller token and the
  rate limit are checked as for an answer, then a handoff id is made that a chat page can
  redeem for ``CITELINE_HANDOFF_TTL`` seconds;
- ``GET /api/handoff/{id}``: the handed-off answer, for the chat page;
- ``GET <chat prefix>``: the chat page (the search page's own, which opens the handoff named
  in its ``#handoff=<id>`` fragment).

Handoffs are kept in the answer store's database, so one process can make a handoff that
another redeems. The contract is ``contracts/reactome_wire.md``. Deliberately not here:
deciding an answer's events (the engine's) or guarding (the guard's); this module only
routes to them and renames.
"""

from __future__ import annotations

import logging
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.responses import Response as HTTPResponse
from pydantic import BaseModel, Field

from citeline.server.answer_stream import AnswerJob
from citeline.server.guard import Refused
from citeline.server.routes import ServerState, client_address
from citeline.server.schemas import MAX_ID_CHARS, MAX_TOKEN_CHARS, AnswerRequest
from citeline.server.sse import event_stream, refusal_stream
from citeline.server.store import Handoff, HandoffStore

if TYPE_CHECKING:
    from citeline.server.wires.base import Wire

logger = logging.getLogger("citeline.server.handoffs")

# React-to-Me's website sends the answer_id its page got in `done`; upstream bounds it at
# 128 characters, and so does this profile, though citeline's own ids are 24.
MAX_HANDOFF_ANSWER_ID_CHARS = 128

# Ids are made URL-safe, so one holding NUL was never given; PostgreSQL cannot even compare
# a NUL in text (it raises), so such an id is malformed input, refused before any lookup.
_NO_NUL = r"^[^\x00]*$"

# A handoff or a handed-off answer must not be kept by a browser or a proxy: it is one
# reader's, and its id is the only thing that guards it.
_NO_STORE = {"Cache-Control": "no-store"}


class HandoffRequest(BaseModel):
    """``POST /api/handoff``: hand a stored search answer to the chat page."""

    kind: Literal["search"]
    answer_id: str = Field(min_length=1, max_length=MAX_HANDOFF_ANSWER_ID_CHARS, pattern=_NO_NUL)
    caller_token: str = Field(default="", max_length=MAX_TOKEN_CHARS)


class HandoffMade(BaseModel):
    """200: redeem ``id`` by opening ``path`` (same origin) within ``expires_in`` seconds."""

    id: str
    expires_in: int
    path: str


RefusalReason = Literal["no_caller", "rate_limited", "no_answer"]


class HandoffRefused(BaseModel):
    """403 ``no_caller``, 429 ``rate_limited`` or 404 ``no_answer``."""

    reason: RefusalReason


class HandoffGone(BaseModel):
    """404 for a handoff id that never existed or has expired."""

    reason: Literal["no_handoff"]


class HandedOffAnswer(BaseModel):
    """``GET /api/handoff/{id}``: the answer as the reader saw it, citations as native payloads."""

    id: str
    answer_id: str
    question: str
    text: str
    citations: list[dict[str, Any]]
    release: str | None

    @classmethod
    def of(cls, handoff: Handoff) -> HandedOffAnswer:
        answer = handoff.answer
        return cls(
            id=handoff.id,
            answer_id=answer.id,
            question=answer.question,
            text=answer.text,
            citations=[citation.payload() for citation in answer.citations],
            release=answer.release,
        )


def _refused(status: int, reason: RefusalReason) -> JSONResponse:
    return JSONResponse(
        HandoffRefused(reason=reason).model_dump(), status_code=status, headers=_NO_STORE
    )


def build_reactome_router(
    state: ServerState, handoffs: HandoffStore, static_dir: FilePath, wire: Wire
) -> APIRouter:
    """The reactome wire's routes over the same state as the native ones: the same
    guard and budget, runner, engine, answer store and metrics."""
    router = APIRouter(tags=["reactome wire"])
    _add_answer(router, state, wire)
    _add_handoff(router, state, handoffs)
    _add_chat_page(router, state.settings.chat_prefix, static_dir / "index.html")
    return router


async def _admit(
    state: ServerState, request: Request, caller_token: str, *, answer: bool
) -> Refused | None:
    """The guard's verdict, counted as the native routes count it; None when admitted.
    A refused handoff is a refusal by cause, never a refused answer."""
    verdict = await state.guard.admit(caller_token, client_address(request))
    if not isinstance(verdict, Refused):
        return None
    state.metrics.refusals.labels(cause=verdict.cause).inc()
    if answer:
        state.metrics.answers.labels(state="refused").inc()
    return verdict


def _add_answer(router: APIRouter, state: ServerState, wire: Wire) -> None:
    @router.post(
        "/chat/api/answer",
        response_class=HTTPResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
        summary="Answer a question as a stream of events, in React-to-Me's encoding",
    )
    async def reactome_answer(body: AnswerRequest, request: Request) -> HTTPResponse:
        if await _admit(state, request, body.caller_token, answer=True) is not None:
            # The refusal is the native one byte for byte: `done` is unchanged in this profile.
            return refusal_stream()
        job = AnswerJob(body.question, body.profile, (), state.release)
        # Into the native answer store, as natively: GET /v1/answers/{id} returns it.
        return event_stream(state.runner.stream(job, state.record), encode=wire.encode)


def _add_handoff(router: APIRouter, state: ServerState, handoffs: HandoffStore) -> None:
    settings = state.settings

    @router.post(
        "/api/handoff",
        response_model=HandoffMade,
        responses={
            403: {"model": HandoffRefused},
            404: {"model": HandoffRefused},
            429: {"model": HandoffRefused},
        },
        summary="Hand a stored answer to the chat page (Continue in chat)",
    )
    async def make_handoff(body: HandoffRequest, request: Request) -> JSONResponse:
        # The guard first, as upstream does: a caller without a valid token learns nothing,
        # not even whether an answer id exists.
        refusal = await _admit(state, request, body.caller_token, answer=False)
        if refusal is not None:
            if refusal.cause == "rate_limited":
                return _refused(429, "rate_limited")
            return _refused(403, "no_caller")
        answer = await state.stores.answers.get(body.answer_id)
        if answer is None:
            logger.info("handoff refused: no stored answer for that id")
            return _refused(404, "no_answer")
        handoff = await handoffs.add(answer)
        made = HandoffMade(
            id=handoff.id,
            expires_in=settings.handoff_ttl,
            # A fragment, not a query: browsers never send it to a server or a log.
            path=f"{settings.chat_prefix}#handoff={handoff.id}",
        )
        return JSONResponse(made.model_dump(), headers=_NO_STORE)

    @router.get(
        "/api/handoff/{handoff_id}",
        response_model=HandedOffAnswer,
        responses={404: {"model": HandoffGone}},
        summary="The answer a handoff carries, while it lives",
    )
    async def redeem_handoff(
        handoff_id: Annotated[str, Path(max_length=MAX_ID_CHARS, pattern=_NO_NUL)],
    ) -> JSONResponse:
        handoff = await handoffs.get(handoff_id)
        if handoff is None:
            return JSONResponse(
                HandoffGone(reason="no_handoff").model_dump(), status_code=404, headers=_NO_STORE
            )
        return JSONResponse(HandedOffAnswer.of(handoff).model_dump(), headers=_NO_STORE)


def _add_chat_page(router: APIRouter, prefix: str, page: FilePath) -> None:
    @router.get(prefix, include_in_schema=False)
    async def chat_page() -> HTTPResponse:
        if not page.is_file():
            return PlainTextResponse(
                "This server has no chat page installed (its static folder is missing).",
                status_code=404,
            )
        return FileResponse(page, media_type="text/html")

    if prefix != "/":

        @router.get(prefix.rstrip("/"), include_in_schema=False)
        async def chat_page_without_slash() -> RedirectResponse:
            return RedirectResponse(prefix, status_code=308)
