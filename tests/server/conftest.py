"""Fixtures of the server tests: signing keys, tokens, and real servers on loopback."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

# The helpers beside this file are imported by name; pytest's importlib mode does not
# put test folders on the path.
sys.path.insert(0, str(Path(__file__).parent))

from caller_keys import Keys, make_keys
from live_server import LiveServer, live_server

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
) -> Iterator[Callable[..., LiveServer]]:
    """``serve(engine, **settings)``: a live server, stopped at the end of the test."""
    with ExitStack() as stack:

        def start(engine: AnswerEngine | None = None, **overrides: Any) -> LiveServer:
            app = create_app(settings(**overrides), engine=engine)
            return stack.enter_context(live_server(app))

        yield start
