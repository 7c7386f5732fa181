"""The answer, conversation and handoff stores, written once over a small per-backend runner.

Every backend (``sqlite``, ``postgres``) keeps the same three tables and answers the same
queries; what differs is how a parameter is written, how JSON goes in and comes out, how a
row is locked, and how a unit of work reaches a connection. A backend says the first four in
a ``Dialect`` and the last in a ``Runner``; everything else (the SQL, expiry, the bound,
building records) is here, once. Expired and surplus entries are removed when a new one is
written, so the bound holds without a background task.

Deliberately not here: the schema and its migrations, connections, threads and retries
(each backend module), what a record is (``base``) or its JSON form (``records``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from citeline.events import Citation
from citeline.server.store.base import (
    AnswerStore,
    Conversation,
    ConversationMessage,
    ConversationStore,
    Handoff,
    HandoffStore,
    RateHits,
    Retention,
    StoredAnswer,
    Stores,
    owner_key,
)
from citeline.server.store.records import (
    citations_from_data,
    citations_to_data,
    messages_from_data,
    messages_to_data,
)

_T = TypeVar("_T")


class Cursor(Protocol):
    def fetchone(self) -> Any: ...


class Connection(Protocol):
    """What the stores ask of a connection: ``sqlite3`` and ``psycopg`` both have it."""

    def execute(self, query: str, params: Sequence[Any], /) -> Any: ...


Work = Callable[[Connection], _T]


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one backend's SQL differs from the statements written here.

    Statements are written with ``?`` for a parameter and ``:json`` for a JSON one;
    ``sql`` turns them into this backend's form.
    """

    param: str
    json_param: str
    # Turns a JSON column as the driver returns it (text, or already parsed) into data.
    load_json: Callable[[Any], Any]
    # The column that orders rows of equal age (insertion order where the backend has one).
    row_key: str
    # What stands before OFFSET to mean "no limit".
    no_limit: str
    # Appended to a SELECT that is about to be updated, so a concurrent writer waits.
    lock_row: str
    # Run first in a transaction that counts one caller's rate limit, so that another
    # process counting the same caller waits for it ("" where the transaction already
    # holds the whole database, as SQLite's BEGIN IMMEDIATE does).
    lock_caller: str = ""

    def sql(self, statement: str) -> str:
        return statement.replace(":json", self.json_param).replace("?", self.param)


class Runner(ABC):
    """Runs units of work on one backend's connection, off the event loop.

    Both methods raise ``StoreUnavailableError`` when the database is out of reach, and let any
    other error through: that one is a bug, not an outage.
    """

    dialect: Dialect

    @abstractmethod
    async def read(self, work: Work[_T]) -> _T:
        """``work`` on a connection; it writes nothing."""

    @abstractmethod
    async def write(self, work: Work[_T], *, retry: bool = True) -> _T:
        """``work`` in one transaction that no other writer interleaves with; retried on a
        fresh connection after a lost one unless ``retry`` is false (work not safe twice)."""

    @abstractmethod
    def close(self) -> None:
        """Release the connections."""


def _dump_json(data: Any) -> str:
    # Sent as text (cast in SQL where the column is typed), so no driver type is needed.
    return json.dumps(data, ensure_ascii=False)


def _answer_row(answer: StoredAnswer) -> tuple[Any, ...]:
    """An answer's columns in the order every table that holds one lists them."""
    citations = _dump_json(citations_to_data(answer.citations))
    return (answer.id, answer.question, answer.text, citations, answer.release, answer.created_at)


def _answer_from_row(row: Sequence[Any], dialect: Dialect) -> StoredAnswer:
    """The answer in columns laid out as ``_answer_row`` writes them."""
    citations = citations_from_data(dialect.load_json(row[3]))
    return StoredAnswer(row[0], row[1], row[2], citations, row[4], row[5])


