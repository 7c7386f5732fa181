"""Queries run in killable worker processes, so a query's memory and time have hard bounds.

A DuckDB query cannot be bounded from inside the process that runs it: measured on DuckDB
2.0.1, ``SELECT length(repeat('x', 2000000000))`` ran 32.8 s past a 10 s interrupt (one huge
scalar never looks at the interrupt flag) and passed 1.5 GB under ``memory_limit='512MB'``
with ``threads=1`` (a string is not allocated through DuckDB's buffer manager). So every
query runs in a child process (``citeline.data.worker``) that bounds its own memory with
``RLIMIT_DATA``, and this side kills it with ``SIGKILL`` the moment the query passes its
time limit or the caller stops waiting (``run_async`` cancelled: the answer ended). A killed
worker is replaced on the next query; the answer that killed it gets a ``QueryFailedError``.

``QuerySandbox`` keeps up to ``limits.workers`` worker processes, each running one query at a
time, and reuses an idle one (starting a worker costs about 0.2 s of Python and DuckDB
start-up). An answer's query waits for its worker on a thread of the sandbox's own, one per
worker, never on the event loop's shared pool, where 40 waiting queries of one answer took
every thread that other answers' searches needed; at most ``limits.waiting`` more queue for
those threads, and any past them are refused at once. The SQL text never reaches DuckDB in
this process: checks run in a worker too. This module knows nothing of tables, measures or
the agent.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import Pipe
from pathlib import Path
from typing import Any

from citeline.data.errors import QueryFailedError, QueryRefusedError
from citeline.data.readonly import MAX_REPLY_BYTES, QueryLimits, out_of_memory
from citeline.data.results import QueryResult

logger = logging.getLogger(__name__)

# A worker that has not said "ready" in this long is broken (no DuckDB, no memory to start).
STARTUP_SECONDS = 30.0


class QueryWorker:
    """One child process and the parent's end of its socket."""

    def __init__(self, database: Path, limits: QueryLimits) -> None:
        mine, theirs = Pipe(duplex=True)
        self._connection = mine
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "citeline.data.worker",
                    str(theirs.fileno()),
                    str(database),
                    str(limits.max_rows),
                    str(limits.memory_mb),
                ],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                # Its own session: Ctrl+C at the terminal signals the whole foreground
                # group, and each idle worker printed a KeyboardInterrupt traceback (3 of 3
                # times). The parent ends its workers itself; a worker whose parent died
                # sees its socket close and returns.
                start_new_session=True,
            )
        finally:
            theirs.close()
        reply = self._receive(time.monotonic() + STARTUP_SECONDS, limits)
        if reply != ("ready",):
            self.kill()
            why = f" ({reply[1]})" if isinstance(reply, tuple) and len(reply) == 2 else ""
            raise QueryFailedError(
                f"The query worker did not start{why}; the data tools cannot run now."
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: tuple[Any, ...], deadline: float, limits: QueryLimits) -> Any:
        """Send one request and wait for its reply until ``deadline`` (``time.monotonic``);
        past it, kill the worker and say the query ran too long."""
        self._connection.send_bytes(pickle.dumps((*request, limits.seconds)))
        return self._receive(deadline, limits)

    def _receive(self, deadline: float, limits: QueryLimits) -> Any:
        try:
            ready = self._connection.poll(max(deadline - time.monotonic(), 0.0))
            if not ready:
                self.kill()
                raise QueryFailedError(
                    f"The query ran past {limits.seconds:g} seconds and was stopped;"
                    " filter or aggregate more, or query fewer rows."
                )
            return pickle.loads(self._connection.recv_bytes(MAX_REPLY_BYTES + 1024))
        except (EOFError, OSError):
            # The worker ended mid-query: killed by a cancelled caller, by the kernel at its
            # CPU or memory bound, or by a crash. Either way this query has no result.
            self.kill()
            raise QueryFailedError(
                "The query was stopped before it finished (it was cancelled, or needed more"
                f" than {limits.memory_mb} MB or {limits.seconds:g} seconds)."
            ) from None

    def stop(self) -> None:
        """Send ``SIGKILL`` (a query in DuckDB ignores anything gentler); safe from any thread,
        since it touches only the process: the thread waiting on the socket then sees it close
        and cleans up with ``kill``."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    def kill(self) -> None:
        """End the process, reap it and close the socket; only the thread that owns it."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._connection.close()


