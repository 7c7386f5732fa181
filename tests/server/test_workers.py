"""``citeline serve --workers N``: N processes on one port, one rate limit, one stop.

The server runs as an operator runs it, a process group of its own started from the command
line; the tests count what every worker admitted together and watch every process end.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
import pytest
from tests.support.server_processes import free_port

from citeline.server.store import open_sqlite_stores
from citeline.server.store.base import Retention

COLLECTION = Path(__file__).parent / "fixtures" / "collection"
START_SECONDS = 120
QUESTION = {"question": "What is apoptosis?"}


class Workers:
    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.process, self.url, self.log = process, url, log

    def children(self) -> list[int]:
        found = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        pids = [int(pid) for pid in found.read_text().split()] if found.exists() else []
        # The spawn start method's resource tracker is a helper, not a worker.
        return [pid for pid in pids if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    """``citeline serve --workers 2`` in a process group of its own, all workers ready."""
    db = tmp_path / "index.sqlite"
    ingest = [sys.executable, "-m", "citeline", "ingest", str(COLLECTION), "--db", str(db)]
    subprocess.run(ingest, check=True, capture_output=True)
    port, log = free_port(), tmp_path / "serve.log"
    command = [sys.executable, "-m", "citeline", "serve", "--db", str(db), "--open"]
    command += ["--port", str(port), "--workers", "2", "--rate-limit", "5"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "CITELINE_LOG_FORMAT": "text"},
        )
    served = Workers(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while "All 2 workers answering" not in log.read_text(errors="replace"):
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        yield served
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie has stopped; only its parent's wait is missing.
    status = Path(f"/proc/{pid}/stat")
    return not status.exists() or status.read_text().split()[2] == "Z"


def test_two_workers_admit_exactly_the_rate_limit_between_them(workers: Workers) -> None:
    async def ask_all() -> list[str]:
        async with httpx.AsyncClient(base_url=workers.url, timeout=60) as client:
            replies = await asyncio.gather(
                *(client.post("/v1/answer", json=QUESTION) for _ in range(16))
            )
        return [reply.text for reply in replies]

    texts = asyncio.run(ask_all())
    refused = sum('"state":"refused"' in text for text in texts)
    answered = sum('"state":"answered"' in text for text in texts)
    assert (answered, refused) == (5, 11)
    assert len(workers.children()) == 2


@pytest.mark.parametrize("sent", ["ctrl-c", "sigterm"])
def test_workers_stop_together_and_the_server_exits_0(workers: Workers, sent: str) -> None:
    children = workers.children()
    assert len(children) == 2
    if sent == "ctrl-c":
        # A terminal's Ctrl+C reaches every process of the foreground group.
        os.killpg(workers.process.pid, signal.SIGINT)
    else:
        workers.process.send_signal(signal.SIGTERM)
    assert workers.process.wait(60) == 0, workers.log.read_text(errors="replace")
    assert all(_gone(pid) for pid in children)
    assert "Traceback" not in workers.log.read_text(errors="replace")


def test_workers_of_a_killed_server_stop_by_themselves(workers: Workers) -> None:
    children = workers.children()
    workers.process.send_signal(signal.SIGKILL)
    workers.process.wait(10)
    deadline = time.monotonic() + 60
    while not all(_gone(pid) for pid in children):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.2)


def test_a_worker_that_cannot_start_stops_the_server_with_its_reason(tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    subprocess.run(
        [sys.executable, "-m", "citeline", "ingest", str(COLLECTION), "--db", str(db)],
        check=True,
        capture_output=True,
    )
    started = subprocess.run(
        [sys.executable, "-m", "citeline", "serve", "--db", str(db), "--open", "--workers", "2",
         "--port", str(free_port()), "--project", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
        check=False,
    )  # fmt: skip
    assert started.returncode == 2
    assert started.stderr.count("citeline serve: CITELINE_PROJECT=") == 1
    assert "Traceback" not in started.stderr


def test_processes_on_one_database_admit_exactly_the_limit(tmp_path: Path) -> None:
    # Two connections stand for two processes: SQLite's write lock is the file's.
    retention = Retention(3600, 100)
    stores = [
        open_sqlite_stores(tmp_path / "db.sqlite", answers=retention, conversations=retention)
        for _ in range(2)
    ]
    admitted: list[bool] = []

    def spend(store_index: int) -> None:
        hits = stores[store_index].rate_hits
        assert hits is not None
        for _ in range(20):
            admitted.append(asyncio.run(hits.hit("reader-1", limit=7, window_seconds=600)))

    threads = [threading.Thread(target=spend, args=(n % 2,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert admitted.count(True) == 7 and len(admitted) == 80


def test_a_hit_past_the_window_no_longer_counts(tmp_path: Path) -> None:
    now = [1000.0]
    retention = Retention(3600, 100)
    stores = open_sqlite_stores(
        tmp_path / "db.sqlite", answers=retention, conversations=retention, clock=lambda: now[0]
    )
    hits = stores.rate_hits
    assert hits is not None
    spent = [asyncio.run(hits.hit("a", limit=2, window_seconds=60)) for _ in range(3)]
    assert spent == [True, True, False]
    assert asyncio.run(hits.hit("b", limit=2, window_seconds=60))
    now[0] += 61
    assert asyncio.run(hits.hit("a", limit=2, window_seconds=60))
    stores.close()


def _says_how_it_starts(answer: Connection) -> None:
    """A spawned child's report: whether it began with SIGINT ignored."""
    answer.send(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
    answer.close()


def test_a_worker_begins_deaf_to_ctrl_c_and_the_parent_keeps_its_own_handler() -> None:
    # A worker still loading its model when Ctrl+C reached the group died in a
    # KeyboardInterrupt and printed its traceback into the server's log (seen under load,
    # one run in five); started so, it ignores the signal until its server's handler is in,
    # and the parent's SIGTERM ends it quietly.
    from citeline.server.workers import _children_deaf_to_ctrl_c

    def handler(received: int, frame: object) -> None: ...

    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    previous = signal.signal(signal.SIGINT, handler)
    try:
        with _children_deaf_to_ctrl_c():
            child = context.Process(target=_says_how_it_starts, args=(send,))
            child.start()
        send.close()
        assert signal.getsignal(signal.SIGINT) is handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        assert receive.poll(60) and receive.recv() is True
        child.join(60)
    finally:
        signal.signal(signal.SIGINT, previous)
