"""A query's memory and time are bounded by its worker process, which is killed when the query
runs too long or the answer that asked for it ends; the server's process never runs DuckDB."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from citeline.data import DataCatalog, QueryFailedError, QueryLimits, load_project

# Found by attack: one huge scalar passed 4 GB in the server's process, and 1.5 GB even under
# DuckDB's own memory_limit with one thread.
HUGE_STRING = "SELECT length(repeat('x', 2000000000))"
# A 200 MB string: it fits in the memory bound but takes over a second, and DuckDB looks at
# its interrupt flag only after the whole string is built (measured: a 300 MB one ran 3.1 s
# past a 0.3 s interrupt).
SLOW_SCALAR = "SELECT length(repeat('x', 200000000))"
ENDLESS = "SELECT count(*) FROM range(100000000000) a"


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` has ended and been reaped, waiting up to ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            return True
        time.sleep(0.05)
    return False


def test_queries_run_in_a_worker_process_not_the_callers(sample: DataCatalog) -> None:
    (pid,) = sample.worker_pids()
    assert pid != os.getpid()
    assert sample.sql("SELECT count(*) FROM penguins").rows == ((344,),)


def test_a_string_larger_than_the_memory_bound_fails_with_a_sentence(sample: DataCatalog) -> None:
    with pytest.raises(QueryFailedError, match="needed more than its 512 MB of memory"):
        sample.sql(HUGE_STRING)
    assert sample.sql("SELECT count(*) FROM penguins").rows == ((344,),)


def test_a_smaller_memory_bound_stops_a_smaller_query() -> None:
    limits = QueryLimits(memory_mb=256)
    with DataCatalog.open(load_project("sample"), limits=limits) as catalog:
        assert catalog.sql("SELECT length(repeat('x', 50000000))").rows == ((50_000_000,),)
        with pytest.raises(QueryFailedError, match="more than its 256 MB"):
            catalog.sql("SELECT length(repeat('x', 300000000))")


def test_a_query_that_ignores_the_interrupt_is_ended_by_killing_its_worker() -> None:
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(seconds=0.2)) as catalog:
        (pid,) = catalog.worker_pids()
        with pytest.raises(QueryFailedError, match=r"ran past 0\.2 seconds and was stopped"):
            catalog.sql(SLOW_SCALAR)
        assert gone(pid)
        # A fresh worker takes the next query.
        assert catalog.sql("SELECT count(*) FROM penguins").rows == ((344,),)


async def test_cancelling_the_caller_kills_the_worker_running_its_query() -> None:
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(seconds=120)) as catalog:
        (pid,) = catalog.worker_pids()
        task = asyncio.create_task(catalog.sql_async(ENDLESS))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await asyncio.to_thread(gone, pid)
        assert (await catalog.sql_async("SELECT count(*) FROM penguins")).rows == ((344,),)


def test_two_queries_run_at_once_in_two_workers() -> None:
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(seconds=1)) as catalog:

        async def both() -> list[BaseException | object]:
            return await asyncio.gather(
                catalog.sql_async(ENDLESS),
                catalog.sql_async("SELECT count(*) FROM penguins"),
                return_exceptions=True,
            )

        slow, fast = asyncio.run(both())
        assert isinstance(slow, QueryFailedError)
        assert getattr(fast, "rows", None) == ((344,),)


def test_closing_the_catalog_ends_every_worker() -> None:
    catalog = DataCatalog.open(load_project("sample"))
    catalog.sql("SELECT 1")
    pids = catalog.worker_pids()
    catalog.close()
    assert pids and all(gone(pid) for pid in pids)
    with pytest.raises(QueryFailedError, match="closed"):
        catalog.sql("SELECT 1")


async def test_queries_waiting_for_a_worker_hold_no_thread_that_other_answers_need() -> None:
    # Issue 29: each query waited for its worker on the event loop's shared thread pool, so
    # one answer's many slow queries held every thread other answers searched and read on.
    limits = QueryLimits(seconds=1.0)
    with DataCatalog.open(load_project("sample"), limits=limits) as catalog:
        queries = [asyncio.ensure_future(catalog.sql_async(ENDLESS)) for _ in range(10)]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        await asyncio.wait_for(asyncio.to_thread(time.monotonic), timeout=5)
        assert time.monotonic() - started < 0.5
        outcomes = await asyncio.gather(*queries, return_exceptions=True)
    assert all(isinstance(outcome, QueryFailedError) for outcome in outcomes)


async def test_past_the_queries_that_may_wait_another_is_refused_at_once() -> None:
    limits = QueryLimits(seconds=1.0, workers=2, waiting=3)
    with DataCatalog.open(load_project("sample"), limits=limits) as catalog:
        queries = [asyncio.ensure_future(catalog.sql_async(ENDLESS)) for _ in range(5)]
        await asyncio.sleep(0.1)
        started = time.monotonic()
        with pytest.raises(QueryFailedError, match="already running or waiting; ask for fewer"):
            await catalog.sql_async("SELECT 1")
        assert time.monotonic() - started < 0.1
        await asyncio.gather(*queries, return_exceptions=True)
        # Once they are done, queries run again.
        assert (await catalog.sql_async("SELECT 1")).rows == ((1,),)
