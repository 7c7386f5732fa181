"""``create_app``: the ASGI application of ``citeline serve``, assembled from its parts.

Everything that can be wrong with the configuration is found here, before the server
listens: a missing verifying key, an unusable rate-limit storage, a database that cannot
be opened. The answering engine is injected (tests pass doubles; ``citeline serve``
passes nothing and gets ``citeline.answer`` over the corpus with the configured model).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from citeline.server.admission import FirstTokenGate
from citeline.server.answer_engine import AnswerEngine, CorpusAnswerEngine
from citeline.server.answer_stream import AnswerRunner
from citeline.server.cors import AllowedOrigins, PublicFiles
from citeline.server.errors import StartupError
from citeline.server.examples import collection_examples, load_examples
from citeline.server.guard import Guard
from citeline.server.metrics import ServerMetrics
from citeline.server.routes import ServerState, build_router
from citeline.server.settings import ServerSettings
from citeline.server.store import Stores, StoreUnavailableError, open_stores

if TYPE_CHECKING:
    from fastapi import APIRouter

    from citeline.corpus import Corpus
    from citeline.data import DataCatalog

STATIC_DIR = Path(__file__).parent / "static"
# Embedded answers that do their work before their first token at once, the rest waiting in
# order (``admission``): two overlap one answer's thread-pool search with another's ranking.
LOCAL_FIRST_TOKEN_SLOTS = 2

logger = logging.getLogger(__name__)


def create_app(
    settings: ServerSettings,
    *,
    engine: AnswerEngine | None = None,
    corpus: Corpus | None = None,
    stores: Stores | None = None,
    static_dir: Path = STATIC_DIR,
) -> FastAPI:
    """The app for ``settings``; raises ``StartupError`` with the fix when it cannot run.

    ``corpus`` defaults to the index in ``settings.database``, ``stores`` to the tables beside
    it, ``engine`` to ``citeline.answer`` with ``settings.model``. What the factory opens
    itself it closes when the app shuts down.
    """
    # Checked first: a server that could never answer says so before its database does.
    Guard.from_settings(settings, announce=False)
    opened: list[object] = []
    if stores is None:
        stores = open_stores(settings)
        opened.append(stores)
    # The rate limit is counted in the database by default, which every worker shares.
    guard = Guard.from_settings(settings, hits=stores.rate_hits)
    examples = load_examples(settings.examples, settings.project)
    if corpus is None:
        from citeline.corpus import Corpus

        corpus = Corpus.open(str(settings.database))
        opened.append(corpus)
    release = settings.release if settings.release is not None else corpus.release
    if not examples:
        examples = _headings_as_examples(corpus)
    if engine is None:
        from citeline.models import resolve_model

        data = _open_data(settings.project)
        if data is not None:
            opened.append(data)
        engine = CorpusAnswerEngine(
            corpus=corpus,
            model=resolve_model(
                settings.model,
                max_tokens=settings.max_tokens,
                context_tokens=settings.context_tokens,
            ),
            release=release,
            timeout_seconds=settings.answer_timeout,
            data=data,
            max_citations=settings.max_citations,
            # React-to-Me's readers saw its heading rule strip four shapes the strict rule
            # keeps (issue 15): a site serving its front end gets the tolerant rule.
            heading_rule="tolerant" if settings.wire == "reactome" else "strict",
        )
        _say_how_it_reads(corpus, engine)
    metrics = ServerMetrics()
    state = ServerState(
        settings=settings,
        release=release,
        guard=guard,
        engine=engine,
        runner=AnswerRunner(
            engine,
            timeout_seconds=settings.answer_timeout,
            metrics=metrics,
            max_chars=settings.answer_max_chars,
            first_token_gate=(
                FirstTokenGate(LOCAL_FIRST_TOKEN_SLOTS)
                if isinstance(engine, CorpusAnswerEngine) and engine.local
                else None
            ),
        ),
        stores=stores,
        corpus=corpus,
        metrics=metrics,
        examples=examples,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        for resource in reversed(opened):
            close = getattr(resource, "close", None)
            if callable(close):
                close()

    app = FastAPI(
        title="citeline",
        summary="Answers whose citations the server, not the model, decides.",
        description="The event stream is specified in contracts/answer_endpoint.md.",
        lifespan=lifespan,
        # Over the cap, 413 before the body is read (from Content-Length when it is sent,
        # else as the bytes arrive): an unbounded 100 MB POST cost 8 s of CPU and 380 MB.
        max_body_size=settings.max_body_bytes,
    )
    app.state.citeline = state
    app.include_router(build_router(state))
    if settings.wire == "reactome":
        app.include_router(_reactome_router(state, static_dir))
    app.add_exception_handler(StoreUnavailableError, _store_unavailable)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    if static_dir.is_dir():
        # Last, so every API route above wins; html=True serves index.html at "/".
        files = StaticFiles(directory=static_dir, html=True)
        app.mount("/", PublicFiles(files) if settings.allow_origins else files, name="page")
    else:

        @app.get("/", include_in_schema=False)
        async def no_page() -> PlainTextResponse:
            return PlainTextResponse(
                "This server has no search page installed (its static folder is missing); "
                "the API is under /v1, described at /docs.",
                status_code=404,
            )

    if settings.allow_origins:
        app.add_middleware(AllowedOrigins, origins=settings.allow_origins)
    return app


def _say_how_it_reads(corpus: Corpus, engine: CorpusAnswerEngine) -> None:
    """Say once, at start-up, when searches or the embedded model's answers go by words
    alone though more was asked for: no extra here, vectors not stored, meaning off."""
    note = corpus.retrieval_note
    if note is None and engine.local:
        from citeline.agent.meaning import words_only

        note = words_only()
    if note is not None:
        logger.warning("%s", note[:1].upper() + note[1:])


async def _store_unavailable(request: Request, error: Exception) -> JSONResponse:
    """A stored answer or conversation asked for while its store is out of reach: a 503
    that says to retry, not a 500 that says the server is broken."""
    logger.error("%s %s: the store is unavailable: %s", request.method, request.url.path, error)
    return JSONResponse(
        {"reason": "store_unavailable"}, status_code=503, headers={"Retry-After": "5"}
    )


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    """422 with where and why each field failed, and never the input itself: FastAPI's own
    body echoed every value back, so a 100 MB body came back as a 105 MB response, and a
    value that cannot be encoded (a lone surrogate) turned the 422 into a 500."""
    assert isinstance(error, RequestValidationError)
    detail = [
        {"type": each["type"], "loc": list(each["loc"]), "msg": each["msg"]}
        for each in error.errors()
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def _headings_as_examples(corpus: Corpus) -> tuple[str, ...]:
    """Example questions from the collection's own headings, when the owner gave none."""
    documents = corpus.documents()
    try:
        return collection_examples(document.title for document in documents)
    finally:
        close = getattr(documents, "close", None)
        if callable(close):
            close()


def _open_data(project: str | None) -> DataCatalog | None:
    """The project's tables and measures, or ``None`` without a project setting."""
    if project is None:
        return None
    from citeline.data import DataCatalog, DataError, load_project

    try:
        return DataCatalog.open(load_project(project))
    except DataError as error:
        raise StartupError(f"CITELINE_PROJECT={project}: {error}") from None


def _reactome_router(state: ServerState, static_dir: Path) -> APIRouter:
    """The reactome profile's routes, which need somewhere shared to keep handoffs."""
    from citeline.server.reactome_api import build_reactome_router

    if state.stores.handoffs is None:
        raise StartupError(
            "CITELINE_WIRE=reactome needs a handoff store, and the stores given to create_app "
            "have none; pass stores from open_stores, or use the native wire."
        )
    return build_reactome_router(state, state.stores.handoffs, static_dir)
