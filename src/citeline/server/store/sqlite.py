"""The answer, conversation and handoff stores in a SQLite file (by default the corpus's own).

Tables ``answers``, ``conversations`` and ``handoffs`` sit beside the corpus's ``corpus_*``
tables; WAL lets the corpus read while a store writes. One connection per file, serialised
by a lock and used from worker threads, so the event loop never waits on the disk. Expired
and surplus entries are removed when a new one is written, so the bound holds without a
background task. Deliberately not here: what is stored (``base``) or when (the server).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from citeline.events import Citation
from citeline.server.errors import StartupError
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

_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    text TEXT NOT NULL,
    citations TEXT NOT NULL,
    release TEXT,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_age ON answers (created_at);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    messages TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    owner TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS conversations_by_use ON conversations (updated_at);
"""

# Only for stores that keep handoffs (the reactome profile's), so a native file has no
# table it never uses.
_HANDOFF_SCHEMA = """
CREATE TABLE IF NOT EXISTS handoffs (
    id TEXT PRIMARY KEY,
    answer_id TEXT NOT NULL,
    question TEXT NOT NULL,
    text TEXT NOT NULL,
    citations TEXT NOT NULL,
    release TEXT,
    answered_at REAL NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS handoffs_by_age ON handoffs (created_at);
"""


