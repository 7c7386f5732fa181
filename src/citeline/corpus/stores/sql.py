"""The corpus store, written once over a small per-backend dialect and runner.

Every backend (``sqlite``, ``postgres``) keeps the same tables (``corpus_meta``,
``corpus_documents``, ``corpus_passages``, ``corpus_removed``, ``corpus_vectors``,
``corpus_meanings``) and answers the same queries. What differs is how a parameter and a
list of them are written, how JSON goes in and comes out, how many rows go in at once (a
statement a row, or PostgreSQL's ``COPY``), how a new document is numbered, and how a unit
of work reaches a connection (one a thread, or a pool with retries; what makes a
transaction a writer's alone, or a snapshot). A backend says the first five in a
``Dialect`` and the rest in a ``Runner``; everything else (the SQL, the generations and
digest, planning a batch, paging) is here, once, as ``citeline.server.store.sql`` does for
the answer store.

Every write runs in one ``Runner.write`` transaction that no other writer interleaves
with; it bumps ``generation`` in ``corpus_meta`` and stamps the documents it writes with it,
and a removed document leaves its id and generation in ``corpus_removed``, so the search
index can ask what changed since the generation it holds. A passage's vectors (of both
kinds) are removed in the same transaction as the passage.

Deliberately not here: the schema and its migrations, connections, threads, retries and
what an engine's errors mean (each backend module), or what a record is (``base``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from citeline.corpus.documents import Document, Hit
from citeline.corpus.stores.base import (
    Candidate,
    CorpusStore,
    DocumentVersion,
    IndexableDocument,
    IndexedDocument,
    StoreChanges,
)

_T = TypeVar("_T")


class Cursor(Protocol):
    """What the store asks of a cursor: ``sqlite3``'s and ``psycopg``'s both have it."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the store asks of a connection: ``sqlite3``'s and ``psycopg``'s both have it."""

    def execute(self, query: str, params: Sequence[Any], /) -> Cursor: ...


Work = Callable[[Connection], _T]
Rows = Sequence[Sequence[Any]]


class Dialect(ABC):
    """How one backend's SQL differs from the statements written here.

    Statements are written with ``?`` for a parameter, ``:json`` for a JSON one and
    ``{ids}`` for "is one of a list" (``IN (?, ?)`` or ``= ANY(%s)``); ``sql`` and
    ``members`` turn them into this backend's form.
    """

    # How this backend writes a parameter, and a JSON one (cast where the column is typed).
    param: str
    json_param: str
    # The most values one ``{ids}`` list takes; longer lists are read in runs of it.
    list_bound: int

    def sql(self, statement: str) -> str:
        return statement.replace(":json", self.json_param).replace("?", self.param)

    @abstractmethod
    def members(self, statement: str, count: int) -> str:
        """``statement`` (already in this backend's form) with ``{ids}`` made a test for
        being one of ``count`` values."""

    @abstractmethod
    def member_params(self, values: Sequence[Any]) -> list[Any]:
        """The parameters ``members`` asked for, for ``values``."""

    @abstractmethod
    def load_json(self, value: Any) -> Mapping[str, Any]:
        """A JSON column as the driver returns it (text, or already parsed), as data."""

    @abstractmethod
    def execute_many(self, connection: Connection, statement: str, rows: Rows) -> None:
        """``statement`` once for each of ``rows``, in the caller's transaction."""

    @abstractmethod
    def insert_rows(self, connection: Connection, into: str, rows: Rows) -> None:
        """Add ``rows`` to ``into`` (a table and its columns: ``t (a, b)``) in the caller's
        transaction, the fastest way the backend has; ``rows`` is not empty."""

    @abstractmethod
    def new_rowids(self, connection: Connection, count: int) -> Iterator[int]:
        """``count`` numbers for new documents, ascending, as one insert at a time would
        have numbered them."""


