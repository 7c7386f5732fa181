"""The corpus store in PostgreSQL: the same documents and the same BM25 ranking as SQLite.

Selected by a ``postgresql://`` URL (``CITELINE_DATABASE_URL`` or ``--db``), so several
server processes on several machines search one collection. Tables are prefixed
``corpus_``; their schema is versioned in the ``citeline_schema`` ledger (component
``corpus``) and migrated in place when the store opens.

Ranking is not here: the lexical search index (``citeline.corpus.search_index``) of each
process's machine is derived from these tables. Every write takes the ``corpus_totals`` row
lock first, bumps ``generation`` in ``corpus_meta`` and stamps the documents it writes with
it; a removed document leaves its id and generation in ``corpus_removed``. Because writers
queue on that lock, generations commit in order, so a process that holds generation g
catches up by reading what is stamped after g (``changes_since``). Up to schema 3 the store
kept its own postings table scored in SQL (PostgreSQL's ``ts_rank`` has no inverse
document frequency: nDCG@10 0.451 on SciFact train against 0.704 for BM25); migration 4
drops it, because scoring every matching posting before the ``LIMIT`` cost 266 ms per query
at 1,000,000 passages.

Vectors (``citeline[dense]``) are ``bytea`` rows of ``corpus_vectors``, searched in each
server process's memory (``citeline.corpus.vectors``), as for SQLite; meaning vectors
(migration 6, ``citeline.corpus.meaning``) are rows of ``corpus_meanings``, read a dozen at a
time by their text's key as answers need them. pgvector is not used:
Debian 12's PostgreSQL 15, this project's CI server, has no pgvector package, so a server
without it must work, and one path for every server is one path to test.

Deliberately not here: reading files and deciding what to re-index (``ingest``), the
analysis itself (``analysis``), and the pool, retry and migration machinery
(``citeline.database.postgres``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from citeline.corpus.analysis import ANALYSIS_VERSION
from citeline.corpus.documents import Document, Hit
from citeline.corpus.errors import (
    CorpusUnavailableError,
    IndexUnreadableError,
    SchemaVersionError,
)
from citeline.corpus.stores.base import (
    Candidate,
    CorpusStore,
    DocumentVersion,
    IndexableDocument,
    IndexedDocument,
    StoreChanges,
)
from citeline.corpus.stores.sqlite import _member
from citeline.database import DatabaseError, PostgresUrl, SchemaTooNewError
from citeline.database.postgres import (
    Migration,
    is_connection_lost,
    is_database_failure,
    open_pool,
    prepare,
    with_retry,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

COMPONENT = "corpus"

# Connections one process holds for searches; the server runs searches on worker threads,
# and a search holds its connection for one statement.
POOL_SIZE = 8

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        (
            "CREATE TABLE corpus_meta (key text PRIMARY KEY, value text NOT NULL)",
            """CREATE TABLE corpus_documents (
                rowid bigserial PRIMARY KEY,
                id text NOT NULL UNIQUE,
                title text NOT NULL,
                url text,
                text text NOT NULL,
                metadata jsonb NOT NULL,
                source text NOT NULL,
                content_hash text NOT NULL
            )""",
            """CREATE TABLE corpus_passages (
                rowid bigserial PRIMARY KEY,
                document bigint NOT NULL REFERENCES corpus_documents (rowid) ON DELETE CASCADE,
                start integer NOT NULL,
                "end" integer NOT NULL,
                length integer NOT NULL
            )""",
            "CREATE INDEX corpus_passages_document ON corpus_passages (document)",
            # INCLUDE lets a search read every posting of a term from the index alone.
            """CREATE TABLE corpus_postings (
                term text NOT NULL,
                passage bigint NOT NULL,
                freq real NOT NULL,
                length integer NOT NULL,
                PRIMARY KEY (term, passage) INCLUDE (freq, length)
            )""",
            "INSERT INTO corpus_meta (key, value) "
            f"VALUES ('analysis_version', '{ANALYSIS_VERSION}')",
        ),
    ),
    # Version 2 keeps the passage and token counts that BM25 needs in one row, updated in
    # each document's transaction, instead of counting every passage on every search.
    Migration(
        2,
        (
            """CREATE TABLE corpus_totals (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                passages bigint NOT NULL,
                tokens bigint NOT NULL
            )""",
            """INSERT INTO corpus_totals (passages, tokens)
               SELECT count(*), coalesce(sum(length), 0) FROM corpus_passages""",
        ),
    ),
    # Version 3: passage vectors for dense retrieval, and each title's key for title
    # matching (documents ingested before it keep an empty key until they change).
    Migration(
        3,
        (
            "ALTER TABLE corpus_documents ADD COLUMN title_key text NOT NULL DEFAULT ''",
            """CREATE TABLE corpus_vectors (
                passage bigint PRIMARY KEY REFERENCES corpus_passages (rowid) ON DELETE CASCADE,
                vector bytea NOT NULL
            )""",
            "INSERT INTO corpus_meta (key, value) VALUES ('vectors_version', '0')",
        ),
    ),
    # Version 4: generations for the search index that each machine derives (documents
    # already stored are generation 1), and the in-database postings, counts and title keys
    # it replaces.
    # corpus_totals stays as the row every writer locks first.
    Migration(
        4,
        (
            "ALTER TABLE corpus_documents ADD COLUMN generation bigint NOT NULL DEFAULT 1",
            "CREATE INDEX corpus_documents_generation ON corpus_documents (generation)",
            """CREATE TABLE corpus_removed (
                id text PRIMARY KEY,
                generation bigint NOT NULL
            )""",
            "CREATE INDEX corpus_removed_generation ON corpus_removed (generation)",
            "INSERT INTO corpus_meta (key, value) VALUES ('generation', '1')",
            "DROP TABLE corpus_postings",
            "ALTER TABLE corpus_totals DROP COLUMN passages, DROP COLUMN tokens",
            "ALTER TABLE corpus_passages DROP COLUMN length",
            # The search index keys titles itself; nothing reads the stored keys.
            "ALTER TABLE corpus_documents DROP COLUMN title_key",
        ),
    ),
    # Version 5: the vector of each passage's meaning text (``citeline.corpus.meaning``),
    # found by the text's key, going with its passage. Collections ingested before it have
    # none: an answer embeds on demand, and the next dense or hybrid ingest fills it.
    Migration(
        5,
        (
            """CREATE TABLE corpus_meanings (
                passage bigint PRIMARY KEY REFERENCES corpus_passages (rowid) ON DELETE CASCADE,
                key bytea NOT NULL,
                vector bytea NOT NULL
            )""",
            "CREATE INDEX corpus_meanings_key ON corpus_meanings (key)",
        ),
    ),
    # Version 6: the vectors of every text a document is read by for meaning, on its first
    # passage, found by the text's key; version 5's one float vector a passage was another
    # arithmetic's, so they go, and the next ingest with the extra stores the new ones.
    Migration(
        6,
        (
            "DROP TABLE corpus_meanings",
            "DELETE FROM corpus_meta WHERE key = 'setting:meaning_model'",
            """CREATE TABLE corpus_meanings (
                passage bigint NOT NULL REFERENCES corpus_passages (rowid) ON DELETE CASCADE,
                key bytea NOT NULL,
                vector bytea NOT NULL,
                PRIMARY KEY (passage, key)
            )""",
            "CREATE INDEX corpus_meanings_key ON corpus_meanings (key)",
        ),
    ),
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
SELECT p.rowid, d.id, d.url, d.title, substr(d.text, p.start + 1, p."end" - p.start),
       p.start, p."end"
FROM corpus_passages AS p
JOIN corpus_documents AS d ON d.rowid = p.document
WHERE p.rowid = ANY(%s)
"""

