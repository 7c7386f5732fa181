"""The corpus store in PostgreSQL: the same documents and the same BM25 ranking as SQLite.

Selected by a ``postgresql://`` URL (``CITELINE_DATABASE_URL`` or ``--db``), so several
server processes on several machines search one collection. Tables are prefixed
``corpus_``; their schema is versioned in the ``citeline_schema`` ledger (component
``corpus``) and migrated in place when the store opens. This module holds the migrations,
the PostgreSQL dialect and the runner; the store itself is ``sql``'s, shared with SQLite.

Ranking is not here: the lexical search index (``citeline.corpus.search_index``) of each
process's machine is derived from these tables. Every write takes the ``corpus_totals`` row
lock first, so writers queue in one order, each reads the digest the previous one committed,
none of them deadlock, and generations commit in the order taken: a process that holds
generation g catches up by reading what is stamped after g (``changes_since``). Up to
schema 3 the store kept its own postings table scored in SQL (PostgreSQL's ``ts_rank`` has
no inverse document frequency: nDCG@10 0.451 on SciFact train against 0.704 for BM25);
migration 4 drops it, because scoring every matching posting before the ``LIMIT`` cost
266 ms per query at 1,000,000 passages.

Vectors (``citeline[dense]``) are ``bytea`` rows of ``corpus_vectors``, searched in each
server process's memory (``citeline.corpus.vectors``), as for SQLite; meaning vectors
(migration 6, ``citeline.text.meaning``) are rows of ``corpus_meanings``, read a dozen at a
time by their text's key as answers need them. pgvector is not used:
Debian 12's PostgreSQL 15, this project's CI server, has no pgvector package, so a server
without it must work, and one path for every server is one path to test.

Deliberately not here: reading files and deciding what to re-index (``ingest``), the
analysis itself (``analysis``), the queries (``sql``), and the pool, retry and migration
machinery (``citeline.database.postgres``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from citeline.corpus.errors import (
    CorpusUnavailableError,
    IndexUnreadableError,
    SchemaVersionError,
)
from citeline.corpus.stores.sql import Connection, Dialect, Rows, Runner, SQLCorpusStore, Work
from citeline.database import DatabaseError, PostgresUrl, SchemaTooNewError
from citeline.database.postgres import (
    Migration,
    is_connection_lost,
    is_database_failure,
    open_pool,
    prepare,
    with_retry,
)
from citeline.text.index_terms import ANALYSIS_VERSION

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

_T = TypeVar("_T")

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
    # Version 5: the vector of each passage's meaning text (``citeline.text.meaning``),
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


class PostgresDialect(Dialect):
    """PostgreSQL's SQL: ``%s`` parameters, JSON cast to ``jsonb`` (and parsed by psycopg
    on the way out), ``= ANY(array)`` for a list, ``COPY`` for many rows."""

    param = "%s"
    json_param = "%s::jsonb"
    # One array parameter a list; the bound only keeps one statement's array modest.
    list_bound = 100_000

    def members(self, statement: str, count: int) -> str:
        return statement.replace("{ids}", "= ANY(%s)")

    def member_params(self, values: Sequence[Any]) -> list[Any]:
        return [list(values)]

    def load_json(self, value: Any) -> Mapping[str, Any]:
        loaded: Mapping[str, Any] = value
        return loaded

    def execute_many(self, connection: Connection, statement: str, rows: Rows) -> None:
        # psycopg pipelines the rows: one round trip for the batch, not one a row.
        with _psycopg(connection).cursor() as cursor:
            cursor.executemany(statement, rows)

    def insert_rows(self, connection: Connection, into: str, rows: Rows) -> None:
        with (
            _psycopg(connection).cursor() as cursor,
            cursor.copy(f"COPY {into} FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)

    def new_rowids(self, connection: Connection, count: int) -> Iterator[int]:
        if not count:
            return iter(())
        # Taken from the table's own sequence, sorted: in the order one insert at a time
        # numbered them, whatever order the server handed them out in.
        rows = connection.execute(
            "SELECT nextval(pg_get_serial_sequence('corpus_documents', 'rowid')) "
            "FROM generate_series(1, %s)",
            (count,),
        )
        return iter(sorted(number for (number,) in rows))


POSTGRES = PostgresDialect()


def _psycopg(connection: Connection) -> psycopg.Connection[Any]:
    import psycopg

    assert isinstance(connection, psycopg.Connection)
    return connection


class PostgresRunner(Runner):
    """A pool, migrated on open, and the retries and errors of work on it."""

    dialect = POSTGRES
    local = False

    def __init__(self, url: PostgresUrl, *, pool_size: int = POOL_SIZE) -> None:
        self._url = url
        self._closed = True
        try:
            prepare(url, COMPONENT, MIGRATIONS)
            self._pool: ConnectionPool = open_pool(url, max_size=pool_size, name="citeline-corpus")
        except SchemaTooNewError as error:
            raise SchemaVersionError(str(error)) from None
        except DatabaseError as error:
            raise IndexUnreadableError(str(error)) from None
        self._closed = False
        self._check_analysis()

    def read(self, work: Work[_T]) -> _T:
        return self._run(work)

    def snapshot(self, work: Work[_T]) -> _T:
        def in_snapshot(connection: Connection) -> _T:
            # READ COMMITTED gives each statement its own snapshot; this gives the work one.
            connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", ())
            return work(connection)

        return self._run(in_snapshot)

    def write(self, work: Work[_T]) -> _T:
        def queued(connection: Connection) -> _T:
            # Every writer locks this one row first: see the module's note.
            connection.execute("SELECT 1 FROM corpus_totals FOR UPDATE", ())
            return work(connection)

        return self._run(queued)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._pool.close()

    def _run(self, work: Work[_T]) -> _T:
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

    def _check_analysis(self) -> None:
        row = self.read(
            lambda connection: connection.execute(
                "SELECT value FROM corpus_meta WHERE key = 'analysis_version'", ()
            ).fetchone()
        )
        if row is None or row[0] != ANALYSIS_VERSION:
            self.close()
            raise SchemaVersionError(
                f"the corpus at {self._url.redacted} was indexed with analysis "
                f"{None if row is None else row[0]}, but this citeline analyses text as "
                f"version {ANALYSIS_VERSION}. Ingest your sources again into a new database, "
                "or use the citeline version that wrote this one."
            )


class PostgresStore(SQLCorpusStore):
    """A corpus store in a PostgreSQL database; its tables are created or migrated on open."""

    def __init__(self, url: PostgresUrl, *, pool_size: int = POOL_SIZE) -> None:
        super().__init__(PostgresRunner(url, pool_size=pool_size))