class Runner(ABC):
    """Runs units of work on one backend's connection.

    Each method lets a bug's error through and turns the backend's own failures (a full
    disk, a server out of reach) into the corpus's errors (``citeline.corpus.errors``).
    """

    dialect: Dialect
    # Whether reads are this process's own work on a file, with no server to wait on.
    local: bool

    @abstractmethod
    def read(self, work: Work[_T]) -> _T:
        """``work``, which writes nothing, and whose statements need not agree."""

    @abstractmethod
    def snapshot(self, work: Work[_T]) -> _T:
        """``work``, which writes nothing, with every statement reading one snapshot."""

    @abstractmethod
    def write(self, work: Work[_T]) -> _T:
        """``work`` in one transaction that no other writer interleaves with; safe to run
        twice (the runner may retry it on a fresh connection)."""

    @abstractmethod
    def close(self) -> None:
        """Release every connection; the store cannot be used afterwards."""


@functools.lru_cache(maxsize=256)
def in_list(statement: str, param: str, count: int) -> str:
    """``statement`` with ``{ids}`` made ``IN (...)`` of ``count`` parameters: one string
    object a count, so a driver's statement cache (sqlite3's holds 128, keyed by the text)
    finds it prepared without a new string to build and hash a call."""
    return statement.replace("{ids}", f"IN ({', '.join([param] * count)})")


# The meta keys every backend keeps (a collection's settings are ``setting:NAME``).
_GENERATION = "generation"
_VECTORS_VERSION = "vectors_version"
_DIGEST = "content_digest"
_RELEASE = "release_label"
_IDENTITY = "identity"
_EMPTY_DIGEST = 0
# Documents a page when listing them all, and vectors a page when loading them all: a page
# is one short statement, so a long listing holds no connection (or read lock) between pages.
_DOCUMENTS_PAGE = 500
_VECTORS_PAGE = 4096

# Where a batch's new rows go, their values in this order.
_NEW_DOCUMENTS = (
    "corpus_documents (rowid, id, title, url, text, metadata, source, content_hash, generation)"
)
_NEW_PASSAGES = 'corpus_passages (document, start, "end")'

# Documents with passages and no meaning vector on their first passage (which holds them all).
_UNREAD = """
WHERE EXISTS (SELECT 1 FROM corpus_passages AS p WHERE p.document = d.rowid)
AND NOT EXISTS (
    SELECT 1 FROM corpus_meanings AS m
    WHERE m.passage = (SELECT min(p.rowid) FROM corpus_passages AS p WHERE p.document = d.rowid)
)
"""
_VECTOR_OF_P = "SELECT 1 FROM corpus_vectors AS v WHERE v.passage = p.rowid"
_PASSAGE_TEXT = 'substr(d.text, p.start + 1, p."end" - p.start)'


@dataclass(frozen=True, slots=True)
class _VectorKind:
    """One kind of vector as a table: each row a passage's, keyed within it by ``keys``
    (none for the one vector a passage, the text's key for meaning vectors), and whether a
    change bumps ``vectors_version`` (what the in-memory vector index reloads on)."""

    table: str
    keys: tuple[str, ...]
    versioned: bool

    def upsert(self) -> str:
        """One row's statement, given (keys..., vector, passage): only a passage that is
        still stored gets a vector."""
        keys = "".join(f"{key}, " for key in self.keys)
        return (
            f"INSERT INTO {self.table} (passage, {keys}vector) "
            f"SELECT rowid, {'?, ' * len(self.keys)}? FROM corpus_passages WHERE rowid = ? "
            f"ON CONFLICT (passage{''.join(', ' + key for key in self.keys)}) "
            "DO UPDATE SET vector = excluded.vector"
        )


PASSAGE_VECTORS = _VectorKind("corpus_vectors", (), versioned=True)
MEANING_VECTORS = _VectorKind("corpus_meanings", ("key",), versioned=False)


@dataclass(slots=True)
class _Batch:
    """A batch of documents planned against what is stored: the rows to add and update,
    the documents whose passages go, every new passage, and the digest after it."""

    digest: int
    added: list[tuple[Any, ...]] = field(default_factory=list)
    updated: list[tuple[Any, ...]] = field(default_factory=list)
    replaced: list[int] = field(default_factory=list)
    passages: list[tuple[int, int, int]] = field(default_factory=list)


