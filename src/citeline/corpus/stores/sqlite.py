"""The default corpus store: one SQLite file holding documents, passages and vectors.

The file is shared with the server's answer store and conversations, so every table here is
prefixed ``corpus_`` and this store's schema version lives in its own ``corpus_meta`` table.

Threads: one connection per thread (``threading.local``), because the async server runs
searches in a thread pool and a shared connection would serialise them; WAL lets those
readers run while an ingest writes. Every connection is registered so ``close`` can close
them all from any thread.

Ranking is not here: the lexical search index (``citeline.corpus.search_index``) is derived
from these tables. Each write transaction bumps ``generation`` in ``corpus_meta`` and stamps
the documents it wrote with it; a removed document leaves its id and generation in
``corpus_removed``, so the index can ask what changed since the generation it holds.
Schema 2 kept an FTS5 table instead; it is migrated in place when the file opens (the FTS5
table dropped, every document stamped generation 1), and the index is built from it.

Vectors (``citeline[dense]``) are rows of ``corpus_vectors``, one per passage, written after
the passage by ingest's embedding stage and removed in the same transaction as their
passage. They are float16 bytes; searching them is ``citeline.corpus.vectors``'s job, in
process, because a loadable extension such as sqlite-vec cannot be loaded by Pythons built
without ``enable_load_extension`` (pyenv's default build, this project's CI among them).
Meaning vectors (``citeline.corpus.meaning``) are rows of ``corpus_meanings``: each text a
document is read by for meaning, on the document's first passage so that they go with it,
float32 and indexed by their text's key, since an answer finds them by the text it reads,
not by passage. Schema 5 keys them by passage and text (schema 4 held one float vector a
passage, in another arithmetic): files of schemas 3 and 4 gain the empty table when they
open, and their next ingest with the extra fills it.

A full disk is a ``DiskFullError`` saying so, from every write, and the file is left as its
last commit left it (SQLite rolls back what it could not write). A file that cannot be
opened for writing because its disk is full (its ``-shm`` and ``-wal`` files cannot be
made) is opened read-only as its last commit left it: searches answer, writes say the disk
is full.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from citeline.corpus.analysis import ANALYSIS_VERSION
from citeline.corpus.documents import Document, Hit
from citeline.corpus.errors import DiskFullError, IndexUnreadableError, SchemaVersionError
from citeline.corpus.stores.base import (
    Candidate,
    CorpusStore,
    DocumentVersion,
    IndexableDocument,
    IndexedDocument,
    StoreChanges,
)

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
# meaning, on its first passage, found by the text's key (``citeline.corpus.meaning``) and
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

# Documents with passages and no meaning vector on their first passage (which holds them all).
_UNREAD = """
WHERE EXISTS (SELECT 1 FROM corpus_passages AS p WHERE p.document = d.rowid)
AND NOT EXISTS (
    SELECT 1 FROM corpus_meanings AS m
    WHERE m.passage = (SELECT min(p.rowid) FROM corpus_passages AS p WHERE p.document = d.rowid)
)
"""

_HITS = """
SELECT p.rowid, d.id, d.url, d.title, substr(d.text, p.start + 1, p.end - p.start),
       p.start, p.end