def _add_owner_column(connection: sqlite3.Connection) -> None:
    """Give a file made before conversations had owners its ``owner`` column; its old
    conversations keep ``''``, which no caller matches, so nobody can continue them."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(conversations)")}
    if "owner" not in columns:
        connection.execute("ALTER TABLE conversations ADD COLUMN owner TEXT NOT NULL DEFAULT ''")


class _Database:
    """One connection, one lock, and a way to run work on it off the event loop."""

    def __init__(self, path: Path) -> None:
        try:
            self._connection = sqlite3.connect(
                path, check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.executescript(_SCHEMA)
            _add_owner_column(self._connection)
        except sqlite3.Error as error:
            raise StartupError(
                f"The database {path} cannot hold answers ({error}); check that the file is "
                "a SQLite database this user can write, or point --db elsewhere."
            ) from None
        self._lock = threading.Lock()
        self._path = path

    def add_handoffs(self) -> None:
        """Create the handoff table if missing (only stores that keep handoffs need it)."""
        try:
            with self._lock:
                self._connection.executescript(_HANDOFF_SCHEMA)
        except sqlite3.Error as error:
            raise StartupError(
                f"The database {self._path} cannot hold handoffs ({error}); check that the "
                "file is a SQLite database this user can write, or point --db elsewhere."
            ) from None

    def _locked(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        with self._lock:
            return work(self._connection)

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        try:
            return await asyncio.to_thread(self._locked, work)
        except sqlite3.OperationalError as error:
            # Locked past the busy timeout, a full disk, an I/O error: the store is out of
            # reach for now; the request itself was not wrong.
            raise StoreUnavailable(f"the SQLite store could not be used: {error}") from error

    def transaction(
        self, work: Callable[[sqlite3.Connection], _T]
    ) -> Callable[[sqlite3.Connection], _T]:
        """``work`` inside BEGIN IMMEDIATE ... COMMIT, so another process cannot interleave."""

        def wrapped(connection: sqlite3.Connection) -> _T:
            connection.execute("BEGIN IMMEDIATE")
            try:
                result = work(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
            return result

        return wrapped

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _citations_json(citations: Sequence[Citation]) -> str:
    return json.dumps(citations_to_data(citations), ensure_ascii=False)


def _messages_json(messages: Sequence[ConversationMessage]) -> str:
    return json.dumps(messages_to_data(messages), ensure_ascii=False)


def _trim(
    connection: sqlite3.Connection, table: str, age_column: str, retention: Retention, now: float
) -> None:
    connection.execute(
        f"DELETE FROM {table} WHERE {age_column} < ?", (now - retention.ttl_seconds,)
    )
    connection.execute(
        f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} "
        f"ORDER BY {age_column} DESC, rowid DESC LIMIT -1 OFFSET ?)",
        (retention.max_entries,),
    )


class SQLiteAnswerStore(AnswerStore):
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

        def write(connection: sqlite3.Connection) -> None:
            connection.execute(
                "INSERT INTO answers (id, question, text, citations, release, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    answer.id,
                    answer.question,
                    answer.text,
                    _citations_json(answer.citations),
                    answer.release,
                    answer.created_at,
                ),
            )
            _trim(connection, "answers", "created_at", self._retention, answer.created_at)

        await self._database.run(self._database.transaction(write))
        return answer

    async def get(self, answer_id: str) -> StoredAnswer | None:
        oldest = self._clock() - self._retention.ttl_seconds

        def read(connection: sqlite3.Connection) -> Any:
            return connection.execute(
                "SELECT id, question, text, citations, release, created_at FROM answers "
                "WHERE id = ? AND created_at >= ?",
                (answer_id, oldest),
            ).fetchone()

        row = await self._database.run(read)
        if row is None:
            return None
        return StoredAnswer(
            id=row[0],
            question=row[1],
            text=row[2],
            citations=citations_from_data(json.loads(row[3])),
            release=row[4],
            created_at=row[5],
        )


class SQLiteConversationStore(ConversationStore):
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

        def write(connection: sqlite3.Connection) -> None:
            connection.execute(
                "INSERT INTO conversations (id, messages, created_at, updated_at, owner) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    conversation.id,
                    _messages_json(conversation.messages),
                    now,
                    now,
                    conversation.owner,
                ),
            )
            _trim(connection, "conversations", "updated_at", self._retention, now)

        await self._database.run(self._database.transaction(write))
        return conversation

    def _read(self, connection: sqlite3.Connection, conversation_id: str) -> Conversation | None:
        row = connection.execute(
            "SELECT messages, created_at, updated_at, owner FROM conversations "
            "WHERE id = ? AND updated_at >= ?",
            (conversation_id, self._clock() - self._retention.ttl_seconds),
        ).fetchone()
        if row is None:
            return None
        return Conversation(
            id=conversation_id,
            messages=messages_from_data(json.loads(row[0])),
            created_at=row[1],
            updated_at=row[2],
            owner=row[3],
        )

    async def get(self, conversation_id: str) -> Conversation | None:
        return await self._database.run(lambda connection: self._read(connection, conversation_id))

    async def append(
        self, conversation_id: str, messages: Sequence[ConversationMessage]
    ) -> Conversation | None:
        def write(connection: sqlite3.Connection) -> Conversation | None:
            current = self._read(connection, conversation_id)
            if current is None:
                return None
            now = self._clock()
            updated = Conversation(
                id=conversation_id,
                messages=current.messages + tuple(messages),
                created_at=current.created_at,
                updated_at=now,
                owner=current.owner,
            )
            connection.execute(
                "UPDATE conversations SET messages = ?, updated_at = ? WHERE id = ?",
                (_messages_json(updated.messages), now, conversation_id),
            )
            _trim(connection, "conversations", "updated_at", self._retention, now)
            return updated

        return await self._database.run(self._database.transaction(write))


class SQLiteHandoffStore(HandoffStore):
    def __init__(
        self, database: _Database, retention: Retention, clock: Callable[[], float]
    ) -> None:
        self._database = database
        self._retention = retention
        self._clock = clock

    async def add(self, answer: StoredAnswer) -> Handoff:
        handoff = Handoff.fresh(answer, self._clock())

        def write(connection: sqlite3.Connection) -> None:
            connection.execute(
                "INSERT INTO handoffs (id, answer_id, question, text, citations, release, "
                "answered_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    handoff.id,
                    answer.id,
                    answer.question,
                    answer.text,
                    _citations_json(answer.citations),
                    answer.release,
                    answer.created_at,
                    handoff.created_at,
                ),
            )
            _trim(connection, "handoffs", "created_at", self._retention, handoff.created_at)

        await self._database.run(self._database.transaction(write))
        return handoff

    async def get(self, handoff_id: str) -> Handoff | None:
        # Strictly newer than the cut-off: at its time-to-live exactly, a handoff has expired.
        oldest = self._clock() - self._retention.ttl_seconds

        def read(connection: sqlite3.Connection) -> Any:
            return connection.execute(
                "SELECT id, answer_id, question, text, citations, release, answered_at, "
                "created_at FROM handoffs WHERE id = ? AND created_at > ?",
                (handoff_id, oldest),
            ).fetchone()

        row = await self._database.run(read)
        if row is None:
            return None
        answer = StoredAnswer(
            id=row[1],
            question=row[2],
            text=row[3],
            citations=citations_from_data(json.loads(row[4])),
            release=row[5],
            created_at=row[6],
        )
        return Handoff(id=row[0], answer=answer, created_at=row[7])


def open_sqlite_stores(
    path: Path,
    *,
    answers: Retention,
    conversations: Retention,
    handoffs: Retention | None = None,
    clock: Callable[[], float] = time.time,
) -> Stores:
    """The stores in the SQLite file at ``path`` (created if missing), on one connection;
    a handoff store only when ``handoffs`` says how long to keep them."""
    database = _Database(path)
    if handoffs is not None:
        database.add_handoffs()
    return Stores(
        answers=SQLiteAnswerStore(database, answers, clock),
        conversations=SQLiteConversationStore(database, conversations, clock),
        close=database.close,
        handoffs=None if handoffs is None else SQLiteHandoffStore(database, handoffs, clock),
    )
