"""Fixtures of the server tests: signing keys, tokens, and the app served.

``serve`` runs the app in process (no socket: most contract tests only read a status, a
body or a stream that ends); ``serve_live`` runs it under uvicorn on loopback, for the
tests that need a real socket (a hang-up, raw bytes on the wire, a fuzzer over HTTP).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_servers import Served, in_process, live_server
from tests.support.caller_keys import Keys, make_keys

from citeline.server import AnswerEngine, ServerSettings, create_app
from citeline.server.tokens import mint_token


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    return make_keys(tmp_path_factory.mktemp("keys"))


@pytest.fixture
def token(keys: Keys) -> Callable[..., str]:
    """``token(sub, ttl=120, audience="citeline", rsa=False)``: a real signed caller token."""

    def make(
        sub: str = "reader-1", *, ttl: int = 120, audience: str = "citeline", rsa: bool = False
    ) -> str:
        key = keys.rsa_private if rsa else keys.ed25519_private
        return mint_token(key, subject=sub, ttl_seconds=ttl, audience=audience, now=time.time())

    return make


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "citeline.db"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The settings that pick a backend: one SQLite file and in-process rate limits, or
    PostgreSQL and Redis (skipped, saying how to start them, when they are not configured)."""
    if request.param == "sqlite":
        return {}
    return {
        "database_url": request.getfixturevalue("postgres_url"),
        "rate_limit_storage": request.getfixturevalue("redis_url"),
    }


@pytest.fixture
def database(db_path: Path, backend: dict[str, Any]) -> str:
    """Where this test's server keeps its corpus and answers, to ingest into before serving."""
    return str(backend.get("database_url", db_path))


@pytest.fixture
def settings(keys: Keys, db_path: Path, backend: dict[str, Any]) -> Callable[..., ServerSettings]:
    """``settings(**overrides)``: guarded settings on this test's database, per backend."""

    def make(**overrides: Any) -> ServerSettings:
        values: dict[str, Any] = {"db": db_path, "caller_key_file": keys.public_file, **backend}
        values.update(overrides)
        return ServerSettings(**values)

    return make


@pytest.fixture
def serve(
    settings: Callable[..., ServerSettings],
) -> Iterator[Callable[..., Served]]:
    """``serve(engine, **settings)``: the app in process, its lifespan ended after the test."""
    with ExitStack() as stack:

        def start(engine: AnswerEngine | None = None, **overrides: Any) -> Served:
            app = create_app(settings(**overrides), engine=engine)
            return stack.enter_context(in_process(app))

        yield start


@pytest.fixture
def serve_live(
    settings: Callable[..., ServerSettings],
) -> Iterator[Callable[..., Served]]:
    """``serve_live(engine, **settings)``: a live server on loopback, stopped after the test."""
    with ExitStack() as stack:

        def start(engine: AnswerEngine | None = None, **overrides: Any) -> Served:
            app = create_app(settings(**overrides), engine=engine)
            return stack.enter_context(live_server(app))

        yield start