class QuerySandbox:
    """Runs queries on ``database`` in at most ``limits.workers`` worker processes."""

    def __init__(self, database: Path, limits: QueryLimits) -> None:
        self.database = database
        self.limits = limits
        self._idle: list[QueryWorker] = []
        # Every worker started and not yet reaped, idle or busy: what close must end.
        self._workers: set[QueryWorker] = set()
        self._slots = threading.BoundedSemaphore(limits.workers)
        self._lock = threading.Lock()
        self._closed = False
        # The threads answers' queries wait on (one per worker), and how many queries are
        # given to them and not yet done: the running and the waiting.
        self._threads = ThreadPoolExecutor(limits.workers, thread_name_prefix="citeline-query")
        self._queued = 0

    def start(self) -> None:
        """Start one worker now, so the first query does not pay for it."""
        worker = self._new_worker()
        with self._lock:
            self._idle.append(worker)

    def worker_pids(self) -> frozenset[int]:
        """The process ids of the workers now running (for benchmarks and tests)."""
        with self._lock:
            return frozenset(worker.pid for worker in self._workers if worker.alive())

    def query(self, sql: str, parameters: Mapping[str, Any] | None = None) -> QueryResult:
        """Run one checked query; refusals and failures are ``DataError``s."""
        return QueryJob(self, ("query", sql, dict(parameters or {}))).run()

    async def query_async(
        self, sql: str, parameters: Mapping[str, Any] | None = None
    ) -> QueryResult:
        """``query`` on one of the sandbox's own threads; cancelling the caller kills the
        worker running it. Refused at once (``QueryFailedError``) when every worker is busy
        and ``limits.waiting`` queries already wait."""
        with self._lock:
            if self._queued >= self.limits.workers + self.limits.waiting:
                raise QueryFailedError(
                    f"{self._queued} queries are already running or waiting; ask for fewer"
                    " at once, and wait for their results before asking again."
                )
            self._queued += 1
        job = QueryJob(self, ("query", sql, dict(parameters or {})))
        try:
            running = self._threads.submit(job.run)
        except RuntimeError:  # the sandbox was closed meanwhile
            self._unqueue()
            raise QueryFailedError("The data catalog is closed; open it again to query.") from None
        # Counted until its thread is free again, not until its caller stops waiting.
        running.add_done_callback(lambda _: self._unqueue())
        try:
            return await asyncio.wrap_future(running)
        except asyncio.CancelledError:
            job.cancel()
            raise

    def check(self, sql: str) -> None:
        """Refuse ``sql`` (``QueryRefusedError``) unless it is exactly one read query; runs
        nothing."""
        QueryJob(self, ("check", sql)).run()

    def close(self) -> None:
        """Kill every worker, a busy one too (its caller gets a ``QueryFailedError``)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            busy = [worker for worker in self._workers if worker not in idle]
        for worker in idle:
            self._forget(worker)
        for worker in busy:
            worker.stop()
        # Queries still waiting start, find the sandbox closed and fail at once.
        self._threads.shutdown(wait=False)

    def _unqueue(self) -> None:
        with self._lock:
            self._queued -= 1

    def _new_worker(self) -> QueryWorker:
        worker = QueryWorker(self.database, self.limits)
        with self._lock:
            closed = self._closed
            if not closed:
                self._workers.add(worker)
        if closed:
            # Closed while it started (a server stopping with answers in flight): ``close``
            # did not see it, so it is ended here rather than left running.
            worker.kill()
            raise QueryFailedError("The data catalog is closed; open it again to query.")
        return worker

    def _acquire(self) -> QueryWorker:
        if not self._slots.acquire(timeout=self.limits.seconds):
            raise QueryFailedError(
                f"Every query worker was busy for {self.limits.seconds:g} seconds; try again."
            )
        try:
            dead: list[QueryWorker] = []
            found: QueryWorker | None = None
            with self._lock:
                if self._closed:
                    raise QueryFailedError("The data catalog is closed; open it again to query.")
                while self._idle and found is None:
                    worker = self._idle.pop()
                    if worker.alive():
                        found = worker
                    else:
                        dead.append(worker)
            for worker in dead:
                self._forget(worker)
            return found or self._new_worker()
        except BaseException:
            self._slots.release()
            raise

    def _release(self, worker: QueryWorker) -> None:
        with self._lock:
            keep = worker.alive() and not self._closed
            if keep:
                self._idle.append(worker)
        if not keep:
            self._forget(worker)
        self._slots.release()

    def _forget(self, worker: QueryWorker) -> None:
        worker.kill()
        with self._lock:
            self._workers.discard(worker)


class QueryJob:
    """One request's run: which worker has it, so that a cancel can kill exactly that one."""

    def __init__(self, sandbox: QuerySandbox, request: tuple[Any, ...]) -> None:
        self._sandbox = sandbox
        self._request = request
        self._made = time.monotonic()
        self._lock = threading.Lock()
        self._worker: QueryWorker | None = None
        self._cancelled = False

    def run(self) -> QueryResult:
        limits = self._sandbox.limits
        if time.monotonic() - self._made > limits.seconds:
            # It waited its turn longer than a query may run: the answer has moved on.
            raise QueryFailedError(
                f"Every query worker was busy for {limits.seconds:g} seconds; try again."
            )
        worker = self._sandbox._acquire()
        try:
            with self._lock:
                if self._cancelled:
                    raise QueryFailedError("The query was cancelled before it started.")
                self._worker = worker
            reply = worker.ask(self._request, time.monotonic() + limits.seconds, limits)
        finally:
            with self._lock:
                self._worker = None
            self._sandbox._release(worker)
        status, value = reply
        if status == "ok":
            return value  # type: ignore[no-any-return]
        if status == "refused":
            raise QueryRefusedError(value)
        if value == out_of_memory(limits):
            logger.warning("a query needed more than %d MB and was stopped", limits.memory_mb)
        raise QueryFailedError(value)

    def cancel(self) -> None:
        """Kill the worker running this job, or stop it from starting."""
        with self._lock:
            self._cancelled = True
            worker = self._worker
        if worker is not None:
            worker.stop()
