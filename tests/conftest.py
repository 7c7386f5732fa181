"""Fixtures shared by every test folder: PostgreSQL, Redis, and a scripted model provider.

``openai_server`` is a real local server speaking the OpenAI streaming protocol
(``tests/support/openai_stub.py``), with ``OPENAI_BASE_URL`` pointed at it for the test.

The services are named by ``CITELINE_TEST_POSTGRES_URL`` and ``CITELINE_TEST_REDIS_URL``,
which ``.ci/services start`` prints and CI sets; without them these tests are skipped with a
reason that says how to start the services. Each test gets its own PostgreSQL schema (its own
tables, migrated from nothing) and a Redis database emptied before and after it, so tests
never see each other's rows or counts.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from tests.support.openai_stub import ScriptedOpenAIServer

POSTGRES_ENV = "CITELINE_TEST_POSTGRES_URL"
REDIS_ENV = "CITELINE_TEST_REDIS_URL"
_HOW = 'start them with `eval "$(.ci/services start)"` (and `.ci/services stop` afterwards)'


def _required(env: str, what: str) -> str:
    value = os.environ.get(env, "").strip()
    if not value:
        pytest.skip(f"{what} not configured: {env} is unset; {_HOW}")
    return value


def postgres_url_in_schema(base_url: str, schema: str) -> str:
    """``base_url`` with every connection's search_path set to ``schema``."""
    parts = urlsplit(base_url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test's search indexes of PostgreSQL collections (kept under the user's cache
    folder) go to a folder of its own, never the real ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(autouse=True)
def _words_unless_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Collections are searched by words in every test that does not name another mode.

    A new collection is hybrid wherever the dense extra is installed, and the tests'
    installs have it; the suite's rankings and answers are written for BM25, and embedding
    every passage of Debian's documentation sites on each run would cost minutes. The tests
    of dense and hybrid search name their mode, and those of the default remove this."""
    monkeypatch.setenv("CITELINE_RETRIEVAL", "lexical")


@pytest.fixture
def searched_as_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Collections are searched in the mode they were built for (the product's default),
    for the tests of dense and hybrid search and of the default itself."""
    monkeypatch.delenv("CITELINE_RETRIEVAL", raising=False)


@contextmanager
def fresh_schema(base: str) -> Iterator[str]:
    """``base`` made to work in a new, empty schema of its database, dropped afterwards."""
    import psycopg

    schema = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield postgres_url_in_schema(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose connections all work in a fresh, empty schema."""
    with fresh_schema(_required(POSTGRES_ENV, "PostgreSQL")) as url:
        yield url


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis URL, emptied of whatever an earlier test counted there."""
    import redis

    url = _required(REDIS_ENV, "Redis")
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
def openai_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedOpenAIServer]:
    server = ScriptedOpenAIServer()
    server.start()
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-secret")
    try:
        yield server
    finally:
        server.stop()