_EMPTY_DIGEST = 0


class PostgresStore(CorpusStore):
    """A corpus store in a PostgreSQL database; its tables are created or migrated on open."""

    def __init__(self, url: PostgresUrl, *, pool_size: int = POOL_SIZE) -> None:
        self._url = url
        try:
            prepare(url, COMPONENT, MIGRATIONS)
            self._pool: ConnectionPool = open_pool(url, max_size=pool_size, name="citeline-corpus")
        except SchemaTooNewError as error:
            raise SchemaVersionError(str(error)) from None
        except DatabaseError as error:
            raise IndexUnreadableError(str(error)) from None
        self._closed = False
        self._check_analysis()

    def _check_analysis(self) -> None:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'analysis_version'"
            ).fetchone()

        row = self._run(read)
        if row is None or row[0] != ANALYSIS_VERSION:
            self.close()
            raise SchemaVersionError(
                f"the corpus at {self._url.redacted} was indexed with analysis "
                f"{None if row is None else row[0]}, but this citeline analyses text as "
                f"version {ANALYSIS_VERSION}. Ingest your sources again into a new database, "
                "or use the citeline version that wrote this one."
            )

    def _run(self, work: Any) -> Any:
        if self._closed:
            raise RuntimeError("this corpus is closed; open it again to use it")
        try:
            return with_retry(self._pool, work)
        except Exception as error:
            if is_database_failure(error):
                raise CorpusUnavailableError(
                    f"the corpus database at {self._url.redacted} failed the work ({error}): a "
                    "statement timeout, a full disk or a deadlock; check the PostgreSQL server's "
                    "log, then try again."
                ) from error
            if not is_connection_lost(error):
                raise
            raise CorpusUnavailableError(
                f"the corpus database at {self._url.redacted} cannot be reached ({error}); "
                "check that PostgreSQL is running, then try again."
            ) from error

    def close(self) -> None:
        if not getattr(self, "_closed", True):
            self._closed = True
            self._pool.close()

    # -- writing -----------------------------------------------------------------------

    def put_many(self, versions: Sequence[DocumentVersion]) -> None:
        if not versions:
            return
        # The last version of an id given twice wins, as if each had been put in turn.
        latest = {version.document.id: version for version in versions}
        rows = [
            (
                version,
                json.dumps(dict(version.document.metadata), ensure_ascii=False, sort_keys=True),
            )
            for version in latest.values()
        ]

        def write(connection: psycopg.Connection[Any]) -> None:
            digest = _locked_digest(connection)
            generation = _next_generation(connection)
            _put_batch(connection, rows, generation, digest)

        # Safe to retry: the whole batch is one transaction, and a retry finds either
        # nothing (rolled back) or this very content (committed) and writes it again.
        self._run(write)

    def delete(self, doc_id: str) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            digest = _locked_digest(connection)
            old = connection.execute(
                "SELECT rowid, content_hash FROM corpus_documents WHERE id = %s FOR UPDATE",
                (doc_id,),
            ).fetchone()
            if old is None:
                return
            rowid, old_hash = old
            _unindex(connection, rowid)
            connection.execute("DELETE FROM corpus_documents WHERE rowid = %s", (rowid,))
            connection.execute(
                "INSERT INTO corpus_removed (id, generation) VALUES (%s, %s) "
                "ON CONFLICT (id) DO UPDATE SET generation = EXCLUDED.generation",
                (doc_id, _next_generation(connection)),
            )
            _changed(connection, digest ^ _member(doc_id, old_hash))

        self._run(write)

    def set_release_label(self, label: str | None) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            if label is None:
                connection.execute("DELETE FROM corpus_meta WHERE key = 'release_label'")
            else:
                connection.execute(
                    "INSERT INTO corpus_meta (key, value) VALUES ('release_label', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    (label,),
                )

        self._run(write)

    # -- reading -----------------------------------------------------------------------

    def identity(self) -> str:
        def read(connection: psycopg.Connection[Any]) -> Any:
            connection.execute(
                "INSERT INTO corpus_meta (key, value) VALUES ('identity', %s) "
                "ON CONFLICT (key) DO NOTHING",
                (secrets.token_hex(16),),
            )
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'identity'"
            ).fetchone()

        row = self._run(read)
        return str(row[0])

    def generation(self) -> int:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'generation'"
            ).fetchone()

        row = self._run(read)
        return 0 if row is None else int(row[0])

    def changes_since(self, generation: int) -> StoreChanges:
        def read(connection: psycopg.Connection[Any]) -> StoreChanges:
            row = connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'generation'"
            ).fetchone()
            now = 0 if row is None else int(row[0])
            # Bounded above by the generation read first: a write committed after it is
            # left for the next look, whatever this statement's snapshot shows.
            window = (generation, now)
            changed = connection.execute(
                "SELECT id FROM corpus_documents WHERE generation > %s AND generation <= %s "
                "ORDER BY rowid",
                window,
            ).fetchall()
            removed = connection.execute(
                "SELECT id FROM corpus_removed WHERE generation > %s AND generation <= %s",
                window,
            ).fetchall()
            return StoreChanges(now, [r[0] for r in changed], [r[0] for r in removed])

        changes: StoreChanges = self._run(read)
        return changes

    def indexable(self, doc_ids: Sequence[str]) -> Iterator[IndexableDocument]:
        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(
                'SELECT d.id, d.title, d.text, array_agg(ARRAY[p.rowid, p.start, p."end"] '
                "ORDER BY p.start) FILTER (WHERE p.rowid IS NOT NULL) "
                "FROM corpus_documents AS d LEFT JOIN corpus_passages AS p "
                "ON p.document = d.rowid WHERE d.id = ANY(%s) GROUP BY d.rowid",
                (list(doc_ids),),
            ).fetchall()

        for doc_id, title, text, spans in self._run(read):
            passages = tuple((int(p), int(a), int(b)) for p, a, b in spans or ())
            yield IndexableDocument(doc_id, title, text, passages)

    def hits(self, candidates: Sequence[Candidate]) -> list[Hit]:
        if not candidates:
            return []

        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(_HITS, ([c.passage for c in candidates],)).fetchall()

        found = {row[0]: row[1:] for row in self._run(read)}
        return [
            Hit(doc_id=i, url=u, title=t, score=c.score, text=x, start=a, end=b)
            for c in candidates
            if c.passage in found
            for i, u, t, x, a, b in (found[c.passage],)
        ]

    # -- vectors -----------------------------------------------------------------------

    def unembedded(self, limit: int) -> list[tuple[int, str]]:
        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(
                'SELECT p.rowid, d.title, substr(d.text, p.start + 1, p."end" - p.start) '
                "FROM corpus_passages AS p JOIN corpus_documents AS d ON d.rowid = p.document "
                "WHERE NOT EXISTS (SELECT 1 FROM corpus_vectors AS v WHERE v.passage = p.rowid) "
                "ORDER BY p.rowid LIMIT %s",
                (limit,),
            ).fetchall()

        return [(rowid, f"{title}\n{text}") for rowid, title, text in self._run(read)]

    def count_unembedded(self) -> int:
        def read(connection: psycopg.Connection[Any]) -> int:
            row = connection.execute(
                "SELECT count(*) FROM corpus_passages AS p WHERE NOT EXISTS "
                "(SELECT 1 FROM corpus_vectors AS v WHERE v.passage = p.rowid)"
            ).fetchone()
            return int(row[0]) if row else 0

        result: int = self._run(read)
        return result

    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            _locked_digest(connection)
            with connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO corpus_vectors (passage, vector) "
                    "SELECT %(p)s, %(v)s WHERE EXISTS "
                    "(SELECT 1 FROM corpus_passages WHERE rowid = %(p)s) "
                    "ON CONFLICT (passage) DO UPDATE SET vector = EXCLUDED.vector",
                    [{"p": passage, "v": vector} for passage, vector in rows],
                )
            _bump_vectors(connection)

        self._run(write)

    def clear_vectors(self) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            _locked_digest(connection)
            connection.execute("DELETE FROM corpus_vectors")
            _bump_vectors(connection)

        self._run(write)

    def vectors(self) -> Iterator[tuple[int, bytes]]:
        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute("SELECT passage, vector FROM corpus_vectors").fetchall()

        for passage, vector in self._run(read):
            yield passage, bytes(vector)

    def vectors_version(self) -> int:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'vectors_version'"
            ).fetchone()

        row = self._run(read)
        return 0 if row is None else int(row[0])

    # -- meaning vectors ---------------------------------------------------------------

    def without_meaning(self, limit: int) -> list[IndexableDocument]:
        def read(connection: psycopg.Connection[Any]) -> tuple[list[Any], list[Any]]:
            documents = connection.execute(
                f"SELECT d.rowid, d.id, d.title, d.text FROM corpus_documents AS d {_UNREAD} "
                "ORDER BY d.rowid LIMIT %s",
                (limit,),
            ).fetchall()
            passages = connection.execute(
                'SELECT document, rowid, start, "end" FROM corpus_passages '
                "WHERE document = ANY(%s) ORDER BY rowid",
                ([row[0] for row in documents],),
            ).fetchall()
            return documents, passages

        documents, passages = self._run(read)
        spans: dict[int, list[tuple[int, int, int]]] = {}
        for document, passage, start, end in passages:
            spans.setdefault(document, []).append((passage, start, end))
        return [
            IndexableDocument(doc_id, title, text, tuple(spans[rowid]))
            for rowid, doc_id, title, text in documents
            if rowid in spans
        ]

    def count_without_meaning(self) -> int:
        def read(connection: psycopg.Connection[Any]) -> int:
            row = connection.execute(
                f"SELECT count(*) FROM corpus_documents AS d {_UNREAD}"
            ).fetchone()
            return int(row[0]) if row else 0

        result: int = self._run(read)
        return result

    def put_meanings(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            # Queued behind document writers, so a passage is not removed under the insert.
            _locked_digest(connection)
            with connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO corpus_meanings (passage, key, vector) "
                    "SELECT %(p)s, %(k)s, %(v)s WHERE EXISTS "
                    "(SELECT 1 FROM corpus_passages WHERE rowid = %(p)s) "
                    "ON CONFLICT (passage, key) DO UPDATE SET vector = EXCLUDED.vector",
                    [{"p": passage, "k": key, "v": vector} for passage, key, vector in rows],
                )

        self._run(write)

    def clear_meanings(self) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            connection.execute("DELETE FROM corpus_meanings")

        self._run(write)

    def meanings(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        if not keys:
            return {}

        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(
                "SELECT key, vector FROM corpus_meanings WHERE key = ANY(%s)", (list(keys),)
            ).fetchall()

        return {bytes(key): bytes(vector) for key, vector in self._run(read)}

    def setting(self, key: str) -> str | None:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = %s", (f"setting:{key}",)
            ).fetchone()

        row = self._run(read)
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        def write(connection: psycopg.Connection[Any]) -> None:
            if value is None:
                connection.execute("DELETE FROM corpus_meta WHERE key = %s", (f"setting:{key}",))
            else:
                connection.execute(
                    "INSERT INTO corpus_meta (key, value) VALUES (%s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    (f"setting:{key}", value),
                )

        self._run(write)

    def get(self, doc_id: str) -> Document | None:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT id, title, text, url, metadata FROM corpus_documents WHERE id = %s",
                (doc_id,),
            ).fetchone()

        row = self._run(read)
        return None if row is None else _document(row)

    def documents(self) -> Iterator[Document]:
        # Pages by rowid rather than one open cursor, so a long listing holds no
        # connection between pages and survives a dropped connection.
        after = 0
        page = 500
        while True:

            def read(connection: psycopg.Connection[Any], after: int = after) -> list[Any]:
                return connection.execute(
                    "SELECT id, title, text, url, metadata, rowid FROM corpus_documents "
                    "WHERE rowid > %s ORDER BY rowid LIMIT %s",
                    (after, page),
                ).fetchall()

            rows = self._run(read)
            for row in rows:
                yield _document(row[:5])
            if len(rows) < page:
                return
            after = rows[-1][5]

    def indexed(self) -> dict[str, IndexedDocument]:
        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(
                "SELECT id, content_hash, source FROM corpus_documents"
            ).fetchall()

        return {i: IndexedDocument(i, h, s) for i, h, s in self._run(read)}

    def count(self) -> int:
        def read(connection: psycopg.Connection[Any]) -> int:
            row = connection.execute("SELECT count(*) FROM corpus_documents").fetchone()
            return int(row[0]) if row else 0

        result: int = self._run(read)
        return result

    def content_digest(self) -> str | None:
        def read(connection: psycopg.Connection[Any]) -> str | None:
            row = connection.execute(
                "SELECT (SELECT count(*) FROM corpus_documents), "
                "(SELECT value FROM corpus_meta WHERE key = 'content_digest')"
            ).fetchone()
            if row is None or row[0] == 0:
                return None
            return f"{int(row[1], 16) if row[1] else _EMPTY_DIGEST:032x}"

        result: str | None = self._run(read)
        return result

    def release_label(self) -> str | None:
        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'release_label'"
            ).fetchone()

        row = self._run(read)
        return None if row is None else str(row[0])