FROM corpus_passages AS p
JOIN corpus_documents AS d ON d.rowid = p.document
WHERE p.rowid IN ({marks})
"""

logger = logging.getLogger(__name__)

# How much of the file reads may map (SQLite maps no more than the file holds): past it,
# pages are read through the cache as before. 1 GiB covers a million synthetic passages.
_MMAP_BYTES = 1 << 30
_EMPTY_DIGEST = 0
# Ids per ``IN (...)`` statement when reading documents back for the search index.
_IDS_PER_STATEMENT = 1000


class SQLiteStore(CorpusStore):
    """A corpus store in one SQLite file; created with its tables when missing."""

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

    # -- connections -------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError("this corpus is closed; open it again to use it")
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection
        with self._lock:
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
                # Reads map the file instead of copying each page through SQLite's own
                # cache (2 MB a connection): a search's ten hits are ten random passages,
                # and on 10,000 synthetic passages (an 8.6 MB file) reading them cost 40 µs
                # of CPU a query through the cache, 29 µs mapped. Mapped pages are the
                # system's page cache, shared by every connection and process.
                connection.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")
            except sqlite3.DatabaseError as error:
                connection.close()
                raise _unreadable(self._path, error) from error
            self._connections.append(connection)
        self._local.connection = connection
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
                        self._migrate_from_fts5(connection)
                    if self._schema(connection) != SCHEMA_VERSION:
                        self._add_meanings(connection)
                else:
                    # One statement at a time: executescript() would commit this transaction.
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            connection.execute(statement)
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

    @staticmethod
    def _migrate_from_fts5(connection: sqlite3.Connection) -> None:
        """Schema 2 to 3, in the open's transaction: the documents are kept and stamped
        generation 1; the FTS5 table and the title keys it was ranked with go (the search
        index is built from the documents, and keys their titles itself)."""
        connection.execute(
            "ALTER TABLE corpus_documents ADD COLUMN generation INTEGER NOT NULL DEFAULT 1"
        )
        connection.execute("ALTER TABLE corpus_documents DROP COLUMN title_key")
        connection.execute("DROP TABLE IF EXISTS corpus_fts")
        for statement in _GENERATIONS.split(";"):
            if statement.strip():
                connection.execute(statement)

    @staticmethod
    def _schema(connection: sqlite3.Connection) -> str | None:
        row = connection.execute(
            "SELECT value FROM corpus_meta WHERE key = 'schema_version'"
        ).fetchone()
        return None if row is None else str(row[0])

    @staticmethod
    def _add_meanings(connection: sqlite3.Connection) -> None:
        """Schema 3 or 4 to 5, in the open's transaction: the meaning vectors' table, empty
        (schema 4's were another arithmetic's: an answer embeds on demand what no document
        holds, and the next ingest with the extra fills it)."""
        connection.execute("DROP TABLE IF EXISTS corpus_meanings")
        connection.execute("DELETE FROM corpus_meta WHERE key = 'setting:meaning_model'")
        for statement in _MEANINGS.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute(
            "UPDATE corpus_meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,)
        )

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()

    # -- writing -----------------------------------------------------------------------

    def put_many(self, versions: Sequence[DocumentVersion]) -> None:
        # One transaction for the batch: measured on SciFact (5,183 abstracts), one
        # transaction per document wrote 400 MB of WAL for a 15 MB file. Within it, one
        # statement per kind of row rather than three per document: 15,600 statements cost
        # 0.11 s of SciFact's ingest.
        if not versions:
            return
        # The last version of an id given twice wins, as if each had been put in turn.
        latest = {version.document.id: version for version in versions}
        connection = self._connection()
        with self._transaction(connection):
            digest = self._digest(connection)
            generation = self._next_generation(connection)
            old = self._stored(connection, list(latest))
            # New documents are numbered as SQLite numbers a row without one (the largest
            # rowid plus one), so passage and document ids are what one insert at a time gave.
            (next_rowid,) = connection.execute(
                "SELECT coalesce(max(rowid), 0) + 1 FROM corpus_documents"
            ).fetchone()
            added: list[tuple[object, ...]] = []
            passages: list[tuple[int, int, int]] = []
            for doc_id, version in latest.items():
                document = version.document
                row = (
                    document.title,
                    document.url,
                    document.text,
                    _metadata_json(document),
                    version.source,
                    version.content_hash,
                    generation,
                )
                before = old.get(doc_id)
                if before is None:
                    rowid = next_rowid
                    next_rowid += 1
                    added.append((*row, doc_id, rowid))
                else:
                    rowid, old_hash = before
                    self._unindex(connection, rowid)
                    digest ^= _member(doc_id, old_hash)
                    connection.execute(
                        "UPDATE corpus_documents SET title = ?, url = ?, text = ?, metadata = ?, "
                        "source = ?, content_hash = ?, generation = ? WHERE rowid = ?",
                        (*row, rowid),
                    )
                digest ^= _member(doc_id, version.content_hash)
                passages.extend((rowid, p.start, p.end) for p in version.passages)
            connection.executemany(
                "INSERT INTO corpus_documents(title, url, text, metadata, source, "
                "content_hash, generation, id, rowid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                added,
            )
            # Most collections have never lost a document: no statement per added one then.
            if connection.execute("SELECT 1 FROM corpus_removed LIMIT 1").fetchone():
                connection.executemany(
                    "DELETE FROM corpus_removed WHERE id = ?", [(row[7],) for row in added]
                )
            connection.executemany(
                "INSERT INTO corpus_passages(document, start, end) VALUES (?, ?, ?)", passages
            )
            self._changed(connection, digest)

    @staticmethod
    def _stored(connection: sqlite3.Connection, doc_ids: list[str]) -> dict[str, tuple[int, str]]:
        """The rowid and content hash of each of ``doc_ids`` already stored."""
        found: dict[str, tuple[int, str]] = {}
        for start in range(0, len(doc_ids), _IDS_PER_STATEMENT):
            chunk = doc_ids[start : start + _IDS_PER_STATEMENT]
            found.update(
                (doc_id, (rowid, content_hash))
                for doc_id, rowid, content_hash in connection.execute(
                    "SELECT id, rowid, content_hash FROM corpus_documents "
                    f"WHERE id IN ({', '.join('?' * len(chunk))})",
                    chunk,
                )
            )
        return found

    def delete(self, doc_id: str) -> None:
        connection = self._connection()
        with self._transaction(connection):
            old = connection.execute(
                "SELECT rowid, content_hash FROM corpus_documents WHERE id = ?", (doc_id,)
            ).fetchone()
            if old is not None:
                rowid, old_hash = old
                self._unindex(connection, rowid)
                connection.execute("DELETE FROM corpus_documents WHERE rowid = ?", (rowid,))
                connection.execute(
                    "INSERT OR REPLACE INTO corpus_removed(id, generation) VALUES (?, ?)",
                    (doc_id, self._next_generation(connection)),
                )
                self._changed(connection, self._digest(connection) ^ _member(doc_id, old_hash))

    def _unindex(self, connection: sqlite3.Connection, rowid: int) -> None:
        connection.execute(
            "DELETE FROM corpus_meanings WHERE passage IN "
            "(SELECT rowid FROM corpus_passages WHERE document = ?)",
            (rowid,),
        )
        removed = connection.execute(
            "DELETE FROM corpus_vectors WHERE passage IN "
            "(SELECT rowid FROM corpus_passages WHERE document = ?)",
            (rowid,),
        ).rowcount
        if removed:
            self._bump_vectors(connection)
        connection.execute("DELETE FROM corpus_passages WHERE document = ?", (rowid,))

    @staticmethod
    def _next_generation(connection: sqlite3.Connection) -> int:
        row = connection.execute(
            "UPDATE corpus_meta SET value = CAST(value AS INTEGER) + 1 "
            "WHERE key = 'generation' RETURNING value"
        ).fetchone()
        return int(row[0])

    @staticmethod
    def _digest(connection: sqlite3.Connection) -> int:
        row = connection.execute(
            "SELECT value FROM corpus_meta WHERE key = 'content_digest'"
        ).fetchone()
        return int(row[0], 16) if row else _EMPTY_DIGEST

    @staticmethod
    def _changed(connection: sqlite3.Connection, digest: int) -> None:
        connection.execute(
            "INSERT OR REPLACE INTO corpus_meta(key, value) VALUES ('content_digest', ?)",
            (f"{digest:032x}",),
        )
        # A release label names the collection as it was ingested; any change ends it.
        connection.execute("DELETE FROM corpus_meta WHERE key = 'release_label'")

    def set_release_label(self, label: str | None) -> None:
        connection = self._connection()
        with self._transaction(connection):
            if label is None:
                connection.execute("DELETE FROM corpus_meta WHERE key = 'release_label'")
            else:
                connection.execute(
                    "INSERT OR REPLACE INTO corpus_meta(key, value) VALUES ('release_label', ?)",
                    (label,),
                )

    # -- reading -----------------------------------------------------------------------

    def identity(self) -> str:
        connection = self._connection()
        row = connection.execute("SELECT value FROM corpus_meta WHERE key = 'identity'").fetchone()
        if row is None:
            with self._transaction(connection):
                connection.execute(
                    "INSERT OR IGNORE INTO corpus_meta(key, value) VALUES ('identity', ?)",
                    (secrets.token_hex(16),),
                )
            row = connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'identity'"
            ).fetchone()
        return str(row[0])

    def generation(self) -> int:
        row = (
            self._connection()
            .execute("SELECT value FROM corpus_meta WHERE key = 'generation'")
            .fetchone()
        )
        return 0 if row is None else int(row[0])

    def changes_since(self, generation: int) -> StoreChanges:
        connection = self._connection()
        # One read transaction: the generation and the lists come from one snapshot.
        connection.execute("BEGIN")
        try:
            now = self.generation()
            changed = connection.execute(
                "SELECT id FROM corpus_documents WHERE generation > ? ORDER BY rowid",
                (generation,),
            ).fetchall()
            removed = connection.execute(
                "SELECT id FROM corpus_removed WHERE generation > ?", (generation,)
            ).fetchall()
        finally:
            connection.execute("COMMIT")
        return StoreChanges(now, [row[0] for row in changed], [row[0] for row in removed])

    def indexable(self, doc_ids: Sequence[str]) -> Iterator[IndexableDocument]:
        connection = self._connection()
        # Bounded by SQLite's 32,766 host parameters (3.32+); callers pass batches of 1,000.
        for start in range(0, len(doc_ids), _IDS_PER_STATEMENT):
            chunk = doc_ids[start : start + _IDS_PER_STATEMENT]
            marks = ", ".join("?" * len(chunk))
            documents = connection.execute(
                f"SELECT rowid, id, title, text FROM corpus_documents WHERE id IN ({marks})",
                chunk,
            ).fetchall()
            spans: dict[int, list[tuple[int, int, int]]] = {}
            rowids = [row[0] for row in documents]
            if rowids:
                for passage, document, begin, end in connection.execute(
                    "SELECT rowid, document, start, end FROM corpus_passages WHERE document "
                    f"IN ({', '.join('?' * len(rowids))}) ORDER BY document, start",
                    rowids,
                ):
                    spans.setdefault(document, []).append((passage, begin, end))
            for rowid, doc_id, title, text in documents:
                yield IndexableDocument(doc_id, title, text, tuple(spans.get(rowid, ())))

    def hits(self, candidates: Sequence[Candidate]) -> list[Hit]:
        if not candidates:
            return []
        rows = self._connection().execute(
            _hit_statement(len(candidates)), [c.passage for c in candidates]
        )
        found = {row[0]: row for row in rows}
        # Positional arguments and no slicing of each row: 10 % of reading ten hits.
        return [
            Hit(row[1], row[2], row[3], c.score, row[4], row[5], row[6])
            for c in candidates
            if (row := found.get(c.passage)) is not None
        ]

    # -- vectors -----------------------------------------------------------------------

    def unembedded(self, limit: int) -> list[tuple[int, str]]:
        rows = (
            self._connection()
            .execute(
                "SELECT p.rowid, d.title, substr(d.text, p.start + 1, p.end - p.start) "
                "FROM corpus_passages AS p JOIN corpus_documents AS d ON d.rowid = p.document "
                "WHERE NOT EXISTS (SELECT 1 FROM corpus_vectors AS v WHERE v.passage = p.rowid) "
                "ORDER BY p.rowid LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [(rowid, f"{title}\n{text}") for rowid, title, text in rows]

    def count_unembedded(self) -> int:
        row = (
            self._connection()
            .execute(
                "SELECT count(*) FROM corpus_passages AS p WHERE NOT EXISTS "
                "(SELECT 1 FROM corpus_vectors AS v WHERE v.passage = p.rowid)"
            )
            .fetchone()
        )
        return int(row[0])

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        connection = self._connection()
        with self._transaction(connection):
            connection.executemany(
                "INSERT OR REPLACE INTO corpus_vectors(passage, vector) "
                "SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM corpus_passages WHERE rowid = ?1)",
                rows,
            )
            self._bump_vectors(connection)

    def clear_vectors(self) -> None:
        connection = self._connection()
        with self._transaction(connection):
            connection.execute("DELETE FROM corpus_vectors")
            self._bump_vectors(connection)

    def vectors(self) -> Iterator[tuple[int, bytes]]:
        yield from self._connection().execute("SELECT passage, vector FROM corpus_vectors")

    def vectors_version(self) -> int:
        row = (
            self._connection()
            .execute("SELECT value FROM corpus_meta WHERE key = 'vectors_version'")
            .fetchone()
        )
        return 0 if row is None else int(row[0])

    @staticmethod
    def _bump_vectors(connection: sqlite3.Connection) -> None:
        connection.execute(
            "INSERT INTO corpus_meta(key, value) VALUES ('vectors_version', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    # -- meaning vectors ---------------------------------------------------------------

    def without_meaning(self, limit: int) -> list[IndexableDocument]:
        connection = self._connection()
        documents = connection.execute(
            f"SELECT d.rowid, d.id, d.title, d.text FROM corpus_documents AS d {_UNREAD} "
            "ORDER BY d.rowid LIMIT ?",
            (limit,),
        ).fetchall()
        if not documents:
            return []
        spans: dict[int, list[tuple[int, int, int]]] = {}
        marks = ", ".join("?" * len(documents))
        for document, passage, start, end in connection.execute(
            "SELECT document, rowid, start, end FROM corpus_passages "
            f"WHERE document IN ({marks}) ORDER BY rowid",
            [row[0] for row in documents],
        ):
            spans.setdefault(document, []).append((passage, start, end))
        return [
            IndexableDocument(doc_id, title, text, tuple(spans[rowid]))
            for rowid, doc_id, title, text in documents
            if rowid in spans
        ]

    def count_without_meaning(self) -> int:
        row = (
            self._connection()
            .execute(f"SELECT count(*) FROM corpus_documents AS d {_UNREAD}")
            .fetchone()
        )
        return int(row[0])

    def put_meanings(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
        connection = self._connection()
        with self._transaction(connection):
            connection.executemany(
                "INSERT OR REPLACE INTO corpus_meanings(passage, key, vector) "
                "SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM corpus_passages WHERE rowid = ?1)",
                rows,
            )

    def clear_meanings(self) -> None:
        connection = self._connection()
        with self._transaction(connection):
            connection.execute("DELETE FROM corpus_meanings")

    def meanings(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        if not keys:
            return {}
        # An answer asks for about a dozen; the bound keeps a caller under SQLite's limit.
        found: dict[bytes, bytes] = {}
        connection = self._connection()
        for start in range(0, len(keys), _IDS_PER_STATEMENT):
            chunk = list(keys[start : start + _IDS_PER_STATEMENT])
            marks = ", ".join("?" * len(chunk))
            found.update(
                connection.execute(
                    f"SELECT key, vector FROM corpus_meanings WHERE key IN ({marks})", chunk
                ).fetchall()
            )
        return found

    def setting(self, key: str) -> str | None:
        row = (
            self._connection()
            .execute("SELECT value FROM corpus_meta WHERE key = ?", (f"setting:{key}",))
            .fetchone()
        )
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        connection = self._connection()
        with self._transaction(connection):
            if value is None:
                connection.execute("DELETE FROM corpus_meta WHERE key = ?", (f"setting:{key}",))
            else:
                connection.execute(
                    "INSERT OR REPLACE INTO corpus_meta(key, value) VALUES (?, ?)",
                    (f"setting:{key}", value),
                )

    def get(self, doc_id: str) -> Document | None:
        row = (
            self._connection()
            .execute(
                "SELECT id, title, text, url, metadata FROM corpus_documents WHERE id = ?",
                (doc_id,),
            )
            .fetchone()
        )
        return None if row is None else _document(row)

    def documents(self) -> Iterator[Document]:
        cursor = self._connection().execute(
            "SELECT id, title, text, url, metadata FROM corpus_documents ORDER BY rowid"
        )
        for row in cursor:
            yield _document(row)

    def indexed(self) -> dict[str, IndexedDocument]:
        rows = self._connection().execute("SELECT id, content_hash, source FROM corpus_documents")
        return {i: IndexedDocument(i, h, s) for i, h, s in rows}

    def count(self) -> int:
        row = self._connection().execute("SELECT count(*) FROM corpus_documents").fetchone()
        return int(row[0])

    def content_digest(self) -> str | None:
        if self.count() == 0:
            return None
        return f"{self._digest(self._connection()):032x}"

    def release_label(self) -> str | None:
        row = (
            self._connection()
            .execute("SELECT value FROM corpus_meta WHERE key = 'release_label'")
            .fetchone()
        )
        return None if row is None else str(row[0])


def _member(doc_id: str, content_hash: str) -> int:
    """A document's share of the content digest; XOR makes the digest order-free."""
    return int.from_bytes(hashlib.sha256(f"{doc_id}\0{content_hash}".encode()).digest()[:16], "big")


@functools.lru_cache(maxsize=128)
def _hit_statement(count: int) -> str:
    """``_HITS`` for ``count`` passages: one string object per count, so sqlite3's statement
    cache (128 statements, keyed by the text) finds it prepared without a new string to
    build and hash per search."""
    return _HITS.format(marks=", ".join("?" * count))


def _metadata_json(document: Document) -> str:
    # Most documents (every BEIR record, most Markdown files) carry none: "{}" is what
    # json.dumps gives for it, without the encoder's set-up per document.
    if not document.metadata:
        return "{}"
    return json.dumps(dict(document.metadata), ensure_ascii=False, sort_keys=True)


def _document(row: tuple[str, str, str, str | None, str]) -> Document:
    doc_id, title, text, url, metadata = row
    return Document(id=doc_id, title=title, text=text, url=url, metadata=json.loads(metadata))


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
