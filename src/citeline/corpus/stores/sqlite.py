"""The default corpus store: one SQLite file holding documents, passages and vectors.

The file is shared with the server's answer store and conversations, so every table here is
prefixed ``corpus_`` and this store's schema version lives in its own ``corpus_meta`` table.
This module holds the schema and its in-place migrations, the SQLite dialect and the
runner; the store itself is ``sql``'s, shared with PostgreSQL.

Threads: one connection per thread (``threading.local``), because the async server runs
searches in a thread pool and a shared connection would serialise them; WAL lets those
readers run while an ingest writes. Every connection is registered so ``close`` can close
them all from any thread. A write is one ``BEGIN IMMEDIATE`` transaction, which holds the
file against every other writer; a snapshot is one deferred read transaction.

Ranking is not here: the lexical search index (``citeline.corpus.search_index``) is derived
from these tables. Schema 2 kept an FTS5 table instead; it is migrated in place when the
file opens (the FTS5 table dropped, every document stamped generation 1), and the index is
built from it.

Vectors (``citeline[dense]``) are rows of ``corpus_vectors``, one per passage, float16
bytes; searching them is ``citeline.corpus.vectors``'s job, in process, because a loadable
extension such as sqlite-vec cannot be loaded by Pythons built without
``enable_load_extension`` (pyenv's default build, this project's CI among them). Meaning
vectors (``citeline.text.meaning``) are rows of ``corpus_meanings``: each text a document
is read by for meaning, on the document's first passage so that they go with it, float32
and indexed by their text's key, since an answer finds them by the text it reads, not by
passage. Schema 5 keys them by passage and text (schema 4 held one float vector a passage,
in another arithmetic): files of schemas 3 and 4 gain the empty table when they open, and
their next ingest with the extra fills it.

A full disk is a ``DiskFullError`` saying so, from every write, and the file is left as its
last commit left it (SQLite rolls back what it could not write). A file that cannot be
opened for writing because its disk is full (its ``-shm`` and ``-wal`` files cannot be
made) is opened read-only as its last commit left it: searches answer, writes say the disk
is full.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from citeline.corpus.errors import DiskFullError, IndexUnreadableError, SchemaVersionError
from citeline.corpus.stores.sql import (
    Connection,
    Dialect,
    Rows,
    Runner,
    SQLCorpusStore,
    Work,
    in_list,
)
from citeline.text.index_terms import ANALYSIS_VERSION

_T = TypeVar("_T")

SCHEMA_VERSION = "5"
# Versions this store migrates in place: 2 had an FTS5 table and no generations, 3 no
# meaning vectors, 4 one float vector a passage.
_MIGRATES_FROM = ("2", "3", "4")
# How long a writer waits for another writer (the server's answer store, another ingest)
# before giving up; a document's transaction takes milliseconds, so 5 s means a stuck peer.
_BUSY_TIMEOUT_MS = 5000

# What schema 3 added to schema 2: a document's generation, and the ids removed since.
_GENERATIONS = """
CREATE INDEX IF NOT EXISTS corpus_documents_generation ON corpus_documents(generation);
CREATE TABLE IF NOT EXISTS corpus_removed (id TEXT PRIMARY KEY, generation INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS corpus_removed_generation ON corpus_removed(generation);
INSERT OR IGNORE INTO corpus_meta(key, value) VALUES ('generation', '1');
"""

# What schema 5 holds beside schema 3: the vectors of the texts each document is read by for
# meaning, on its first passage, found by the text's key (``citeline.text.meaning``) and
# removed in the same transaction as the passage.
_MEANINGS = """
CREATE TABLE IF NOT EXISTS corpus_meanings (
    passage INTEGER NOT NULL REFERENCES corpus_passages(rowid),
    key BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (passage, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS corpus_meanings_key ON corpus_meanings(key);
"""

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corpus_documents (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    url TEXT,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    generation INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS corpus_passages (
    rowid INTEGER PRIMARY KEY,
    document INTEGER NOT NULL REFERENCES corpus_documents(rowid),
    start INTEGER NOT NULL,
    end INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS corpus_passages_document ON corpus_passages(document);
CREATE TABLE IF NOT EXISTS corpus_vectors (
    passage INTEGER PRIMARY KEY REFERENCES corpus_passages(rowid),
    vector BLOB NOT NULL
);
"""
    + _GENERATIONS
    + _MEANINGS
)


logger = logging.getLogger(__name__)

# How much of the file reads may map (SQLite maps no more than the file holds): past it,
# pages are read through the cache as before. 1 GiB covers a million synthetic passages.
_MMAP_BYTES = 1 << 30


class SQLiteDialect(Dialect):
    """SQLite's SQL: ``?`` parameters, JSON as text, ``IN (?, ...)`` lists of at most 1,000
    (under SQLite's 32,766 host parameters, 3.32+), a statement a row."""

    param = "?"
    json_param = "?"
    list_bound = 1000

    def members(self, statement: str, count: int) -> str:
        return in_list(statement, self.param, count)

    def member_params(self, values: Sequence[Any]) -> list[Any]:
        return list(values)

    def load_json(self, value: Any) -> Mapping[str, Any]:
        loaded: Mapping[str, Any] = json.loads(value)
        return loaded

    def execute_many(self, connection: Connection, statement: str, rows: Rows) -> None:
        _sqlite(connection).executemany(statement, rows)

    def insert_rows(self, connection: Connection, into: str, rows: Rows) -> None:
        marks = ", ".join("?" * len(rows[0]))
        self.execute_many(connection, f"INSERT INTO {into} VALUES ({marks})", rows)

    def new_rowids(self, connection: Connection, count: int) -> Iterator[int]:
        # As SQLite numbers a row without one: the largest rowid plus one.
        (first,) = connection.execute(
            "SELECT coalesce(max(rowid), 0) + 1 FROM corpus_documents", ()
        ).fetchone()
        return iter(range(first, first + count))


SQLITE = SQLiteDialect()


def _sqlite(connection: Connection) -> sqlite3.Connection:
    assert isinstance(connection, sqlite3.Connection)
    return connection


class SQLiteRunner(Runner):
    """A connection a thread to one file, its tables made or migrated when it opens."""

    dialect = SQLITE
    local = True

    def __init__(self, path: Path) -> None:
        self._path = path
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
        # Whether the file was opened read-only, its disk being full (see the module's note).
        self._read_only = False
        try:
            self._prepare()
        except DiskFullError as error:
            if not path.is_file():
                raise
            self._local = threading.local()
            self._closed = False
            self._read_only = True
            logger.warning("%s; searching the collection as its last commit left it", error)
            self._prepare()

    def read(self, work: Work[_T]) -> _T:
        return work(self._connection())

    def snapshot(self, work: Work[_T]) -> _T:
        connection = self._connection()
        # One read transaction: every statement of ``work`` reads the file as one commit left it.
        connection.execute("BEGIN")
        try:
            return work(connection)
        finally:
            connection.execute("COMMIT")

    def write(self, work: Work[_T]) -> _T:
        connection = self._connection()
        with self._transaction(connection):
            return work(connection)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError("this corpus is closed; open it again to use it")
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection
        with self._lock:
            connection = self._connect()
            self._connections.append(connection)
        self._local.connection = connection
        return connection

    def _connect(self) -> sqlite3.Connection:
        try:
            if self._read_only:
                # Immutable: SQLite makes no -shm or -wal file to read it.
                connection = sqlite3.connect(
                    f"{self._path.resolve().as_uri()}?immutable=1",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
            else:
                connection = sqlite3.connect(
                    self._path, isolation_level=None, check_same_thread=False
                )
        except sqlite3.DatabaseError as error:
            raise _unreadable(self._path, error) from error
        try:
            connection.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            if not self._read_only:
                connection.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL mode: a power cut may lose the last commits, never corrupt.
            connection.execute("PRAGMA synchronous = NORMAL")
            # Reads map the file instead of copying each page through SQLite's own cache
            # (2 MB a connection): a search's ten hits are ten random passages, and on
            # 10,000 synthetic passages (an 8.6 MB file) reading them cost 40 µs of CPU a
            # query through the cache, 29 µs mapped. Mapped pages are the system's page
            # cache, shared by every connection and process.
            connection.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")
        except sqlite3.DatabaseError as error:
            connection.close()
            raise _unreadable(self._path, error) from error
        return connection

    def _prepare(self) -> None:
        connection = self._connection()
        try:
            if self._read_only:
                self._check_versions(connection)
                return
            with self._transaction(connection):
                tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
                if "corpus_meta" in tables:
                    self._check_versions(connection)
                    if "corpus_removed" not in tables:
                        _migrate_from_fts5(connection)
                    if _schema(connection) != SCHEMA_VERSION:
                        _add_meanings(connection)
                else:
                    _run_script(connection, _SCHEMA)
                    connection.executemany(
                        "INSERT INTO corpus_meta(key, value) VALUES (?, ?)",
                        [
                            ("schema_version", SCHEMA_VERSION),
                            ("analysis_version", ANALYSIS_VERSION),
                        ],
                    )
        except sqlite3.DatabaseError as error:
            self.close()
            raise _unreadable(self._path, error) from error
        except BaseException:
            self.close()
            raise

    @contextmanager
    def _transaction(self, connection: sqlite3.Connection) -> Iterator[None]:
        """One write transaction: committed, or rolled back when the block raises. A full
        disk becomes a ``DiskFullError``; SQLite has then rolled the transaction back
        itself, so it is rolled back here only when one is still open."""
        try:
            if self._read_only:
                raise DiskFullError(
                    _disk_full(self._path, "SQLite cannot make its -wal and -shm files")
                )
            connection.execute("BEGIN IMMEDIATE")
            yield
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(error, sqlite3.DatabaseError) and _is_disk_full(self._path, error):
                raise DiskFullError(_disk_full(self._path, str(error))) from error
            raise

    def _check_versions(self, connection: sqlite3.Connection) -> None:
        meta = dict(connection.execute("SELECT key, value FROM corpus_meta").fetchall())
        schema, analysis = meta.get("schema_version"), meta.get("analysis_version")
        if schema not in (SCHEMA_VERSION, *_MIGRATES_FROM) or analysis != ANALYSIS_VERSION:
            raise SchemaVersionError(
                f"{self._path} holds a corpus index in format {schema} (analysis {analysis}), "
                f"but this citeline reads format {SCHEMA_VERSION} (analysis "
                f"{ANALYSIS_VERSION}). Ingest your sources again into a new file "
                "(--db NEW_FILE), or use the citeline version that wrote this one."
            )


class SQLiteStore(SQLCorpusStore):
    """A corpus store in one SQLite file; created with its tables when missing."""

    def __init__(self, path: Path) -> None:
        super().__init__(SQLiteRunner(path))


def _run_script(connection: sqlite3.Connection, script: str) -> None:
    # One statement at a time: executescript() would commit the open transaction.
    for statement in script.split(";"):
        if statement.strip():
            connection.execute(statement)


def _migrate_from_fts5(connection: sqlite3.Connection) -> None:
    """Schema 2 to 3, in the open's transaction: the documents are kept and stamped
    generation 1; the FTS5 table and the title keys it was ranked with go (the search
    index is built from the documents, and keys their titles itself)."""
    connection.execute(
        "ALTER TABLE corpus_documents ADD COLUMN generation INTEGER NOT NULL DEFAULT 1"
    )
    connection.execute("ALTER TABLE corpus_documents DROP COLUMN title_key")
    connection.execute("DROP TABLE IF EXISTS corpus_fts")
    _run_script(connection, _GENERATIONS)


def _schema(connection: sqlite3.Connection) -> str | None:
    row = connection.execute(
        "SELECT value FROM corpus_meta WHERE key = 'schema_version'"
    ).fetchone()
    return None if row is None else str(row[0])


def _add_meanings(connection: sqlite3.Connection) -> None:
    """Schema 3 or 4 to 5, in the open's transaction: the meaning vectors' table, empty
    (schema 4's were another arithmetic's: an answer embeds on demand what no document
    holds, and the next ingest with the extra fills it)."""
    connection.execute("DROP TABLE IF EXISTS corpus_meanings")
    connection.execute("DELETE FROM corpus_meta WHERE key = 'setting:meaning_model'")
    _run_script(connection, _MEANINGS)
    connection.execute(
        "UPDATE corpus_meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,)
    )


# SQLite's result codes for a full disk, and for an I/O error, which a full disk gives when
# the -shm file cannot grow or be made.
_SQLITE_FULL = 13
_SQLITE_IOERR = 10
# Free bytes under which an I/O error is taken for a full disk.
_NEARLY_FULL = 1 << 20


def _is_disk_full(path: Path, error: sqlite3.DatabaseError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return False
    if code & 0xFF == _SQLITE_FULL:
        return True
    if code & 0xFF != _SQLITE_IOERR:
        return False
    try:
        return shutil.disk_usage(path.resolve().parent).free < _NEARLY_FULL
    except OSError:
        return False


def _disk_full(path: Path, detail: str) -> str:
    return (
        f"The disk holding {path} is full ({detail}): free some space and run the command "
        "again. What was stored before is kept."
    )


def _unreadable(path: Path, error: sqlite3.DatabaseError) -> IndexUnreadableError | DiskFullError:
    if _is_disk_full(path, error):
        return DiskFullError(_disk_full(path, str(error)))
    return IndexUnreadableError(
        f"{path} cannot be opened as a citeline index ({error}). Check that the path names "
        "a SQLite file you can read and write, or give a new file name with --db."
    )
