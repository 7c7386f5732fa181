"""A server that fails to start closes everything it had opened by then.

``create_app`` opens the stores, then the corpus, then the project's tables and the model;
a failure at any step (here the model setting, the last) must not leave the earlier ones
open: a supervisor that retries a bad start would otherwise pile up a connection pool or
an open index file per try. Checked from outside the objects: the process's open files on
SQLite, the database's sessions on PostgreSQL.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from citeline.corpus import Corpus
from citeline.models import ModelSpecError
from citeline.server import ServerSettings, create_app


def _files_open_on(path: Path) -> int:
    """How many of this process's file descriptors point at ``path`` or its -wal, -shm."""
    names = {str(path), f"{path}-wal", f"{path}-shm"}
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") in names
        except OSError:
            continue
    return count


def _now_on(url: str) -> datetime:
    """The database's clock, which stamps each session's start."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    now: datetime = row[0]
    return now


def _sessions_on(url: str, since: datetime) -> int:
    """The database's sessions begun at ``since`` or later, other than the one counting
    them: an earlier test's session whose client has closed can stay in pg_stat_activity
    for a while, and counted once before a start and gone after, it read as one session
    fewer (CI, 1 of 2,515)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_start >= %s",
            (since,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def _settled(count: Callable[[], int], seconds: float = 10.0) -> int:
    """``count()`` once it reads the same three times running, 50 ms apart: a PostgreSQL
    session whose client has closed stays in pg_stat_activity until its server process
    exits, so a count taken right after a close (the test's own ``Corpus.open``) once read
    one session that was already going (CI, 1 of 2,178)."""
    deadline = time.monotonic() + seconds
    readings = [count()]
    while len(readings) < 3 or len(set(readings[-3:])) > 1:
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
        readings.append(count())
    return readings[-1]


def _open_things(backend: dict[str, Any], db_path: Path) -> Callable[[], int]:
    if "database_url" in backend:
        url = backend["database_url"]
        since = _now_on(url)
        return lambda: _settled(lambda: _sessions_on(url, since))
    return lambda: _files_open_on(db_path)


def test_a_start_that_fails_at_its_model_closes_the_corpus_and_stores_it_opened(
    settings: Callable[..., ServerSettings],
    database: str,
    db_path: Path,
    backend: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Corpus.open(database):
        pass
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    open_things = _open_things(backend, db_path)
    before = open_things()
    with pytest.raises(ModelSpecError) as failed:
        create_app(settings(model="anthropic:claude-sonnet-4-5"))
    # ``failed`` holds the traceback, and with it every frame's locals: an object opened
    # and never closed would still be open here.
    assert failed.value is not None
    assert open_things() == before


def test_a_start_that_succeeds_keeps_them_open_until_shutdown(
    settings: Callable[..., ServerSettings],
    database: str,
    db_path: Path,
    backend: dict[str, Any],
) -> None:
    from tests.support.app_servers import in_process
    from tests.support.engine_doubles import CountingEngine

    with Corpus.open(database):
        pass
    open_things = _open_things(backend, db_path)
    before = open_things()
    app = create_app(settings(), engine=CountingEngine())
    with in_process(app):
        assert open_things() > before
    assert open_things() == before
