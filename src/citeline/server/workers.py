"""``citeline serve --workers N``: N server processes answering on one port.

One process uses one core: the embedded model's work is Python's, and 200 answers at once on
one process queue behind each other. The parent binds the port once (``citeline.cli.port``) and
hands the listening socket to N worker processes it starts, and the kernel spreads
connections among them. The workers are spawned, not forked: each imports and loads
everything itself, as a fresh ``citeline serve`` would, since forking a process that holds
onnxruntime's and tantivy's threads is unsafe. Each builds its own app over the one
database, so the collection, the answer store and the rate limit
(``CITELINE_RATE_LIMIT_STORAGE``, the database by default) are one for all of them. The
parent holds no model and answers nothing.

A worker that cannot start (a setting, the database) stops them all, and the parent says why
once. One that dies later is started again, unless workers keep dying (``RESTARTS`` within a
minute), which stops them all too. SIGINT (Ctrl+C, which a terminal sends to every process
of the group) or SIGTERM to the parent stops every worker: each is sent SIGTERM and stops as
a server does (``stopping``: after Ctrl+C at once, after SIGTERM its answers finish, within
``STOP_SECONDS``), and the parent says so in one line and returns. A worker whose parent
is gone stops by itself (Linux's parent-death signal, and a check of its parent's id), so
no orphan keeps the port.

Deliberately not here: the app (``app``), uvicorn's settings (``listen``), the bound port
(``citeline.cli.port``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType

from citeline.errors import CitelineError
from citeline.server.errors import StartupError
from citeline.server.settings import ServerSettings
from citeline.server.stopping import say_stopped_by

logger = logging.getLogger("citeline.server")

# Seconds a stopping worker has to finish its answers before it is killed: uvicorn waits for
# open streams, and an answer may run for CITELINE_ANSWER_TIMEOUT (120 s) by itself.
STOP_SECONDS = 30.0
# Seconds a worker has to build its app (load the model, open the collection) and say so.
START_SECONDS = 300.0
# Workers that may die within a minute and be started again before the server gives up: a
# worker that crashes at once would otherwise be restarted in a tight loop.
RESTARTS = 5
_READY = "ready"


@dataclass
class _Worker:
    number: int
    process: BaseProcess
    messages: Connection
    ready: bool = False
    started: float = field(default_factory=time.monotonic)


def serve_workers(settings: ServerSettings, listening: socket.socket, count: int) -> None:
    """Run ``count`` workers serving ``settings`` on ``listening`` until a signal stops them;
    ``StartupError`` with a worker's sentence when one cannot start."""
    context = multiprocessing.get_context("spawn")
    workers: dict[int, _Worker] = {}
    deaths: list[float] = []

    def start(number: int) -> None:
        receive, send = context.Pipe(duplex=False)
        process = context.Process(
            target=_run_worker,
            args=(settings, listening, send, os.getpid(), number),
            name=f"citeline-worker-{number}",
        )
        with _children_deaf_to_ctrl_c():
            process.start()
        send.close()
        workers[number] = _Worker(number, process, receive)

    # A stop signal wakes the wait below through this pair (the handler itself does nothing:
    # Python writes each signal's number to the wakeup socket).
    woken, waker = socket.socketpair()
    waker.setblocking(False)
    previous = {sig: signal.signal(sig, _noted) for sig in (signal.SIGINT, signal.SIGTERM)}
    previous_wakeup = signal.set_wakeup_fd(waker.fileno())
    stopped_by: signal.Signals | None = None
    try:
        for number in range(count):
            start(number)
        while _watch(workers, settings, deaths, start, woken):
            pass
        received = woken.recv(1)
        stopped_by = signal.Signals(received[0]) if received else None
    finally:
        # Deaf to a second Ctrl+C while the workers stop: they are already stopping.
        for sig in previous:
            signal.signal(sig, signal.SIG_IGN)
        if stopped_by is signal.SIGINT:
            # The workers' own lines about stopping are not the one line a person is owed.
            logging.disable(logging.WARNING)
        _stop_all(list(workers.values()))
        signal.set_wakeup_fd(previous_wakeup)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        woken.close()
        waker.close()
    say_stopped_by(stopped_by)


@contextlib.contextmanager
def _children_deaf_to_ctrl_c() -> Iterator[None]:
    """Processes started inside begin with SIGINT ignored, until their server installs its
    own handler: a worker still starting when Ctrl+C reaches the whole group otherwise had
    its start-up cut by Python's own handling (a ``KeyboardInterrupt``, or asyncio's runner
    cancelling uvicorn's lifespan, which logs the ``CancelledError``) and its traceback in
    the log, where the parent's SIGTERM ends a starting worker quietly. Python keeps a
    SIGINT it starts with ignored ignored. The signal is blocked meanwhile, so the parent's
    own Ctrl+C in that moment is held, not lost; the child unblocks it first thing
    (``_run_worker``)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _noted(received: int, frame: FrameType | None) -> None:
    """A stop signal's handler: the wakeup socket carries it to the waiting loop."""


