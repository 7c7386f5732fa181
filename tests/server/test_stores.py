"""The answer and conversation stores, one suite for every backend (``backend`` fixture).

Each backend is a name in ``BACKENDS`` and a branch in ``open_backend``; the tests below
hold every one to the same behaviour. The PostgreSQL runs need ``CITELINE_TEST_POSTGRES_URL``
(``.ci/services start``) and are skipped, saying so, without it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citeline.database import PostgresUrl
from citeline.events import Citation
from citeline.server.store import ConversationMessage, Retention, Stores, open_sqlite_stores
from citeline.server.store.postgres import open_postgres_stores

BACKENDS = ["sqlite", "postgres"]


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


OpenBackend = Callable[..., Stores]


@pytest.fixture(params=BACKENDS)
def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenBackend]:
    opened: list[Stores] = []

    # Asked for before the first open, so a PostgreSQL run without a server skips up front.
    postgres_url = request.getfixturevalue("postgres_url") if request.param == "postgres" else ""

    def open_backend(clock: Clock, *, ttl: float = 3600, max_entries: int = 2048) -> Stores:
        retention = Retention(ttl, max_entries)
        if request.param == "postgres":
            stores = open_postgres_stores(
                PostgresUrl(postgres_url), answers=retention, conversations=retention, clock=clock
            )
        else:
            stores = open_sqlite_stores(
                tmp_path / "citeline.db", answers=retention, conversations=retention, clock=clock
            )
        opened.append(stores)
        return stores

    yield open_backend
    for stores in opened:
        stores.close()


CITATIONS = (
    Citation(n=1, display_name="Apoptosis", id="R-HSA-109581", start=0, end=9),
    Citation(n=2, display_name="A page", url="https://example.org/p", quote="q", verified=True),
)


async def test_an_answer_comes_back_exactly_as_stored(open_backend: OpenBackend) -> None:
    stores = open_backend(Clock())
    stored = await stores.answers.add(
        question="Q?", text="Apoptosis *is* — ünïcode.\n", citations=CITATIONS, release="r"
    )
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", stored.id)
    assert await stores.answers.get(stored.id) == stored


async def test_ids_are_never_reused(open_backend: OpenBackend) -> None:
    stores = open_backend(Clock())
    ids = {
        (await stores.answers.add(question="q", text="t", citations=(), release=None)).id
        for _ in range(50)
    }
    assert len(ids) == 50


async def test_an_answer_expires_after_its_ttl(open_backend: OpenBackend) -> None:
    clock = Clock()
    stores = open_backend(clock, ttl=60)
    stored = await stores.answers.add(question="q", text="t", citations=(), release=None)
    clock.now += 60
    assert await stores.answers.get(stored.id) == stored
    clock.now += 1
    assert await stores.answers.get(stored.id) is None


async def test_the_oldest_answers_are_evicted_first(open_backend: OpenBackend) -> None:
    clock = Clock()
    stores = open_backend(clock, max_entries=3)
    ids = []
    for number in range(5):
        clock.now += 1
        ids.append(
            (
                await stores.answers.add(question=str(number), text="t", citations=(), release=None)
            ).id
        )
    kept = [answer_id for answer_id in ids if await stores.answers.get(answer_id) is not None]
    assert kept == ids[2:]


async def test_answers_survive_reopening_the_store(open_backend: OpenBackend) -> None:
    clock = Clock()
    stored = await open_backend(clock).answers.add(
        question="q", text="t", citations=CITATIONS, release=None
    )
    assert await open_backend(clock).answers.get(stored.id) == stored


async def test_a_conversation_grows_by_appending(open_backend: OpenBackend) -> None:
    clock = Clock()
    stores = open_backend(clock)
    opening = (
        ConversationMessage("user", "Q?"),
        ConversationMessage("assistant", "A.", CITATIONS),
    )
    conversation = await stores.conversations.create(opening, identity="sub:reader-1")
    clock.now += 5
    updated = await stores.conversations.append(
        conversation.id, (ConversationMessage("user", "More?"),)
    )
    assert updated is not None
    assert updated.messages == (*opening, ConversationMessage("user", "More?"))
    assert updated.updated_at == conversation.created_at + 5
    assert await stores.conversations.get(conversation.id) == updated


async def test_a_conversation_expires_after_its_last_use_not_its_creation(
    open_backend: OpenBackend,
) -> None:
    clock = Clock()
    stores = open_backend(clock, ttl=60)
    conversation = await stores.conversations.create((), identity="sub:reader-1")
    clock.now += 50
    await stores.conversations.append(conversation.id, (ConversationMessage("user", "hi"),))
    clock.now += 50
    assert await stores.conversations.get(conversation.id) is not None
    clock.now += 61
    assert await stores.conversations.get(conversation.id) is None
    assert (
        await stores.conversations.append(conversation.id, (ConversationMessage("user", "x"),))
        is None
    )


async def test_the_least_recently_used_conversations_are_evicted_first(
    open_backend: OpenBackend,
) -> None:
    clock = Clock()
    stores = open_backend(clock, max_entries=2)
    first = await stores.conversations.create((), identity="sub:reader-1")
    clock.now += 1
    second = await stores.conversations.create((), identity="sub:reader-1")
    clock.now += 1
    await stores.conversations.append(first.id, (ConversationMessage("user", "still here"),))
    clock.now += 1
    third = await stores.conversations.create((), identity="sub:reader-1")
    assert await stores.conversations.get(second.id) is None
    assert await stores.conversations.get(first.id) is not None
    assert await stores.conversations.get(third.id) is not None


async def test_a_conversation_belongs_to_the_identity_that_opened_it(
    open_backend: OpenBackend,
) -> None:
    clock = Clock()
    stores = open_backend(clock)
    conversation = await stores.conversations.create((), identity="sub:reader-1")
    await stores.conversations.append(conversation.id, (ConversationMessage("user", "hi"),))
    stored = await stores.conversations.get(conversation.id)
    assert stored is not None
    assert stored.is_owned_by("sub:reader-1")
    assert not stored.is_owned_by("sub:reader-2")
    assert not stored.is_owned_by("addr:127.0.0.1")
    # The store keeps a digest, not the reader's subject or address.
    assert "reader-1" not in stored.owner


def test_conversations_stored_before_owners_existed_are_nobodys(tmp_path: Path) -> None:
    import asyncio
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        old.execute(
            "CREATE TABLE conversations (id TEXT PRIMARY KEY, messages TEXT NOT NULL, "
            "created_at REAL NOT NULL, updated_at REAL NOT NULL)"
        )
        old.execute("INSERT INTO conversations VALUES ('legacy', '[]', 1.8e9, 1.8e9)")
    clock = Clock()
    retention = Retention(3600, 10)
    stores = open_sqlite_stores(path, answers=retention, conversations=retention, clock=clock)
    try:
        legacy = asyncio.run(stores.conversations.get("legacy"))
        assert legacy is not None and legacy.owner == ""
        assert not legacy.is_owned_by("sub:anyone")
        fresh = asyncio.run(stores.conversations.create((), identity="sub:anyone"))
        assert fresh.is_owned_by("sub:anyone")
    finally:
        stores.close()
