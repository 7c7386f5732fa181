"""The answer, conversation and handoff stores in PostgreSQL, shared by every server process.

Tables ``answers``, ``conversations`` and ``handoffs``, as in the SQLite backend, beside the
corpus's ``corpus_*`` tables when both use one database; their schema is versioned in the
``citeline_schema`` ledger (components ``server`` and ``handoffs``) and migrated in place at
start-up. Work
runs on worker threads over a pooled connection and is retried on a fresh connection when
the server drops one (a restart), except appending to a conversation, which is not safe to
run twice. Expired and surplus entries are removed when a new one is written, so the bound
holds without a background task. Deliberately not here: what is stored (``base``), its JSON
form (``records``) or when it is stored (the server).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from citeline.database import PostgresUrl
from citeline.database.postgres import (
    RETRY_ATTEMPTS,
    Migration,
    is_connection_lost,
    open_pool,
    prepare,
    with_retry,
)
from citeline.events import Citation
from citeline.server.store.base import (
    AnswerStore,
    Conversation,
    ConversationMessage,
    ConversationStore,
    Handoff,
    HandoffStore,
    Retention,
    StoredAnswer,
    Stores,
    StoreUnavailable,
    owner_key,
)
from citeline.server.store.records import (
    citations_from_data,
    citations_to_data,
    messages_from_data,
    messages_to_data,
)

if TYPE_CHECKING:
    import psycopg
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


def _json(data: Any) -> str:
    # Sent as text and cast in SQL, so importing this module does not need the driver.
    return json.dumps(data, ensure_ascii=False)


def _trim(
    connection: psycopg.Connection[Any],
    table: str,
    age_column: str,
    retention: Retention,
    now: float,
) -> None:
    connection.execute(
        f"DELETE FROM {table} WHERE {age_column} < %s", (now - retention.ttl_seconds,)
    )
    connection.execute(
        f"DELETE FROM {table} WHERE id IN (SELECT id FROM {table} "
        f"ORDER BY {age_column} DESC, id DESC OFFSET %s)",
        (retention.max_entries,),
    )


class _Database:
    """A pool and a way to run one transaction on it off the event loop."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    async def run(self, work: Callable[[psycopg.Connection[Any]], _T], *, retry: bool = True) -> _T:
        attempts = RETRY_ATTEMPTS if retry else 1
        try:
            return await asyncio.to_thread(with_retry, self._pool, work, attempts=attempts)
        except Exception as error:
            if is_connection_lost(error):
                raise StoreUnavailable(f"PostgreSQL could not be reached: {error}") from error
            raise

    def close(self) -> None:
        self._pool.close()


class PostgresAnswerStore(AnswerStore):
    def __init__(
        self, database: _Database, retention: Retention, clock: Callable[[], float]
    ) -> None:
        self._database = database
        self._retention = retention
        self._clock = clock

    async def add(
        self,
        *,
        question: str,
        text: str,
        citations: Sequence[Citation],
        release: str | None,
    ) -> StoredAnswer:
        answer = StoredAnswer.fresh(
            question=question,
            text=text,
            citations=citations,
            release=release,
            created_at=self._clock(),
        )

        def write(connection: psycopg.Connection[Any]) -> None:
            # ON CONFLICT makes a retry after a lost reply a no-op instead of an error.
            connection.execute(
                "INSERT INTO answers (id, question, text, citations, release, created_at) "
                "VALUES (%s, %s, %s, %s::jsonb, %s, %s) ON CONFLICT (id) DO NOTHING",
                (
                    answer.id,
                    answer.question,
                    answer.text,
                    _json(citations_to_data(answer.citations)),
                    answer.release,
                    answer.created_at,
                ),
            )
            _trim(connection, "answers", "created_at", self._retention, answer.created_at)

        await self._database.run(write)
        return answer

    async def get(self, answer_id: str) -> StoredAnswer | None:
        oldest = self._clock() - self._retention.ttl_seconds

        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT id, question, text, citations, release, created_at FROM answers "
                "WHERE id = %s AND created_at >= %s",
                (answer_id, oldest),
            ).fetchone()

        row = await self._database.run(read)
        if row is None:
            return None
        return StoredAnswer(
            id=row[0],
            question=row[1],
            text=row[2],
            citations=citations_from_data(row[3]),
            release=row[4],
            created_at=row[5],
        )


