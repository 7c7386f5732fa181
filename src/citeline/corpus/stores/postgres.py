"""The corpus store in PostgreSQL: the same documents and the same BM25 ranking as SQLite.

Selected by a ``postgresql://`` URL (``CITELINE_DATABASE_URL`` or ``--db``), so several
server processes on several machines search one collection. Tables are prefixed
``corpus_``; their schema is versioned in the ``citeline_schema`` ledger (component
``corpus``) and migrated in place when the store opens.

Ranking: an inverted index (``corpus_postings``: term, passage, weighted frequency, passage
length) scored in SQL with exactly the formula of SQLite's FTS5 ``bm25()`` (k1 1.2, b 0.75,
title terms weighted ``TITLE_WEIGHT``, the idf floor of 1e-6), over the terms of
``analysis.terms``. PostgreSQL's own ``ts_rank`` has no inverse document frequency, so a
question's rare, telling words count no more than its common ones: measured on SciFact's
train split (809 queries, tsvector of title weighted A and text, OR of the query's
lexemes), nDCG@10 was 0.451 with ``ts_rank`` and 0.426 with ``ts_rank_cd``, against 0.704
for this store and the SQLite one alike. Sharing the analysis and the formula is what lets
one suite of tests and one quality target hold for both backends. Headings over a passage
(``headings.passage_headings``) are weighted ``HEADING_WEIGHT`` as in SQLite, and a query
that names a section's title (``title_key``) puts that section first.

Vectors (``citeline[dense]``) are ``bytea`` rows of ``corpus_vectors``, searched in each
server process's memory (``citeline.corpus.vectors``), as for SQLite. pgvector is not used:
Debian 12's PostgreSQL 15, this project's CI server, has no pgvector package, so a server
without it must work, and one path for every server is one path to test.

Deliberately not here: reading files and deciding what to re-index (``ingest``), the
analysis itself (``analysis``), and the pool, retry and migration machinery
(``citeline.database.postgres``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from citeline.corpus.analysis import ANALYSIS_VERSION, query_terms, terms
from citeline.corpus.documents import Document, Hit, Passage
from citeline.corpus.errors import (
    CorpusUnavailableError,
    IndexUnreadableError,
    SchemaVersionError,
)
from citeline.corpus.headings import passage_headings, query_title_keys, title_key
from citeline.corpus.stores.base import (
    Candidate,
    CorpusStore,
    IndexedDocument,
    order_named_first,
)
from citeline.corpus.stores.sqlite import HEADING_WEIGHT, TITLE_WEIGHT, TITLE_WINDOW, _member
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

# FTS5's bm25() constants; changing them here would part the two backends' rankings.
BM25_K1 = 1.2
BM25_B = 0.75
# FTS5 floors a term's idf here, so a word in more than half the passages still counts a bit.
_IDF_FLOOR = 1e-6

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
)

_LEXICAL = f"""
WITH hits AS MATERIALIZED (
    SELECT term, passage, freq, length FROM corpus_postings WHERE term = ANY(%(terms)s)
),
totals AS (
    SELECT passages::float8 AS n, tokens::float8 / greatest(passages, 1) AS avgdl
    FROM corpus_totals
),
idf AS (
    SELECT hits.term,
           greatest(ln((totals.n - count(*) + 0.5) / (count(*) + 0.5)), {_IDF_FLOOR}) AS idf
    FROM hits CROSS JOIN totals
    GROUP BY hits.term, totals.n
),
top AS (
    SELECT hits.passage,
           sum(idf.idf * hits.freq * {BM25_K1 + 1}
               / (hits.freq + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * hits.length / totals.avgdl)))
           AS score
    FROM hits JOIN idf USING (term) CROSS JOIN totals
    GROUP BY hits.passage
    ORDER BY score DESC, hits.passage
    LIMIT %(k)s
)
SELECT top.passage, top.score, d.title_key IN (%(key)s, %(asked)s)
FROM top
JOIN corpus_passages AS p ON p.rowid = top.passage
JOIN corpus_documents AS d ON d.rowid = p.document
ORDER BY top.score DESC, top.passage
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

    def put(
        self, document: Document, passages: Sequence[Passage], content_hash: str, source: str
    ) -> None:
        title_terms = terms(document.title)
        headings = passage_headings(document.text, passages)
        indexed = [
            (passage, _weighted(title_terms, terms(heading), terms(passage.text)))
            for passage, heading in zip(passages, headings, strict=True)
        ]
        metadata = json.dumps(dict(document.metadata), ensure_ascii=False, sort_keys=True)

        def write(connection: psycopg.Connection[Any]) -> None:
            digest = _locked_digest(connection)
            old = connection.execute(
                "SELECT rowid, content_hash FROM corpus_documents WHERE id = %s FOR UPDATE",
                (document.id,),
            ).fetchone()
            row = (
                document.title,
                document.url,
                document.text,
                metadata,
                source,
                content_hash,
                title_key(document.title),
            )
            if old is None:
                inserted = connection.execute(
                    "INSERT INTO corpus_documents (title, url, text, metadata, source, "
                    "content_hash, title_key, id) VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s, %s) "
                    "RETURNING rowid",
                    (*row, document.id),
                ).fetchone()
                assert inserted is not None
                rowid = inserted[0]
            else:
                rowid, old_hash = old
                _unindex(connection, rowid)
                digest ^= _member(document.id, old_hash)
                connection.execute(
                    "UPDATE corpus_documents SET title = %s, url = %s, text = %s, "
                    "metadata = %s::jsonb, source = %s, content_hash = %s, title_key = %s "
                    "WHERE rowid = %s",
                    (*row, rowid),
                )
            _index(connection, rowid, indexed)
            _changed(connection, digest ^ _member(document.id, content_hash))

        # Safe to retry: the whole document is one transaction, and a retry finds either
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

    def lexical(self, query: str, k: int) -> list[Candidate]:
        wanted = query_terms(query)
        if not wanted or k < 1:
            return []
        key, asked = query_title_keys(query)
        parameters = {"terms": wanted, "k": max(k, TITLE_WINDOW), "key": key, "asked": asked}

        def read(connection: psycopg.Connection[Any]) -> list[Any]:
            return connection.execute(_LEXICAL, parameters).fetchall()

        ranked = [Candidate(p, float(s), bool(named)) for p, s, named in self._run(read)]
        return order_named_first(ranked)[:k]

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


