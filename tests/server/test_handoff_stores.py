"""The handoff store, one suite for every backend: a copy of an answer, redeemable until it expires.

The PostgreSQL runs need ``CITELINE_TEST_POSTGRES_URL`` (``.ci/services start``) and are
skipped, saying so, without it.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.database import PostgresUrl
from citeline.events import Citation
from citeline.server.store import Retention, StoredAnswer, Stores, open_sqlite_stores
from citeline.server.store.postgres import open_postgres_stores

CITATIONS = (
    Citation(n=1, display_name="Apoptosis", id="R-HSA-109581", start=0, end=9),
    Citation(n=2, display_name="the user guide", url="https://reactome.org/userguide"),
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


OpenBackend = Callable[..., Stores]


@pytest.fixture(params=["sqlite", "postgres"])
def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenBackend]:
    opened: list[Stores] = []
    postgres_url = request.getfixturevalue("postgres_url") if request.param == "postgres" else ""

    def open_backend(
        clock: Clock, *, handoff_ttl: float = 900, answer_ttl: float = 3600, max_entries: int = 64
    ) -> Stores:
        answers = Retention(answer_ttl, max_entries)
        handoffs = Retention(handoff_ttl, max_entries)
        if request.param == "postgres":
            stores = open_postgres_stores(
                PostgresUrl(postgres_url),
                answers=answers,
                conversations=answers,
                handoffs=handoffs,
                clock=clock,
            )
        else:
            stores = open_sqlite_stores(
                tmp_path / "citeline.db",
                answers=answers,
                conversations=answers,
                handoffs=handoffs,
                clock=clock,
            )
        opened.append(stores)
        return stores

    yield open_backend
    for stores in opened:
        stores.close()


async def _answer(stores: Stores) -> StoredAnswer:
    return await stores.answers.add(
        question="What is apoptosis?",
        text="Apoptosis — ünïcode *is*.\n",
        citations=CITATIONS,
        release="97",
    )


async def test_a_handoff_holds_the_answer_exactly_as_stored(open_backend: OpenBackend) -> None:
    stores = open_backend(Clock())
    assert stores.handoffs is not None
    answer = await _answer(stores)
    handoff = await stores.handoffs.add(answer)
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", handoff.id)
    assert handoff.id != answer.id
    assert await stores.handoffs.get(handoff.id) == handoff
    assert handoff.answer == answer


async def test_a_handoff_redeems_repeatedly_until_its_ttl_and_never_after(
    open_backend: OpenBackend,
) -> None:
    clock = Clock()
    stores = open_backend(clock, handoff_ttl=900)
    assert stores.handoffs is not None
    handoff = await stores.handoffs.add(await _answer(stores))
    for _ in range(3):
        assert await stores.handoffs.get(handoff.id) == handoff
    clock.now += 899.999
    assert await stores.handoffs.get(handoff.id) == handoff
    clock.now = handoff.created_at + 900
    assert await stores.handoffs.get(handoff.id) is None
    # Writing another handoff (which trims the table) or waiting longer changes nothing.
    await stores.handoffs.add(await _answer(stores))
    clock.now += 10_000
    assert await stores.handoffs.get(handoff.id) is None


async def test_a_handoff_outlives_the_answer_it_copied(open_backend: OpenBackend) -> None:
    clock = Clock()
    stores = open_backend(clock, handoff_ttl=900, answer_ttl=60)
    assert stores.handoffs is not None
    answer = await _answer(stores)
    handoff = await stores.handoffs.add(answer)
    clock.now += 120
    assert await stores.answers.get(answer.id) is None
    redeemed = await stores.handoffs.get(handoff.id)
    assert redeemed is not None and redeemed.answer == answer


async def test_a_handoff_made_by_one_store_is_redeemed_by_another_on_the_same_database(
    open_backend: OpenBackend,
) -> None:
    clock = Clock()
    first, second = open_backend(clock), open_backend(clock)
    assert first.handoffs is not None and second.handoffs is not None
    handoff = await first.handoffs.add(await _answer(first))
    assert await second.handoffs.get(handoff.id) == handoff


async def test_the_oldest_handoffs_are_dropped_past_the_bound(open_backend: OpenBackend) -> None:
    clock = Clock()
    stores = open_backend(clock, max_entries=2)
    assert stores.handoffs is not None
    answer = await _answer(stores)
    made = []
    for _ in range(3):
        clock.now += 1
        made.append(await stores.handoffs.add(answer))
    kept = [h.id for h in made if await stores.handoffs.get(h.id) is not None]
    assert kept == [made[1].id, made[2].id]


async def test_an_unknown_handoff_id_is_none(open_backend: OpenBackend) -> None:
    stores = open_backend(Clock())
    assert stores.handoffs is not None
    assert await stores.handoffs.get("AAAAAAAAAAAAAAAAAAAAAAAA") is None
    assert await stores.handoffs.get("' OR 1=1 --") is None


@settings(max_examples=40, deadline=None)
# Milliseconds: a float clock near 1.8e9 s resolves about 2e-7 s, so a finer elapsed time
# would test the rounding of the clock rather than the store.
@given(ttl=st.integers(1, 10_000), elapsed=st.integers(0, 20_000_000).map(lambda ms: ms / 1000))
def test_a_handoff_is_alive_exactly_while_less_than_its_ttl_has_passed(
    ttl: int, elapsed: float
) -> None:
    clock = Clock()

    async def redeem_after() -> bool:
        with tempfile.TemporaryDirectory() as folder:
            retention = Retention(3600, 64)
            stores = open_sqlite_stores(
                Path(folder) / "c.db",
                answers=retention,
                conversations=retention,
                handoffs=Retention(ttl, 64),
                clock=clock,
            )
            try:
                assert stores.handoffs is not None
                handoff = await stores.handoffs.add(await _answer(stores))
                clock.now += elapsed
                return await stores.handoffs.get(handoff.id) is not None
            finally:
                stores.close()

    assert asyncio.run(redeem_after()) == (elapsed < ttl)
