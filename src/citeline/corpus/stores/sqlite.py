"""The default corpus store: one SQLite file with an FTS5 index ranked by BM25, and vectors.

The file is shared with the server's answer store and conversations, so every table here is
prefixed ``corpus_`` and this store's schema version lives in its own ``corpus_meta`` table.

Threads: one connection per thread (``threading.local``), because the async server runs
searches in a thread pool and a shared connection would serialise them; WAL lets those
readers run while an ingest writes. Every connection is registered so ``close`` can close
them all from any thread.

The FTS5 table is contentless (the text already lives in ``corpus_documents``; a second copy
would double the file), so removing a passage re-derives the terms it was indexed with. That
is why the analysis version is part of the schema check below.

Vectors (``citeline[dense]``) are rows of ``corpus_vectors``, one per passage, written after
the passage by ingest's embedding stage and removed in the same transaction as their
passage. They are float16 bytes; searching them is ``citeline.corpus.vectors``'s job, in
process, because a loadable extension such as sqlite-vec cannot be loaded by Pythons built
without ``enable_load_extension`` (pyenv's default build, this project's CI among them).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from citeline.corpus.analysis import ANALYSIS_VERSION, query_terms, terms
from citeline.corpus.documents import Document, Hit, Passage
from citeline.corpus.errors import IndexUnreadableError, SchemaVersionError
from citeline.corpus.headings import passage_headings, query_title_keys, title_key
from citeline.corpus.stores.base import (
    Candidate,
    CorpusStore,
    IndexedDocument,
    order_named_first,
)

SCHEMA_VERSION = "2"
# Title terms count twice a body term: measured on SciFact's train split, nDCG@10 0.699 at
# 1:1, 0.703 at 2:1, 0.705 at 3:1; 2:1 keeps most of the gain without leaning on titles.
TITLE_WEIGHT = 2.0
# The headings in force over a passage (``headings.passage_headings``) count as a title does:
# they are the section's name where a page is not split into one document per section.
HEADING_WEIGHT = 2.0
# A query that names a section's title puts that section first when it is among this many
# best BM25 passages: measured on the bundled Python sample, every one of its 618 titles
# asked as a query has its section within the first 100.
TITLE_WINDOW = 100
# How long a writer waits for another writer (the server's answer store, another ingest)
# before giving up; a document's transaction takes milliseconds, so 5 s means a stuck peer.
_BUSY_TIMEOUT_MS = 5000

_SCHEMA = f"""
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
    title_key TEXT NOT NULL
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
CREATE VIRTUAL TABLE IF NOT EXISTS corpus_fts USING fts5(
    title, headings, body, content='', detail=full,
    tokenize="unicode61 remove_diacritics 0 tokenchars '_'"
);
INSERT OR IGNORE INTO corpus_fts(corpus_fts, rank)
    VALUES ('rank', 'bm25({TITLE_WEIGHT}, {HEADING_WEIGHT}, 1.0)');
"""

_LEXICAL = """
WITH top AS (
    SELECT rowid, rank FROM corpus_fts WHERE corpus_fts MATCH ? ORDER BY rank LIMIT ?
)
SELECT top.rowid, top.rank, d.title_key IN (?, ?)
FROM top
JOIN corpus_passages AS p ON p.rowid = top.rowid
JOIN corpus_documents AS d ON d.rowid = p.document
ORDER BY top.rank
"""

_HITS = """
SELECT p.rowid, d.id, d.url, d.title, substr(d.text, p.start + 1, p.end - p.start),
       p.start, p.end