def _weighted(
    title_terms: Sequence[str], heading_terms: Sequence[str], body_terms: Sequence[str]
) -> tuple[dict[str, float], int]:
    """Each term's weighted frequency in one passage row, and the row's length in terms.

    As in FTS5: every occurrence counts its column's weight, and the length counts every
    term of both columns once.
    """
    counts: dict[str, float] = {}
    for term in title_terms:
        counts[term] = counts.get(term, 0.0) + TITLE_WEIGHT
    for term in heading_terms:
        counts[term] = counts.get(term, 0.0) + HEADING_WEIGHT
    for term in body_terms:
        counts[term] = counts.get(term, 0.0) + 1.0
    return counts, len(title_terms) + len(heading_terms) + len(body_terms)


def _index(
    connection: psycopg.Connection[Any],
    rowid: int,
    indexed: Sequence[tuple[Passage, tuple[dict[str, float], int]]],
) -> None:
    if not indexed:
        return
    with connection.cursor() as cursor:
        cursor.executemany(
            'INSERT INTO corpus_passages (document, start, "end", length) '
            "VALUES (%s, %s, %s, %s) RETURNING rowid",
            [(rowid, passage.start, passage.end, length) for passage, (_, length) in indexed],
            returning=True,
        )
        passage_ids = []
        while True:
            found = cursor.fetchone()
            assert found is not None
            passage_ids.append(found[0])
            if not cursor.nextset():
                break
    # COPY, because a passage brings dozens of postings and a document can bring hundreds.
    with connection.cursor().copy(
        "COPY corpus_postings (term, passage, freq, length) FROM STDIN"
    ) as copy:
        for passage_id, (_, (counts, length)) in zip(passage_ids, indexed, strict=True):
            for term, freq in counts.items():
                copy.write_row((term, passage_id, freq, length))
    tokens = sum(length for _, (_, length) in indexed)
    connection.execute(
        "UPDATE corpus_totals SET passages = passages + %s, tokens = tokens + %s",
        (len(indexed), tokens),
    )


def _unindex(connection: psycopg.Connection[Any], rowid: int) -> None:
    title, text = connection.execute(
        "SELECT title, text FROM corpus_documents WHERE rowid = %s", (rowid,)
    ).fetchone() or ("", "")
    title_terms = terms(title)
    rows = connection.execute(
        'SELECT rowid, start, "end", length FROM corpus_passages WHERE document = %s '
        "ORDER BY start",
        (rowid,),
    ).fetchall()
    headings = passage_headings(text, [Passage(s, e, text[s:e]) for _, s, e, _ in rows])
    # The postings are keyed by term first, so they are found again from the passage's own
    # terms rather than through a second index on the passage id that every insert would pay.
    for (passage_id, start, end, _), heading in zip(rows, headings, strict=True):
        counts, _ = _weighted(title_terms, terms(heading), terms(text[start:end]))
        connection.execute(
            "DELETE FROM corpus_postings WHERE term = ANY(%s) AND passage = %s",
            (list(counts), passage_id),
        )
    # Their vectors go with the passages (ON DELETE CASCADE); the version tells every
    # process's in-memory vector index to reload.
    if connection.execute(
        "SELECT 1 FROM corpus_vectors AS v JOIN corpus_passages AS p ON p.rowid = v.passage "
        "WHERE p.document = %s LIMIT 1",
        (rowid,),
    ).fetchone():
        _bump_vectors(connection)
    connection.execute("DELETE FROM corpus_passages WHERE document = %s", (rowid,))
    connection.execute(
        "UPDATE corpus_totals SET passages = passages - %s, tokens = tokens - %s",
        (len(rows), sum(row[3] for row in rows)),
    )


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