def _put_batch(
    connection: psycopg.Connection[Any],
    rows: Sequence[tuple[DocumentVersion, str]],
    generation: int,
    digest: int,
) -> None:
    """Write a batch of distinct documents (each with its metadata as JSON) in the caller's
    transaction, and the content digest with them counted in.

    A few statements for the whole batch, where one document at a time took five round
    trips each: the stored ids are read and locked at once, replaced documents lose their
    passages in one ``DELETE`` and are rewritten by one pipelined ``executemany``, new
    documents and every passage go in by ``COPY``. New documents are numbered from the
    table's sequence in the batch's order, as one insert at a time numbered them."""
    doc_ids = [version.document.id for version, _ in rows]
    old = {
        doc_id: (rowid, content_hash)
        for doc_id, rowid, content_hash in connection.execute(
            "SELECT id, rowid, content_hash FROM corpus_documents WHERE id = ANY(%s) "
            "ORDER BY rowid FOR UPDATE",
            (doc_ids,),
        )
    }
    fresh = len(doc_ids) - len(old)
    numbers = iter(
        sorted(
            number
            for (number,) in connection.execute(
                "SELECT nextval(pg_get_serial_sequence('corpus_documents', 'rowid')) "
                "FROM generate_series(1, %s)",
                (fresh,),
            )
        )
        if fresh
        else ()
    )
    added: list[tuple[object, ...]] = []
    updated: list[tuple[object, ...]] = []
    replaced: list[int] = []
    added_ids: list[str] = []
    passages: list[tuple[int, int, int]] = []
    for version, metadata in rows:
        document = version.document
        row = (
            document.title,
            document.url,
            document.text,
            metadata,
            version.source,
            version.content_hash,
            generation,
        )
        before = old.get(document.id)
        if before is None:
            rowid = next(numbers)
            added.append((rowid, document.id, *row))
            added_ids.append(document.id)
        else:
            rowid, old_hash = before
            digest ^= _member(document.id, old_hash)
            updated.append((*row, rowid))
            replaced.append(rowid)
        digest ^= _member(document.id, version.content_hash)
        passages.extend((rowid, passage.start, passage.end) for passage in version.passages)
    if updated:
        _unindex_many(connection, replaced)
        with connection.cursor() as cursor:
            cursor.executemany(
                "UPDATE corpus_documents SET title = %s, url = %s, text = %s, "
                "metadata = %s::jsonb, source = %s, content_hash = %s, generation = %s "
                "WHERE rowid = %s",
                updated,
            )
    if added:
        with (
            connection.cursor() as cursor,
            cursor.copy(
                "COPY corpus_documents (rowid, id, title, url, text, metadata, source, "
                "content_hash, generation) FROM STDIN"
            ) as copy,
        ):
            for added_row in added:
                copy.write_row(added_row)
        connection.execute("DELETE FROM corpus_removed WHERE id = ANY(%s)", (added_ids,))
    if passages:
        with (
            connection.cursor() as cursor,
            cursor.copy('COPY corpus_passages (document, start, "end") FROM STDIN') as copy,
        ):
            for passage_row in passages:
                copy.write_row(passage_row)
    _changed(connection, digest)