FROM corpus_passages AS p
JOIN corpus_documents AS d ON d.rowid = p.document
WHERE p.rowid IN ({marks})
"""

_EMPTY_DIGEST = 0


class SQLiteStore(CorpusStore):
    """A corpus store in one SQLite file; created with its tables when missing."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
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
                connection = sqlite3.connect(
                    self._path, isolation_level=None, check_same_thread=False
                )
            except sqlite3.DatabaseError as error:
                raise _unreadable(self._path, error) from error
            try:
                connection.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
                connection.execute("PRAGMA journal_mode = WAL")
                # NORMAL in WAL mode: a power cut may lose the last commits, never corrupt.
                connection.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.DatabaseError as error:
                connection.close()
                raise _unreadable(self._path, error) from error
            self._connections.append(connection)
        self._local.connection = connection
        return connection

    def _prepare(self) -> None:
        connection = self._connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
                if "corpus_meta" in tables:
                    self._check_versions(connection)
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
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as error:
            self.close()
            raise _unreadable(self._path, error) from error
        except BaseException:
            self.close()
            raise

    def _check_versions(self, connection: sqlite3.Connection) -> None:
        meta = dict(connection.execute("SELECT key, value FROM corpus_meta").fetchall())
        schema, analysis = meta.get("schema_version"), meta.get("analysis_version")
        if schema != SCHEMA_VERSION or analysis != ANALYSIS_VERSION:
            raise SchemaVersionError(
                f"{self._path} holds a corpus index in format {schema} (analysis {analysis}), "
                f"but this citeline reads format {SCHEMA_VERSION} (analysis "
                f"{ANALYSIS_VERSION}). Ingest your sources again into a new file "
                "(--db NEW_FILE), or use the citeline version that wrote this one."
            )

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()

    # -- writing -----------------------------------------------------------------------

    def put(
        self, document: Document, passages: Sequence[Passage], content_hash: str, source: str
    ) -> None:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            old = connection.execute(
                "SELECT rowid, content_hash FROM corpus_documents WHERE id = ?", (document.id,)
            ).fetchone()
            digest = self._digest(connection)
            row = (
                document.title,
                document.url,
                document.text,
                json.dumps(dict(document.metadata), ensure_ascii=False, sort_keys=True),
                source,
                content_hash,
                title_key(document.title),
            )
            if old is None:
                rowid = connection.execute(
                    "INSERT INTO corpus_documents(title, url, text, metadata, source, "
                    "content_hash, title_key, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (*row, document.id),
                ).lastrowid
            else:
                rowid, old_hash = old
                self._unindex(connection, rowid)
                digest ^= _member(document.id, old_hash)
                connection.execute(
                    "UPDATE corpus_documents SET title = ?, url = ?, text = ?, metadata = ?, "
                    "source = ?, content_hash = ?, title_key = ? WHERE rowid = ?",
                    (*row, rowid),
                )
            title_terms = " ".join(terms(document.title))
            headings = passage_headings(document.text, passages)
            for passage, heading in zip(passages, headings, strict=True):
                passage_rowid = connection.execute(
                    "INSERT INTO corpus_passages(document, start, end) VALUES (?, ?, ?)",
                    (rowid, passage.start, passage.end),
                ).lastrowid
                connection.execute(
                    "INSERT INTO corpus_fts(rowid, title, headings, body) VALUES (?, ?, ?, ?)",
                    (
                        passage_rowid,
                        title_terms,
                        " ".join(terms(heading)),
                        " ".join(terms(passage.text)),
                    ),
                )
            self._changed(connection, digest ^ _member(document.id, content_hash))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def delete(self, doc_id: str) -> None:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            old = connection.execute(
                "SELECT rowid, content_hash FROM corpus_documents WHERE id = ?", (doc_id,)
            ).fetchone()
            if old is not None:
                rowid, old_hash = old
                self._unindex(connection, rowid)
                connection.execute("DELETE FROM corpus_documents WHERE rowid = ?", (rowid,))
                self._changed(connection, self._digest(connection) ^ _member(doc_id, old_hash))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def _unindex(self, connection: sqlite3.Connection, rowid: int) -> None:
        title, text = connection.execute(
            "SELECT title, text FROM corpus_documents WHERE rowid = ?", (rowid,)
        ).fetchone()
        title_terms = " ".join(terms(title))
        rows = connection.execute(
            "SELECT rowid, start, end FROM corpus_passages WHERE document = ? ORDER BY start",
            (rowid,),
        ).fetchall()
        passages = [Passage(start, end, text[start:end]) for _, start, end in rows]
        headings = passage_headings(text, passages)
        for (passage_rowid, _, _), passage, heading in zip(rows, passages, headings, strict=True):
            # A contentless FTS5 table forgets a row only when given the values it indexed.
            connection.execute(
                "INSERT INTO corpus_fts(corpus_fts, rowid, title, headings, body) "
                "VALUES ('delete', ?, ?, ?, ?)",
                (
                    passage_rowid,
                    title_terms,
                    " ".join(terms(heading)),
                    " ".join(terms(passage.text)),
                ),
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
        if label is None:
            connection.execute("DELETE FROM corpus_meta WHERE key = 'release_label'")
        else:
            connection.execute(
                "INSERT OR REPLACE INTO corpus_meta(key, value) VALUES ('release_label', ?)",
                (label,),
            )

    # -- reading -----------------------------------------------------------------------

    def lexical(self, query: str, k: int) -> list[Candidate]:
        wanted = query_terms(query)
        if not wanted or k < 1:
            return []
        expression = " OR ".join(f'"{term}"' for term in wanted)
        rows = (
            self._connection()
            .execute(_LEXICAL, (expression, max(k, TITLE_WINDOW), *query_title_keys(query)))
            .fetchall()
        )
        # FTS5's bm25() is negative, lower being better; a candidate's score is higher-is-better.
        ranked = [Candidate(passage, -rank, bool(named)) for passage, rank, named in rows]
        return order_named_first(ranked)[:k]

    def hits(self, candidates: Sequence[Candidate]) -> list[Hit]:
        if not candidates:
            return []
        marks = ", ".join("?" * len(candidates))
        rows = (
            self._connection()
            .execute(_HITS.format(marks=marks), [c.passage for c in candidates])
            .fetchall()
        )
        found = {row[0]: row[1:] for row in rows}
        return [
            Hit(doc_id=i, url=u, title=t, score=c.score, text=x, start=s, end=e)
            for c in candidates
            if c.passage in found
            for i, u, t, x, s, e in (found[c.passage],)
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
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.executemany(
                "INSERT OR REPLACE INTO corpus_vectors(passage, vector) "
                "SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM corpus_passages WHERE rowid = ?1)",
                rows,
            )
            self._bump_vectors(connection)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def clear_vectors(self) -> None:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("DELETE FROM corpus_vectors")
            self._bump_vectors(connection)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

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

    def setting(self, key: str) -> str | None:
        row = (
            self._connection()
            .execute("SELECT value FROM corpus_meta WHERE key = ?", (f"setting:{key}",))
            .fetchone()
        )
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        connection = self._connection()
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


def _document(row: tuple[str, str, str, str | None, str]) -> Document:
    doc_id, title, text, url, metadata = row
    return Document(id=doc_id, title=title, text=text, url=url, metadata=json.loads(metadata))


def _unreadable(path: Path, error: sqlite3.DatabaseError) -> IndexUnreadableError:
    return IndexUnreadableError(
        f"{path} cannot be opened as a citeline index ({error}). Check that the path names "
        "a SQLite file you can read and write, or give a new file name with --db."
    )
