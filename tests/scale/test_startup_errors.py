"""Start-up against PostgreSQL and Redis: a database or rate-limit storage that cannot be used
stops the server, saying which setting to fix (it never starts and then fails every request);
a usable one is migrated exactly once, however many processes start together."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus
from citeline.corpus.stores.postgres import MIGRATIONS as CORPUS_MIGRATIONS
from citeline.database import postgres
from citeline.server.errors import StartupError
from citeline.server.settings import ServerSettings
from citeline.server.store import open_stores
from citeline.server.store.postgres import MIGRATIONS

# Port 9 (discard) on loopback: nothing listens there, so a connection is refused at once.
NOWHERE_POSTGRES = "postgresql://citeline:hunter2@127.0.0.1:9/citeline"
NOWHERE_REDIS = "redis://127.0.0.1:9/0"


def _serve(env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", "--open", "--port", "0"], env=env)
    return result.exit_code, result.output


def test_an_unreachable_database_stops_serve_naming_the_setting() -> None:
    code, output = _serve({"CITELINE_DATABASE_URL": NOWHERE_POSTGRES})
    assert code == 2
    assert "cannot connect to the database" in output
    assert "CITELINE_DATABASE_URL" in output
    assert "hunter2" not in output


def test_an_unreachable_redis_stops_serve_naming_the_setting(tmp_path: Path) -> None:
    db = tmp_path / "citeline.db"
    code, output = _serve({"CITELINE_DB": str(db), "CITELINE_RATE_LIMIT_STORAGE": NOWHERE_REDIS})
    assert code == 2
    assert "CITELINE_RATE_LIMIT_STORAGE" in output and "does not answer" in output


def test_answer_tables_migrated_by_a_newer_citeline_stop_start_up(postgres_url: str) -> None:
    settings = ServerSettings(database_url=postgres_url)
    open_stores(settings).close()
    with psycopg.connect(postgres_url) as connection:
        connection.execute("UPDATE citeline_schema SET version = 7 WHERE component = 'server'")
    with pytest.raises(StartupError, match="newer citeline than this one"):
        open_stores(settings)


def test_a_postgresql_release_older_than_supported_stops_start_up(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server under test is recent, so the bar is raised past it instead.
    monkeypatch.setattr(postgres, "MIN_SERVER_VERSION", 990000)
    with pytest.raises(StartupError, match=r"citeline needs 99\.0 or newer: upgrade the server"):
        open_stores(ServerSettings(database_url=postgres_url))


def test_answer_tables_are_created_once_and_reopened_as_they_are(postgres_url: str) -> None:
    settings = ServerSettings(database_url=postgres_url)
    for _ in range(2):
        open_stores(settings).close()
    with psycopg.connect(postgres_url) as connection:
        version = connection.execute(
            "SELECT version FROM citeline_schema WHERE component = 'server'"
        ).fetchone()
    assert version == (len(MIGRATIONS),)


def test_processes_starting_together_migrate_one_fresh_database_once(postgres_url: str) -> None:
    def start_up(number: int) -> None:
        if number % 2:
            Corpus.open(postgres_url).close()
        else:
            open_stores(ServerSettings(database_url=postgres_url)).close()

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(start_up, range(6)))
    with psycopg.connect(postgres_url) as connection:
        versions = dict(connection.execute("SELECT component, version FROM citeline_schema"))
    assert versions == {"corpus": len(CORPUS_MIGRATIONS), "server": len(MIGRATIONS)}