def _unindex(connection: psycopg.Connection[Any], rowid: int) -> None:
    _unindex_many(connection, [rowid])


def _unindex_many(connection: psycopg.Connection[Any], rowids: list[int]) -> None:
    """Remove the passages of the documents ``rowids``, in the caller's transaction."""
    # Their vectors go with the passages (ON DELETE CASCADE); the version tells every
    # process's in-memory vector index to reload.
    if connection.execute(
        "SELECT 1 FROM corpus_vectors AS v JOIN corpus_passages AS p ON p.rowid = v.passage "
        "WHERE p.document = ANY(%s) LIMIT 1",
        (rowids,),
    ).fetchone():
        _bump_vectors(connection)
    connection.execute("DELETE FROM corpus_passages WHERE document = ANY(%s)", (rowids,))


def _next_generation(connection: psycopg.Connection[Any]) -> int:
    # Called with the corpus_totals row locked, so generations commit in the order taken.
    row = connection.execute(
        "UPDATE corpus_meta SET value = (value::bigint + 1)::text WHERE key = 'generation' "
        "RETURNING value"
    ).fetchone()
    assert row is not None
    return int(row[0])


def _bump_vectors(connection: psycopg.Connection[Any]) -> None:
    connection.execute(
        "UPDATE corpus_meta SET value = (value::bigint + 1)::text WHERE key = 'vectors_version'"
    )


def _locked_digest(connection: psycopg.Connection[Any]) -> int:
    # Locking the totals row first makes concurrent writers queue here, in one order, so
    # each reads the digest the previous one committed and none of them deadlock.
    connection.execute("SELECT 1 FROM corpus_totals FOR UPDATE")
    row = connection.execute(
        "SELECT value FROM corpus_meta WHERE key = 'content_digest'"
    ).fetchone()
    return int(row[0], 16) if row else _EMPTY_DIGEST


def _changed(connection: psycopg.Connection[Any], digest: int) -> None:
    connection.execute(
        "INSERT INTO corpus_meta (key, value) VALUES ('content_digest', %s) "
        "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        (f"{digest:032x}",),
    )
    # A release label names the collection as it was ingested; any change ends it.
    connection.execute("DELETE FROM corpus_meta WHERE key = 'release_label'")


def _document(row: Sequence[Any]) -> Document:
    doc_id, title, text, url, metadata = row
    return Document(id=doc_id, title=title, text=text, url=url, metadata=metadata)