class _Table:
    """One table: its bound (entries past their time-to-live, then the oldest past the
    count), and the two ways every store uses it: add a row, find a live row by id."""

    def __init__(
        self,
        runner: Runner,
        table: str,
        age_column: str,
        retention: Retention,
        clock: Callable[[], float],
    ) -> None:
        self.runner = runner
        self.dialect = runner.dialect
        self.retention = retention
        self.clock = clock
        key = self.dialect.row_key
        self._expire = self.dialect.sql(f"DELETE FROM {table} WHERE {age_column} < ?")
        self._bound = self.dialect.sql(
            f"DELETE FROM {table} WHERE {key} IN (SELECT {key} FROM {table} "
            f"ORDER BY {age_column} DESC, {key} DESC {self.dialect.no_limit} OFFSET ?)"
        )

    def oldest_alive(self) -> float:
        return self.clock() - self.retention.ttl_seconds

    def trim(self, connection: Connection, now: float) -> None:
        connection.execute(self._expire, (now - self.retention.ttl_seconds,))
        connection.execute(self._bound, (self.retention.max_entries,))

    async def insert(self, statement: str, row: Sequence[Any], now: float) -> None:
        """Write ``row`` and trim the table, in one transaction."""

        def write(connection: Connection) -> None:
            connection.execute(statement, row)
            self.trim(connection, now)

        await self.runner.write(write)

    async def find(self, statement: str, entry_id: str) -> Any:
        """The one row ``statement`` selects by id and cut-off age, or None."""
        oldest = self.oldest_alive()
        return await self.runner.read(
            lambda connection: connection.execute(statement, (entry_id, oldest)).fetchone()
        )


class SQLAnswerStore(AnswerStore):
    def __init__(self, table: _Table) -> None:
        self._table = table
        sql = table.dialect.sql
        # ON CONFLICT makes a retry after a lost reply a no-op instead of an error.
        self._insert = sql(
            "INSERT INTO answers (id, question, text, citations, release, created_at) "
            "VALUES (?, ?, ?, :json, ?, ?) ON CONFLICT (id) DO NOTHING"
        )
        self._select = sql(
            "SELECT id, question, text, citations, release, created_at FROM answers "
            "WHERE id = ? AND created_at >= ?"
        )

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
            created_at=self._table.clock(),
        )
        await self._table.insert(self._insert, _answer_row(answer), answer.created_at)
        return answer

    async def get(self, answer_id: str) -> StoredAnswer | None:
        row = await self._table.find(self._select, answer_id)
        return None if row is None else _answer_from_row(row, self._table.dialect)


class SQLConversationStore(ConversationStore):
    def __init__(self, table: _Table) -> None:
        self._table = table
        sql = table.dialect.sql
        self._insert = sql(
            "INSERT INTO conversations (id, messages, created_at, updated_at, owner) "
            "VALUES (?, :json, ?, ?, ?) ON CONFLICT (id) DO NOTHING"
        )
        select = (
            "SELECT messages, created_at, updated_at, owner FROM conversations "
            "WHERE id = ? AND updated_at >= ?"
        )
        self._select = sql(select)
        self._select_for_update = sql(select + table.dialect.lock_row)
        self._update = sql("UPDATE conversations SET messages = :json, updated_at = ? WHERE id = ?")

    def _from_row(self, conversation_id: str, row: Any) -> Conversation | None:
        if row is None:
            return None
        return Conversation(
            id=conversation_id,
            messages=messages_from_data(self._table.dialect.load_json(row[0])),
            created_at=row[1],
            updated_at=row[2],
            owner=row[3],
        )

    async def create(
        self, messages: Sequence[ConversationMessage], *, identity: str
    ) -> Conversation:
        now = self._table.clock()
        conversation = Conversation.fresh(messages, now, owner=owner_key(identity))
        messages_json = _dump_json(messages_to_data(conversation.messages))
        row = (conversation.id, messages_json, now, now, conversation.owner)
        await self._table.insert(self._insert, row, now)
        return conversation

    async def get(self, conversation_id: str) -> Conversation | None:
        return self._from_row(
            conversation_id, await self._table.find(self._select, conversation_id)
        )

    async def append(
        self, conversation_id: str, messages: Sequence[ConversationMessage]
    ) -> Conversation | None:
        def write(connection: Connection) -> Conversation | None:
            # Read and rewrite in one transaction with the row locked, so two processes
            # appending to one conversation at once both land, in commit order, instead of
            # one overwriting the other.
            oldest = self._table.oldest_alive()
            row = connection.execute(self._select_for_update, (conversation_id, oldest))
            current = self._from_row(conversation_id, row.fetchone())
            if current is None:
                return None
            now = self._table.clock()
            updated = Conversation(
                id=conversation_id,
                messages=current.messages + tuple(messages),
                created_at=current.created_at,
                updated_at=now,
                owner=current.owner,
            )
            connection.execute(
                self._update,
                (_dump_json(messages_to_data(updated.messages)), now, conversation_id),
            )
            self._table.trim(connection, now)
            return updated

        # Not retried: if the reply to a committed append is lost, running it again would
        # put the messages in the conversation twice.
        return await self._table.runner.write(write, retry=False)


