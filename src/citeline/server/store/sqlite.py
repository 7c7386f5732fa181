"""The answer, conversation and handoff stores in a SQLite file (by default the corpus's own).

Tables ``answers``, ``conversations`` and ``handoffs`` sit beside the corpus's ``corpus_*``
tables; WAL lets the corpus read while a store writes. One connection per file, serialised
by a lock and used from worker threads, so the event loop never waits on the disk. This
module holds the schema, the SQLite dialect and the runner; the stores themselves are
``sql``'s, shared with PostgreSQL. Deliberately not here: what is stored (``base``), the
queries (``sql``) or when it is stored (the server).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from citeline.server.errors import StartupError
from citeline.server.store.base import Retention, Stores, StoreUnavailableError
from citeline.server.store.sql import Connection, Dialect, Runner, Work, sql_stores

_T = TypeVar("_T")

SQLITE = Dialect(
    param="?",
    json_param="?",
    load_json=json.loads,
    # rowid is insertion order: of entries written in one clock tick, the last one stays.
    row_key="rowid",
    no_limit="LIMIT -1",
    # BEGIN IMMEDIATE already holds the whole file for the writer.
    lock_row="",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    text TEXT NOT NULL,
    citations TEXT NOT NULL,
    release TEXT,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_age ON answers (created_at);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    messages TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    owner TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS conversations_by_use ON conversations (updated_at);
CREATE TABLE IF NOT EXISTS rate_hits (identity TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS rate_hits_by_caller ON rate_hits (identity, at);
CREATE INDEX IF NOT EXISTS rate_hits_by_age ON rate_hits (at);
"""

# Only for stores that keep handoffs (the reactome profile's), so a native file has no
# table it never uses.
_HANDOFF_SCHEMA = """
CREATE TABLE IF NOT EXISTS handoffs (
    id TEXT PRIMARY KEY,
    answer_id TEXT NOT NULL,
    question TEXT NOT NULL,
    text TEXT NOT NULL,
    citations TEXT NOT NULL,
    release TEXT,
    answered_at REAL NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS handoffs_by_age ON handoffs (created_at);
"""


def _add_owner_column(connection: sqlite3.Connection) -> None:
    """Give a file made before conversations had owners its ``owner`` column; its old
    conversations keep ``''``, which no caller matches, so nobody can continue them."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(conversations)")}
    if "owner" not in columns:
        connection.execute("ALTER TABLE conversations ADD COLUMN owner TEXT NOT NULL DEFAULT ''")


class SQLiteRunner(Runner):
    """One connection, one lock, and a way to run work on it off the event loop."""

    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        try:
            self._connection = sqlite3.connect(
                path, check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.executescript(_SCHEMA)
            _add_owner_column(self._connection)
        except sqlite3.Error as error:
            raise StartupError(
                f"The database {path} cannot hold answers ({error}); check that the file is "
                "a SQLite database this user can write, or point --db elsewhere."
            ) from None
        self._lock = threading.Lock()
        self._path = path

    def add_handoffs(self) -> None:
        """Create the handoff table if missing (only stores that keep handoffs need it)."""
        try:
            with self._lock:
                self._connection.executescript(_HANDOFF_SCHEMA)
        except sqlite3.Error as error:
            raise StartupError(
                f"The database {self._path} cannot hold handoffs ({error}); check that the "
                "file is a SQLite database this user can write, or point --db elsewhere."
            ) from None

    def _locked(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        with self._lock:
            return work(self._connection)

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        try:
            return await asyncio.to_thread(self._locked, work)
        except sqlite3.OperationalError as error:
            # Locked past the busy timeout, a full disk, an I/O error: the store is out of
            # reach for now; the request itself was not wrong.
            raise StoreUnavailableError(f"the SQLite store could not be used: {error}") from error

    async def read(self, work: Work[_T]) -> _T:
        return await self._run(work)

    async def write(self, work: Work[_T], *, retry: bool = True) -> _T:
        # ``retry`` has nothing to do here: one local file has no connection to lose.
        def transaction(connection: Connection) -> _T:
            # IMMEDIATE takes the write lock up front, so another process cannot interleave.
            connection.execute("BEGIN IMMEDIATE", ())
            try:
                result = work(connection)
            except BaseException:
                connection.execute("ROLLBACK", ())
                raise
            connection.execute("COMMIT", ())
            return result

        return await self._run(transaction)

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def open_sqlite_stores(
    path: Path,
    *,
    answers: Retention,
    conversations: Retention,
    handoffs: Retention | None = None,
    clock: Callable[[], float] = time.time,
) -> Stores:
    """The stores in the SQLite file at ``path`` (created if missing), on one connection;
    a handoff store only when ``handoffs`` says how long to keep them."""
    runner = SQLiteRunner(path)
    if handoffs is not None:
        runner.add_handoffs()
    return sql_stores(
        runner, answers=answers, conversations=conversations, handoffs=handoffs, clock=clock
    )