class PostgresConversationStore(ConversationStore):
    def __init__(
        self, database: _Database, retention: Retention, clock: Callable[[], float]
    ) -> None:
        self._database = database
        self._retention = retention
        self._clock = clock

    async def create(
        self, messages: Sequence[ConversationMessage], *, identity: str
    ) -> Conversation:
        now = self._clock()
        conversation = Conversation.fresh(messages, now, owner=owner_key(identity))

        def write(connection: psycopg.Connection[Any]) -> None:
            connection.execute(
                "INSERT INTO conversations (id, messages, created_at, updated_at, owner) "
                "VALUES (%s, %s::jsonb, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (
                    conversation.id,
                    _json(messages_to_data(conversation.messages)),
                    now,
                    now,
                    conversation.owner,
                ),
            )
            _trim(connection, "conversations", "updated_at", self._retention, now)

        await self._database.run(write)
        return conversation

    async def get(self, conversation_id: str) -> Conversation | None:
        oldest = self._clock() - self._retention.ttl_seconds

        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT messages, created_at, updated_at, owner FROM conversations "
                "WHERE id = %s AND updated_at >= %s",
                (conversation_id, oldest),
            ).fetchone()

        row = await self._database.run(read)
        if row is None:
            return None
        return Conversation(
            id=conversation_id,
            messages=messages_from_data(row[0]),
            created_at=row[1],
            updated_at=row[2],
            owner=row[3],
        )

    async def append(
        self, conversation_id: str, messages: Sequence[ConversationMessage]
    ) -> Conversation | None:
        now = self._clock()

        def write(connection: psycopg.Connection[Any]) -> Any:
            # One statement appends, so two processes appending to one conversation at once
            # both land, in commit order, instead of one overwriting the other.
            row = connection.execute(
                "UPDATE conversations SET messages = messages || %s::jsonb, updated_at = %s "
                "WHERE id = %s AND updated_at >= %s "
                "RETURNING messages, created_at, updated_at, owner",
                (
                    _json(messages_to_data(messages)),
                    now,
                    conversation_id,
                    now - self._retention.ttl_seconds,
                ),
            ).fetchone()
            if row is not None:
                _trim(connection, "conversations", "updated_at", self._retention, now)
            return row

        # Not retried: if the reply to a committed append is lost, running it again would
        # put the messages in the conversation twice.
        row = await self._database.run(write, retry=False)
        if row is None:
            return None
        return Conversation(
            id=conversation_id,
            messages=messages_from_data(row[0]),
            created_at=row[1],
            updated_at=row[2],
            owner=row[3],
        )


class PostgresHandoffStore(HandoffStore):
    def __init__(
        self, database: _Database, retention: Retention, clock: Callable[[], float]
    ) -> None:
        self._database = database
        self._retention = retention
        self._clock = clock

    async def add(self, answer: StoredAnswer) -> Handoff:
        handoff = Handoff.fresh(answer, self._clock())

        def write(connection: psycopg.Connection[Any]) -> None:
            # ON CONFLICT makes a retry after a lost reply a no-op instead of an error.
            connection.execute(
                "INSERT INTO handoffs (id, answer_id, question, text, citations, release, "
                "answered_at, created_at) VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                (
                    handoff.id,
                    answer.id,
                    answer.question,
                    answer.text,
                    _json(citations_to_data(answer.citations)),
                    answer.release,
                    answer.created_at,
                    handoff.created_at,
                ),
            )
            _trim(connection, "handoffs", "created_at", self._retention, handoff.created_at)

        await self._database.run(write)
        return handoff

    async def get(self, handoff_id: str) -> Handoff | None:
        # Strictly newer than the cut-off: at its time-to-live exactly, a handoff has expired.
        oldest = self._clock() - self._retention.ttl_seconds

        def read(connection: psycopg.Connection[Any]) -> Any:
            return connection.execute(
                "SELECT id, answer_id, question, text, citations, release, answered_at, "
                "created_at FROM handoffs WHERE id = %s AND created_at > %s",
                (handoff_id, oldest),
            ).fetchone()

        row = await self._database.run(read)
        if row is None:
            return None
        answer = StoredAnswer(
            id=row[1],
            question=row[2],
            text=row[3],
            citations=citations_from_data(row[4]),
            release=row[5],
            created_at=row[6],
        )
        return Handoff(id=row[0], answer=answer, created_at=row[7])


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
    database = _Database(open_pool(url, max_size=pool_size, name="citeline-stores"))
    return Stores(
        answers=PostgresAnswerStore(database, answers, clock),
        conversations=PostgresConversationStore(database, conversations, clock),
        close=database.close,
        handoffs=None if handoffs is None else PostgresHandoffStore(database, handoffs, clock),
    )