def _plan(
    versions: Mapping[str, DocumentVersion],
    stored: Mapping[str, tuple[int, str]],
    numbers: Iterator[int],
    generation: int,
    digest: int,
) -> _Batch:
    """What writing ``versions`` (distinct ids) changes, given the rowid and content hash
    of those ``stored``; new documents take ``numbers`` in the batch's order."""
    batch = _Batch(digest)
    for doc_id, version in versions.items():
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
        before = stored.get(doc_id)
        if before is None:
            rowid = next(numbers)
            batch.added.append((rowid, doc_id, *row))
        else:
            rowid, old_hash = before
            batch.digest ^= _member(doc_id, old_hash)
            batch.updated.append((*row, rowid))
            batch.replaced.append(rowid)
        batch.digest ^= _member(doc_id, version.content_hash)
        # A list, not a generator: most sections are one passage, and a generator's set-up
        # cost 0.3 µs more a document (a page of 50,000 sections: 15 ms).
        batch.passages += [(rowid, p.start, p.end) for p in version.passages]
    return batch


class SQLCorpusStore(CorpusStore):
    """The corpus store on ``runner``'s database, whichever backend that is."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._dialect = dialect = runner.dialect
        sql = dialect.sql
        self._meta = sql("SELECT value FROM corpus_meta WHERE key = ?")
        self._set_meta = sql(
            "INSERT INTO corpus_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )
        self._add_meta = sql(
            "INSERT INTO corpus_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"
        )
        self._forget_meta = sql("DELETE FROM corpus_meta WHERE key = ?")
        # The value is text in every backend's table; counted as a whole number.
        self._bump = sql(
            "INSERT INTO corpus_meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE "
            "SET value = CAST(CAST(corpus_meta.value AS BIGINT) + 1 AS TEXT) RETURNING value"
        )
        self._hits = sql(
            f'SELECT p.rowid, d.id, d.url, d.title, {_PASSAGE_TEXT}, p.start, p."end" '
            "FROM corpus_passages AS p JOIN corpus_documents AS d ON d.rowid = p.document "
            "WHERE p.rowid {ids}"
        )
        self._upsert = {kind: sql(kind.upsert()) for kind in (PASSAGE_VECTORS, MEANING_VECTORS)}

    @property
    def local(self) -> bool:
        return self._runner.local

    def close(self) -> None:
        self._runner.close()

    # -- statements --------------------------------------------------------------------

    def _chunks(self, values: Sequence[_T]) -> Iterator[Sequence[_T]]:
        bound = self._dialect.list_bound
        for start in range(0, len(values), bound):
            yield values[start : start + bound]

    def _each_member(
        self, connection: Connection, statement: str, values: Sequence[Any]
    ) -> Iterator[Cursor]:
        """``statement`` (with ``{ids}``, in this backend's form) run for ``values``, in
        runs as long as the backend takes."""
        dialect = self._dialect
        for chunk in self._chunks(values):
            yield connection.execute(
                dialect.members(statement, len(chunk)), dialect.member_params(chunk)
            )

    def _execute_members(
        self, connection: Connection, statement: str, values: Sequence[Any]
    ) -> int:
        """``statement`` (with ``{ids}``) run for ``values``; how many rows it changed."""
        return sum(cursor.rowcount for cursor in self._each_member(connection, statement, values))

    def _pages(self, statement: str, size: int) -> Iterator[Any]:
        """Every row ``statement`` selects, given the last key of the page before (its last
        column) and ``size``: a page a statement, so a long listing holds no connection
        (or SQLite read lock) between pages."""
        after = 0
        while True:
            rows = self._runner.read(functools.partial(_page, statement, after, size))
            yield from rows
            if len(rows) < size:
                return
            after = rows[-1][-1]

    def _value(self, connection: Connection, key: str) -> str | None:
        row = connection.execute(self._meta, (key,)).fetchone()
        return None if row is None else str(row[0])

    def _read_value(self, key: str) -> str | None:
        return self._runner.read(lambda connection: self._value(connection, key))

    def _put_value(self, connection: Connection, key: str, value: str | None) -> None:
        if value is None:
            connection.execute(self._forget_meta, (key,))
        else:
            connection.execute(self._set_meta, (key, value))

    def _count(self, statement: str) -> int:
        row = self._runner.read(lambda connection: connection.execute(statement, ()).fetchone())
        return int(row[0])

    # -- writing -----------------------------------------------------------------------

    def put_many(self, versions: Sequence[DocumentVersion]) -> None:
        # One transaction for the batch: measured on SciFact (5,183 abstracts), one
        # transaction per document wrote 400 MB of SQLite's WAL for a 15 MB file. Within it,
        # a few statements for the whole batch: one a document took five round trips each
        # in PostgreSQL, and 15,600 statements cost 0.11 s of SciFact's ingest in SQLite.
        if not versions:
            return
        # The last version of an id given twice wins, as if each had been put in turn.
        latest = {version.document.id: version for version in versions}
        # Safe to retry: the whole batch is one transaction, and a retry finds either
        # nothing (rolled back) or this very content (committed) and writes it again.
        self._runner.write(lambda connection: self._put_batch(connection, latest))

    def _put_batch(self, connection: Connection, versions: Mapping[str, DocumentVersion]) -> None:
        """Write a batch of distinct documents in the caller's transaction, and the content
        digest with them counted in. New documents are numbered by the dialect in the
        batch's order, so document and passage ids are what one insert at a time gave."""
        digest = self._digest(connection)
        generation = self._next_generation(connection)
        stored = self._stored(connection, list(versions))
        numbers = self._dialect.new_rowids(connection, len(versions) - len(stored))
        batch = _plan(versions, stored, numbers, generation, digest)
        if batch.replaced:
            self._unindex(connection, batch.replaced)
            self._dialect.execute_many(
                connection,
                self._dialect.sql(
                    "UPDATE corpus_documents SET title = ?, url = ?, text = ?, metadata = :json, "
                    "source = ?, content_hash = ?, generation = ? WHERE rowid = ?"
                ),
                batch.updated,
            )
        if batch.added:
            self._dialect.insert_rows(connection, _NEW_DOCUMENTS, batch.added)
            self._forget_removed(connection, [row[1] for row in batch.added])
        if batch.passages:
            self._dialect.insert_rows(connection, _NEW_PASSAGES, batch.passages)
        self._changed(connection, batch.digest)

    def _stored(self, connection: Connection, doc_ids: list[str]) -> dict[str, tuple[int, str]]:
        """The rowid and content hash of each of ``doc_ids`` already stored."""
        statement = self._dialect.sql(
            "SELECT id, rowid, content_hash FROM corpus_documents WHERE id {ids}"
        )
        return {
            doc_id: (rowid, content_hash)
            for cursor in self._each_member(connection, statement, doc_ids)
            for doc_id, rowid, content_hash in cursor
        }

    def _forget_removed(self, connection: Connection, doc_ids: list[str]) -> None:
        """A removed document put again is no longer listed as removed."""
        # Most collections have never lost a document: no statement per batch then.
        if connection.execute("SELECT 1 FROM corpus_removed LIMIT 1", ()).fetchone():
            statement = self._dialect.sql("DELETE FROM corpus_removed WHERE id {ids}")
            self._execute_members(connection, statement, doc_ids)

    def delete(self, doc_id: str) -> None:
        def write(connection: Connection) -> None:
            old = connection.execute(
                self._dialect.sql("SELECT rowid, content_hash FROM corpus_documents WHERE id = ?"),
                (doc_id,),
            ).fetchone()
            if old is None:
                return
            rowid, old_hash = old
            digest = self._digest(connection)
            self._unindex(connection, [rowid])
            connection.execute(
                self._dialect.sql("DELETE FROM corpus_documents WHERE rowid = ?"), (rowid,)
            )
            connection.execute(
                self._dialect.sql(
                    "INSERT INTO corpus_removed (id, generation) VALUES (?, ?) "
                    "ON CONFLICT (id) DO UPDATE SET generation = excluded.generation"
                ),
                (doc_id, self._next_generation(connection)),
            )
            self._changed(connection, digest ^ _member(doc_id, old_hash))

        self._runner.write(write)

    def _unindex(self, connection: Connection, rowids: list[int]) -> None:
        """Remove the passages of the documents ``rowids`` and their vectors of both kinds,
        in the caller's transaction; a vector gone bumps ``vectors_version``, which tells
        every process's in-memory vector index to reload."""
        owned = "passage IN (SELECT rowid FROM corpus_passages WHERE document {ids})"
        sql = self._dialect.sql
        self._execute_members(connection, sql(f"DELETE FROM corpus_meanings WHERE {owned}"), rowids)
        if self._execute_members(
            connection, sql(f"DELETE FROM corpus_vectors WHERE {owned}"), rowids
        ):
            self._bump_value(connection, _VECTORS_VERSION)
        self._execute_members(
            connection, sql("DELETE FROM corpus_passages WHERE document {ids}"), rowids
        )

    def _bump_value(self, connection: Connection, key: str) -> int:
        row = connection.execute(self._bump, (key,)).fetchone()
        return int(row[0])

    def _next_generation(self, connection: Connection) -> int:
        # In a writer's transaction, so generations commit in the order taken.
        return self._bump_value(connection, _GENERATION)

    def _digest(self, connection: Connection) -> int:
        value = self._value(connection, _DIGEST)
        return int(value, 16) if value else _EMPTY_DIGEST

    def _changed(self, connection: Connection, digest: int) -> None:
        self._put_value(connection, _DIGEST, f"{digest:032x}")
        # A release label names the collection as it was ingested; any change ends it.
        self._put_value(connection, _RELEASE, None)

    def set_release_label(self, label: str | None) -> None:
        self._runner.write(lambda connection: self._put_value(connection, _RELEASE, label))

    def set_setting(self, key: str, value: str | None) -> None:
        self._runner.write(lambda connection: self._put_value(connection, f"setting:{key}", value))

    # -- the change feed ---------------------------------------------------------------

    def identity(self) -> str:
        found = self._read_value(_IDENTITY)
        if found is None:
            name = secrets.token_hex(16)
            # Whoever names it first wins; every later reader reads that name.
            self._runner.write(
                lambda connection: connection.execute(self._add_meta, (_IDENTITY, name))
            )
            found = self._read_value(_IDENTITY)
        assert found is not None
        return found

    def generation(self) -> int:
        return int(self._read_value(_GENERATION) or 0)

    def changes_since(self, generation: int) -> StoreChanges:
        def read(connection: Connection) -> StoreChanges:
            now = int(self._value(connection, _GENERATION) or 0)
            # Bounded above by the generation read first: a write committed after it is
            # left for the next look, whatever the snapshot shows.
            window = (generation, now)
            bounded = "WHERE generation > ? AND generation <= ?"
            changed = connection.execute(
                self._dialect.sql(f"SELECT id FROM corpus_documents {bounded} ORDER BY rowid"),
                window,
            ).fetchall()
            removed = connection.execute(
                self._dialect.sql(f"SELECT id FROM corpus_removed {bounded}"), window
            ).fetchall()
            return StoreChanges(now, [row[0] for row in changed], [row[0] for row in removed])

        return self._runner.snapshot(read)

    def indexable(self, doc_ids: Sequence[str]) -> Iterator[IndexableDocument]:
        sql = self._dialect.sql
        documents = sql("SELECT rowid, id, title, text FROM corpus_documents WHERE id {ids}")
        passages = sql(
            'SELECT rowid, document, start, "end" FROM corpus_passages WHERE document {ids} '
            "ORDER BY document, start"
        )

        def read(chunk: Sequence[str], connection: Connection) -> list[IndexableDocument]:
            found = [
                row for cursor in self._each_member(connection, documents, chunk) for row in cursor
            ]
            spans = self._spans(connection, passages, [row[0] for row in found])
            return [
                IndexableDocument(doc_id, title, text, tuple(spans.get(rowid, ())))
                for rowid, doc_id, title, text in found
            ]

        for chunk in self._chunks(doc_ids):
            yield from self._runner.snapshot(functools.partial(read, chunk))

    def _spans(
        self, connection: Connection, statement: str, rowids: Sequence[int]
    ) -> dict[int, list[tuple[int, int, int]]]:
        """Each document's passages (id, start, end) as ``statement`` orders them."""
        spans: dict[int, list[tuple[int, int, int]]] = {}
        last: int | None = None
        run: list[tuple[int, int, int]] = []
        for cursor in self._each_member(connection, statement, rowids):
            for passage, document, start, end in cursor:
                # A document's passages come together: its list is looked up once a document,
                # not once a row (0.2 µs a section); were they not, ``setdefault`` finds it.
                if document != last:
                    last, run = document, spans.setdefault(document, [])
                run.append((passage, start, end))
        return spans

    # -- documents ---------------------------------------------------------------------

    def hits(self, candidates: Sequence[Candidate]) -> list[Hit]:
        if not candidates:
            return []
        passages = [candidate.passage for candidate in candidates]
        dialect = self._dialect
        if len(passages) > dialect.list_bound:
            return [hit for run in self._chunks(candidates) for hit in self.hits(run)]
        # One statement, made and run with no generator between: a search reads its ten hits
        # once a query, and reading them through ``_each_member`` cost 8 % more CPU (3,000
        # reads of ten SciFact passages: 0.292 s against main's 0.271; now 0.288 to 0.300).
        statement = dialect.members(self._hits, len(passages))
        rows = self._runner.read(
            functools.partial(_fetch_all, statement, dialect.member_params(passages))
        )
        found = {row[0]: row for row in rows}
        # Positional arguments and no slicing of each row: 10 % of reading ten hits.
        return [
            Hit(row[1], row[2], row[3], c.score, row[4], row[5], row[6])
            for c in candidates
            if (row := found.get(c.passage)) is not None
        ]

    def get(self, doc_id: str) -> Document | None:
        row = self._runner.read(
            lambda connection: connection.execute(
                self._dialect.sql(
                    "SELECT id, title, text, url, metadata FROM corpus_documents WHERE id = ?"
                ),
                (doc_id,),
            ).fetchone()
        )
        return None if row is None else self._document(row)

    def documents(self) -> Iterator[Document]:
        statement = self._dialect.sql(
            "SELECT id, title, text, url, metadata, rowid FROM corpus_documents "
            "WHERE rowid > ? ORDER BY rowid LIMIT ?"
        )
        for row in self._pages(statement, _DOCUMENTS_PAGE):
            yield self._document(row)

    def _document(self, row: Sequence[Any]) -> Document:
        doc_id, title, text, url, metadata = row[:5]
        return Document(
            id=doc_id, title=title, text=text, url=url, metadata=self._dialect.load_json(metadata)
        )

    def indexed(self) -> dict[str, IndexedDocument]:
        rows = self._runner.read(
            lambda connection: connection.execute(
                "SELECT id, content_hash, source FROM corpus_documents", ()
            ).fetchall()
        )
        return {i: IndexedDocument(i, h, s) for i, h, s in rows}

    def count(self) -> int:
        return self._count("SELECT count(*) FROM corpus_documents")

    def content_digest(self) -> str | None:
        row = self._runner.read(
            lambda connection: connection.execute(
                self._dialect.sql(
                    "SELECT (SELECT count(*) FROM corpus_documents), "
                    "(SELECT value FROM corpus_meta WHERE key = ?)"
                ),
                (_DIGEST,),
            ).fetchone()
        )
        if row[0] == 0:
            return None
        return f"{int(row[1], 16) if row[1] else _EMPTY_DIGEST:032x}"

    def release_label(self) -> str | None:
        return self._read_value(_RELEASE)

    def setting(self, key: str) -> str | None:
        return self._read_value(f"setting:{key}")

    # -- vectors of either kind --------------------------------------------------------

    def _put(self, kind: _VectorKind, rows: Sequence[tuple[Any, ...]]) -> None:
        """Store each (passage, keys..., vector) of ``kind`` in one transaction."""
        reordered = [(*row[1:], row[0]) for row in rows]

        def write(connection: Connection) -> None:
            self._dialect.execute_many(connection, self._upsert[kind], reordered)
            if kind.versioned:
                self._bump_value(connection, _VECTORS_VERSION)

        self._runner.write(write)

    def _clear(self, kind: _VectorKind) -> None:
        def write(connection: Connection) -> None:
            connection.execute(f"DELETE FROM {kind.table}", ())
            if kind.versioned:
                self._bump_value(connection, _VECTORS_VERSION)

        self._runner.write(write)

    # -- passage vectors ---------------------------------------------------------------

    def unembedded(self, limit: int) -> list[tuple[int, str]]:
        rows = self._runner.read(
            lambda connection: connection.execute(
                self._dialect.sql(
                    f"SELECT p.rowid, d.title, {_PASSAGE_TEXT} FROM corpus_passages AS p "
                    "JOIN corpus_documents AS d ON d.rowid = p.document "
                    f"WHERE NOT EXISTS ({_VECTOR_OF_P}) ORDER BY p.rowid LIMIT ?"
                ),
                (limit,),
            ).fetchall()
        )
        return [(rowid, f"{title}\n{text}") for rowid, title, text in rows]

    def count_unembedded(self) -> int:
        return self._count(
            f"SELECT count(*) FROM corpus_passages AS p WHERE NOT EXISTS ({_VECTOR_OF_P})"
        )

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        self._put(PASSAGE_VECTORS, rows)

    def clear_vectors(self) -> None:
        self._clear(PASSAGE_VECTORS)

    def vectors(self) -> Iterator[tuple[int, bytes]]:
        statement = self._dialect.sql(
            "SELECT vector, passage FROM corpus_vectors WHERE passage > ? ORDER BY passage LIMIT ?"
        )
        for vector, passage in self._pages(statement, _VECTORS_PAGE):
            yield passage, bytes(vector)

    def vectors_version(self) -> int:
        return int(self._read_value(_VECTORS_VERSION) or 0)

    def document_vectors(self, ids: Sequence[str]) -> dict[str, list[bytes]]:
        if not ids:
            return {}
        # An answer asks for its search's sections, about twenty, each a few passages.
        statement = self._dialect.sql(
            "SELECT d.id, v.vector FROM corpus_documents AS d "
            "JOIN corpus_passages AS p ON p.document = d.rowid "
            "JOIN corpus_vectors AS v ON v.passage = p.rowid "
            "WHERE d.id {ids} ORDER BY p.rowid"
        )

        def read(connection: Connection) -> dict[str, list[bytes]]:
            found: dict[str, list[bytes]] = {}
            for cursor in self._each_member(connection, statement, list(dict.fromkeys(ids))):
                for doc_id, vector in cursor:
                    found.setdefault(doc_id, []).append(bytes(vector))
            return found

        return self._runner.read(read)

    # -- meaning vectors ---------------------------------------------------------------

    def without_meaning(self, limit: int) -> list[IndexableDocument]:
        sql = self._dialect.sql
        passages = sql(
            'SELECT rowid, document, start, "end" FROM corpus_passages '
            "WHERE document {ids} ORDER BY rowid"
        )

        def read(connection: Connection) -> list[IndexableDocument]:
            documents = connection.execute(
                sql(
                    f"SELECT d.rowid, d.id, d.title, d.text FROM corpus_documents AS d {_UNREAD} "
                    "ORDER BY d.rowid LIMIT ?"
                ),
                (limit,),
            ).fetchall()
            spans = self._spans(connection, passages, [row[0] for row in documents])
            return [
                IndexableDocument(doc_id, title, text, tuple(spans[rowid]))
                for rowid, doc_id, title, text in documents
                if rowid in spans
            ]

        return self._runner.snapshot(read)

    def count_without_meaning(self) -> int:
        return self._count(f"SELECT count(*) FROM corpus_documents AS d {_UNREAD}")

    def put_meanings(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
        self._put(MEANING_VECTORS, rows)

    def clear_meanings(self) -> None:
        self._clear(MEANING_VECTORS)

    def meanings(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        if not keys:
            return {}
        # An answer asks for about a dozen; the runs keep a caller under a backend's bound.
        statement = self._dialect.sql("SELECT key, vector FROM corpus_meanings WHERE key {ids}")
        return self._runner.read(
            lambda connection: {
                bytes(key): bytes(vector)
                for cursor in self._each_member(connection, statement, keys)
                for key, vector in cursor
            }
        )


def _page(statement: str, after: Any, size: int, connection: Connection) -> list[Any]:
    return connection.execute(statement, (after, size)).fetchall()


def _fetch_all(statement: str, params: Sequence[Any], connection: Connection) -> list[Any]:
    return connection.execute(statement, params).fetchall()


def _member(doc_id: str, content_hash: str) -> int:
    """A document's share of the content digest; XOR makes the digest order-free."""
    return int.from_bytes(hashlib.sha256(f"{doc_id}\0{content_hash}".encode()).digest()[:16], "big")


def _metadata_json(document: Document) -> str:
    # Most documents (every BEIR record, most Markdown files) carry none: "{}" is what
    # json.dumps gives for it, without the encoder's set-up per document.
    if not document.metadata:
        return "{}"
    return json.dumps(dict(document.metadata), ensure_ascii=False, sort_keys=True)
