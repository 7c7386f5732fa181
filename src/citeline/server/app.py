"""``create_app``: the ASGI application of ``citeline serve``, assembled from its parts.

Everything that can be wrong with the configuration is found here, before the server
listens: a missing verifying key, an unusable rate-limit storage, a database that cannot
be opened. The answering engine is injected (tests pass doubles; ``citeline serve``
passes nothing and gets ``citeline.answer`` over the corpus with the configured model).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager
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
from citeline.server.routes import ServerState
from citeline.server.settings import ServerSettings
from citeline.server.store import Stores, StoreUnavailableError, open_stores
from citeline.server.wires import Wire, wire_named

if TYPE_CHECKING:
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
    wire: Wire | None = None,
) -> FastAPI:
    """The app for ``settings``; raises ``StartupError`` with the fix when it cannot run.

    ``corpus`` defaults to the index in ``settings.database``, ``stores`` to the tables beside
    it, ``engine`` to ``citeline.answer`` with ``settings.model``, ``wire`` to the one
    ``settings.wire`` names (its routes, encoding and heading rule). What the factory opens
    itself it closes when the app shuts down, or at once when a later step of the start fails.
    """
    if wire is None:
        wire = wire_named(settings.wire)
    # Checked first: a server that could never answer says so before its database does.
    Guard.check(settings)
    with ExitStack() as opened:
        state = _open_state(settings, opened, wire, engine=engine, corpus=corpus, stores=stores)
        app = _application(settings, state, wire, static_dir)
        # Started: from here the app's lifespan closes what was opened, at shutdown.
        app.state.opened = opened.pop_all()
    return app


def _open_state(
    settings: ServerSettings,
    opened: ExitStack,
    wire: Wire,
    *,
    engine: AnswerEngine | None,
    corpus: Corpus | None,
    stores: Stores | None,
) -> ServerState:
    """Everything the app serves with, each thing it opens entered into ``opened``."""
    if stores is None:
        stores = open_stores(settings, keep_handoffs=wire.keeps_handoffs)
        opened.callback(stores.close)
    # The rate limit is counted in the database by default, which every worker shares.
    guard = Guard.from_settings(settings, hits=stores.rate_hits)
    examples = load_examples(settings.examples, settings.project)
    if corpus is None:
        from citeline.corpus import Corpus

        corpus = opened.enter_context(Corpus.open(str(settings.database)))
    release = settings.release if settings.release is not None else corpus.release
    if not examples:
        examples = _headings_as_examples(corpus)
    if engine is None:
        engine = _default_engine(settings, opened, wire, corpus, release)
    metrics = ServerMetrics()
    return ServerState(
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


def _default_engine(
    settings: ServerSettings, opened: ExitStack, wire: Wire, corpus: Corpus, release: str | None
) -> CorpusAnswerEngine:
    """``citeline.answer`` over ``corpus`` (and the project's tables) with the set model."""
    from citeline.models import resolve_model

    data = _open_data(settings.project)
    if data is not None:
        opened.enter_context(data)
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
        heading_rule=wire.heading_rule,
    )
    _say_how_it_reads(corpus, engine)
    return engine


def _application(
    settings: ServerSettings, state: ServerState, wire: Wire, static_dir: Path
) -> FastAPI:
    """The FastAPI app over ``state``: the wire's routes, the error pages, the page, CORS."""
    app = FastAPI(
        title="citeline",
        summary="Answers whose citations the server, not the model, decides.",
        description="The event stream is specified in contracts/answer_endpoint.md.",
        lifespan=_close_at_shutdown,
        # Over the cap, 413 before the body is read (from Content-Length when it is sent,
        # else as the bytes arrive): an unbounded 100 MB POST cost 8 s of CPU and 380 MB.
        max_body_size=settings.max_body_bytes,
    )
    app.state.citeline = state
    app.state.opened = ExitStack()
    for router in wire.routers(state, static_dir):
        app.include_router(router)
    app.add_exception_handler(StoreUnavailableError, _store_unavailable)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    _mount_page(app, settings, static_dir)
    if settings.allow_origins:
        app.add_middleware(AllowedOrigins, origins=settings.allow_origins)
    return app


@asynccontextmanager
async def _close_at_shutdown(app: FastAPI) -> AsyncIterator[None]:
    """What ``create_app`` opened (``app.state.opened``), closed in reverse when it stops.
    Only on a shutdown that ran its course: a cancelled lifespan (the process is going)
    leaves them to the process's end, as a resource closed mid-cancellation could raise
    into uvicorn's log."""
    opened: ExitStack = app.state.opened
    yield
    opened.close()


def _mount_page(app: FastAPI, settings: ServerSettings, static_dir: Path) -> None:
    """The search page at ``/``, last, so every API route wins over a file of the page."""
    if static_dir.is_dir():
        # html=True serves index.html at "/".
        files = StaticFiles(directory=static_dir, html=True)
        app.mount("/", PublicFiles(files) if settings.allow_origins else files, name="page")
        return

    @app.get("/", include_in_schema=False)
    async def no_page() -> PlainTextResponse:
        return PlainTextResponse(
            "This server has no search page installed (its static folder is missing); "
            "the API is under /v1, described at /docs.",
            status_code=404,
        )


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