class SQLHandoffStore(HandoffStore):
    def __init__(self, table: _Table) -> None:
        self._table = table
        sql = table.dialect.sql
        self._insert = sql(
            "INSERT INTO handoffs (id, answer_id, question, text, citations, release, "
            "answered_at, created_at) VALUES (?, ?, ?, ?, :json, ?, ?, ?) "
            "ON CONFLICT (id) DO NOTHING"
        )
        # Strictly newer than the cut-off: at its time-to-live exactly, a handoff has expired.
        self._select = sql(
            "SELECT id, answer_id, question, text, citations, release, answered_at, "
            "created_at FROM handoffs WHERE id = ? AND created_at > ?"
        )

    async def add(self, answer: StoredAnswer) -> Handoff:
        handoff = Handoff.fresh(answer, self._table.clock())
        row = (handoff.id, *_answer_row(answer), handoff.created_at)
        await self._table.insert(self._insert, row, handoff.created_at)
        return handoff

    async def get(self, handoff_id: str) -> Handoff | None:
        row = await self._table.find(self._select, handoff_id)
        if row is None:
            return None
        answer = _answer_from_row(row[1:7], self._table.dialect)
        return Handoff(id=row[0], answer=answer, created_at=row[7])


class SQLRateHits(RateHits):
    """The rate limit's hits as rows of ``rate_hits`` (caller, time), counted and added in
    one transaction that no other writer of the same caller interleaves with, so N
    processes admit exactly the limit between them. Rows past every window are removed as
    new ones are written: the table holds at most the answers of one window."""

    def __init__(self, runner: Runner, clock: Callable[[], float]) -> None:
        self._runner = runner
        self._clock = clock
        dialect = runner.dialect
        self._expire = dialect.sql("DELETE FROM rate_hits WHERE at <= ?")
        self._count = dialect.sql("SELECT count(*) FROM rate_hits WHERE identity = ? AND at > ?")
        self._add = dialect.sql("INSERT INTO rate_hits (identity, at) VALUES (?, ?)")
        self._lock = dialect.sql(dialect.lock_caller) if dialect.lock_caller else ""

    async def hit(self, identity: str, *, limit: int, window_seconds: float) -> bool:
        now = self._clock()
        since = now - window_seconds

        def count(connection: Connection) -> bool:
            if self._lock:
                connection.execute(self._lock, (identity,))
            connection.execute(self._expire, (since,))
            row = connection.execute(self._count, (identity, since)).fetchone()
            if row is not None and int(row[0]) >= limit:
                return False
            connection.execute(self._add, (identity, now))
            return True

        # Not retried on a lost connection: a hit counted before the loss would count twice.
        return await self._runner.write(count, retry=False)


def sql_stores(
    runner: Runner,
    *,
    answers: Retention,
    conversations: Retention,
    handoffs: Retention | None,
    clock: Callable[[], float],
) -> Stores:
    """The stores on ``runner``'s database; a handoff store only when ``handoffs`` is given
    (its table must then exist)."""
    return Stores(
        answers=SQLAnswerStore(_Table(runner, "answers", "created_at", answers, clock)),
        conversations=SQLConversationStore(
            _Table(runner, "conversations", "updated_at", conversations, clock)
        ),
        close=runner.close,
        handoffs=None
        if handoffs is None
        else SQLHandoffStore(_Table(runner, "handoffs", "created_at", handoffs, clock)),
        rate_hits=SQLRateHits(runner, clock),
    )