def _watch(
    workers: dict[int, _Worker],
    settings: ServerSettings,
    deaths: list[float],
    start: Callable[[int], None],
    woken: socket.socket,
) -> bool:
    """Wait for a worker to say something or stop, or for a stop signal, and act on it;
    False when a signal asked the server to stop."""
    waiting = [w.messages for w in workers.values() if not w.ready]
    sentinels = {w.process.sentinel: w for w in workers.values()}
    timeout = None
    if waiting:
        oldest = min(w.started for w in workers.values() if not w.ready)
        timeout = max(0.0, oldest + START_SECONDS - time.monotonic())
    ready = wait([*waiting, *sentinels, woken], timeout)
    if woken in ready:
        return False
    if not ready and waiting:
        raise StartupError(
            f"a worker did not start within {START_SECONDS:.0f} s; run with --workers 1 to "
            "see where it stops."
        )
    for item in ready:
        worker = sentinels.get(item) if isinstance(item, int) else None
        if worker is None:
            worker = next(w for w in workers.values() if w.messages is item)
            _heard(worker, workers, settings, first_start=not deaths)
        elif not worker.ready:
            message = _receive(worker.messages)
            raise StartupError(
                message
                or f"a worker stopped while starting (exit status {worker.process.exitcode}); "
                "run with --workers 1 to see why."
            )
        else:
            _restart(worker, workers, deaths, start)
    return True


def _heard(
    worker: _Worker, workers: dict[int, _Worker], settings: ServerSettings, *, first_start: bool
) -> None:
    """A worker's message: ready (said once for the first, and once all are), or why it
    could not start."""
    message = _receive(worker.messages)
    if message != _READY:
        if message is not None:
            raise StartupError(message)
        return
    worker.ready = True
    ready_now = sum(w.ready for w in workers.values())
    if ready_now == 1 and first_start:
        # The port answers from the first worker on: say where, as one server does.
        host, port = settings.host, settings.port
        shown = f"[{host}]" if ":" in host else host
        logger.info("Serving on http://%s:%d/ (stop with Ctrl+C).", shown, port)
    if ready_now == len(workers):
        logger.info(
            "All %d workers answering.",
            len(workers),
            extra={"workers": [w.process.pid for w in workers.values()]},
        )


def _restart(
    worker: _Worker,
    workers: dict[int, _Worker],
    deaths: list[float],
    start: Callable[[int], None],
) -> None:
    """A worker that stopped after it started, started again, unless workers keep stopping."""
    now = time.monotonic()
    deaths[:] = [at for at in deaths if now - at < 60] + [now]
    if len(deaths) > RESTARTS:
        raise StartupError(
            f"workers stopped {len(deaths)} times within a minute (the last with exit "
            f"status {worker.process.exitcode}); the server stops rather than restart them "
            "again. Its log says why."
        )
    logger.warning(
        "worker %d stopped (exit status %s); starting it again",
        worker.number,
        worker.process.exitcode,
    )
    worker.messages.close()
    del workers[worker.number]
    start(worker.number)


def _receive(messages: Connection) -> str | None:
    """The next message a worker sent, or None when it sent none before its end closed."""
    try:
        if messages.poll():
            message = messages.recv()
            return message if isinstance(message, str) else None
    except (EOFError, OSError):
        return None
    return None


def _stop_all(workers: list[_Worker]) -> None:
    """SIGTERM to every worker, then wait for them together; kill any still running after
    ``STOP_SECONDS``."""
    for worker in workers:
        if worker.process.is_alive() and worker.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.process.is_alive():
            logger.warning("worker %d did not stop in time; killing it", worker.number)
            worker.process.kill()
            worker.process.join()
        worker.messages.close()


def _run_worker(
    settings: ServerSettings,
    listening: socket.socket,
    messages: Connection,
    parent: int,
    number: int,
) -> None:
    """A worker's whole life: build the app, say it is ready, serve until told to stop."""
    # Inherited blocked from the parent's start (``_children_deaf_to_ctrl_c``); ignored until
    # the server's own handler is installed, so a Ctrl+C meanwhile is dropped, not raised.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with(parent)
    from citeline.server.logs import configure_logging

    configure_logging(settings.log_format)
    if number > 0:
        # What start-up says once (open mode, searching by words) the first worker says for
        # all of them; errors still show.
        logging.disable(logging.WARNING)
    try:
        from citeline.server import create_app

        app = create_app(settings)
    except CitelineError as error:
        messages.send(str(error))
        messages.close()
        sys.exit(2)
    finally:
        logging.disable(logging.NOTSET)
    messages.send(_READY)
    messages.close()
    from citeline.server.listen import serve

    serve(app, settings, listening, worker=True)


def _die_with(parent: int) -> None:
    """Have the kernel send this process SIGTERM when its parent dies (Linux), and stop now
    if the parent died before that was asked."""
    if sys.platform.startswith("linux"):
        import ctypes

        set_parent_death_signal = 1  # PR_SET_PDEATHSIG, from <linux/prctl.h>
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(set_parent_death_signal, signal.SIGTERM)
    if os.getppid() != parent:
        sys.exit(0)
