"""The answer, conversation and handoff stores in PostgreSQL, shared by every server process.

Tables ``answers``, ``conversations`` and ``handoffs``, as in the SQLite backend, beside the
corpus's ``corpus_*`` tables when both use one database; their schema is versioned in the
``citeline_schema`` ledger (components ``server`` and ``handoffs``) and migrated in place at
start-up. Work
runs on worker threads over a pooled connection and is retried on a fresh connection when
the server drops one (a restart), except appending to a conversation, which is not safe to
run twice. This module holds the schema, the PostgreSQL dialect and the runner; the stores
themselves are ``sql``'s, shared with SQLite. Deliberately not here: what is stored
(``base``), the queries (``sql``), its JSON form (``records``) or when it is stored (the
server).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from citeline.database import PostgresUrl
from citeline.database.postgres import (
    RETRY_ATTEMPTS,
    Migration,
    is_connection_lost,
    is_database_failure,
    open_pool,
    prepare,
    with_retry,
)
from citeline.server.store.base import Retention, Stores, StoreUnavailableError
from citeline.server.store.sql import Dialect, Runner, Work, sql_stores

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

_T = TypeVar("_T")

COMPONENT = "server"

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        (
            """CREATE TABLE answers (
                id text PRIMARY KEY,
                question text NOT NULL,
                text text NOT NULL,
                citations jsonb NOT NULL,
                release text,
                created_at double precision NOT NULL
            )""",
            "CREATE INDEX answers_by_age ON answers (created_at)",
            """CREATE TABLE conversations (
                id text PRIMARY KEY,
                messages jsonb NOT NULL,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL
            )""",
            "CREATE INDEX conversations_by_use ON conversations (updated_at)",
        ),
    ),
    # Conversations are bound to the identity that opened it; those stored before keep
    # '', which no caller matches, so nobody can continue them.
    Migration(2, ("ALTER TABLE conversations ADD COLUMN owner text NOT NULL DEFAULT ''",)),
    # The rate limit, counted in the database that every server process shares.
    Migration(
        3,
        (
            "CREATE TABLE rate_hits (identity text NOT NULL, at double precision NOT NULL)",
            "CREATE INDEX rate_hits_by_caller ON rate_hits (identity, at)",
            "CREATE INDEX rate_hits_by_age ON rate_hits (at)",
        ),
    ),
)

# Its own component, so the handoff table (the reactome profile's, made only for it) is
# versioned apart from the answers and conversations, whose migrations it is never ordered
# against.
HANDOFF_COMPONENT = "handoffs"

HANDOFF_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        (
            """CREATE TABLE handoffs (
                id text PRIMARY KEY,
                answer_id text NOT NULL,
                question text NOT NULL,
                text text NOT NULL,
                citations jsonb NOT NULL,
                release text,
                answered_at double precision NOT NULL,
                created_at double precision NOT NULL
            )""",
            "CREATE INDEX handoffs_by_age ON handoffs (created_at)",
        ),
    ),
)

# Connections one server process holds at most. Each store call is one short transaction,
# so a handful serve hundreds of concurrent answers; many processes times this must stay
# under the server's max_connections (100 by default).
POOL_SIZE = 8


POSTGRES = Dialect(
    param="%s",
    # JSON is sent as text and cast here, so the driver needs no JSON type of its own.
    json_param="%s::jsonb",
    # psycopg parses jsonb on the way out.
    load_json=lambda data: data,
    row_key="id",
    no_limit="LIMIT ALL",
    # An append reads then rewrites a conversation: another process's append waits for it.
    lock_row=" FOR UPDATE",
    # A caller's count, then its new hit: another process counting that caller waits.
    lock_caller="SELECT pg_advisory_xact_lock(hashtext(?))",
)


class PostgresRunner(Runner):
    """A pool and a way to run one transaction on it off the event loop."""

    dialect = POSTGRES

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    async def read(self, work: Work[_T]) -> _T:
        return await self.write(work)

    async def write(self, work: Work[_T], *, retry: bool = True) -> _T:
        # A pooled connection runs ``work`` in one transaction, committed as it goes back.
        attempts = RETRY_ATTEMPTS if retry else 1
        try:
            return await asyncio.to_thread(with_retry, self._pool, work, attempts=attempts)
        except Exception as error:
            if is_connection_lost(error):
                raise StoreUnavailableError(f"PostgreSQL could not be reached: {error}") from error
            if is_database_failure(error):
                raise StoreUnavailableError(
                    f"PostgreSQL failed the work (SQLSTATE {getattr(error, 'sqlstate', None)}: "
                    f"{error}); its log says why"
                ) from error
            raise

    def close(self) -> None:
        self._pool.close()


def open_postgres_stores(
    url: PostgresUrl,
    *,
    answers: Retention,
    conversations: Retention,
    handoffs: Retention | None = None,
    clock: Callable[[], float] = time.time,
    pool_size: int = POOL_SIZE,
) -> Stores:
    """The stores in the PostgreSQL database at ``url``, migrated, on one pool; a handoff
    store (and its table) only when ``handoffs`` says how long to keep them.

    Raises ``citeline.database.DatabaseError`` (unreachable, too old, migrated by a newer
    citeline) with a sentence that says what to do.
    """
    prepare(url, COMPONENT, MIGRATIONS)
    if handoffs is not None:
        prepare(url, HANDOFF_COMPONENT, HANDOFF_MIGRATIONS)
    runner = PostgresRunner(open_pool(url, max_size=pool_size, name="citeline-stores"))
    return sql_stores(
        runner, answers=answers, conversations=conversations, handoffs=handoffs, clock=clock
    )
