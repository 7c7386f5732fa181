"""How the server stops: Ctrl+C ends it at once, in one line, with status 0.

Measured before this existed (uvicorn 0.54): Ctrl+C, which the demo tells a reader to press,
logged "Shutting down" and "Finished server process", then uvicorn raised the signal again
once it had shut down, and the demo printed a 20-line ``KeyboardInterrupt`` traceback
(3 times out of 3) through its lifespan task; an answer in flight held the shutdown until
it ended. Here, uvicorn's server:

- keeps the signal it caught rather than raising it again, so the command returns and
  exits 0;
- on Ctrl+C (SIGINT) hangs up on every open connection first, as a reader closing the page
  would, so an answer in flight stops at once and the app and its workers still shut down
  in order (a SIGTERM, from a process manager, lets answers finish as uvicorn does);
- from the signal on, logs only errors (after Ctrl+C) or warnings and errors (after
  SIGTERM), and says what stopped it in one line once it has stopped.

Deliberately not here: the socket (``citeline.cli.port``), uvicorn's settings (``listen``).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
from collections.abc import Iterator
from types import FrameType

import uvicorn

logger = logging.getLogger(__name__)

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_WORDS = {signal.SIGINT: "Ctrl+C", signal.SIGTERM: "SIGTERM"}


class StoppableServer(uvicorn.Server):
    """uvicorn's server, stopped by a signal as described above."""

    stopped_by: signal.Signals | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # uvicorn's own raises each caught signal again after shutdown: the traceback.
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in _SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        received = signal.Signals(sig)
        if self.stopped_by is None:
            self.stopped_by = received
            # uvicorn's and the answers' own lines about stopping ("Shutting down", "answer
            # abandoned") are not the one line a person at the terminal is owed; after
            # Ctrl+C, neither are the warnings of answers cut short by it (a data tool whose
            # worker was ended). Errors still show.
            quiet = logging.WARNING if self.stopped_by is signal.SIGINT else logging.INFO
            logging.disable(quiet)
        elif received is not signal.SIGINT or self.stopped_by is not signal.SIGINT:
            # One stop told twice: a worker hears the terminal's Ctrl+C and its parent's
            # SIGTERM. uvicorn takes a SIGINT after any stop as a second Ctrl+C and skips the
            # app's shutdown, whose lifespan then dies cancelled and logs its traceback (seen
            # in CI under load); only a second Ctrl+C forces, as uvicorn means it to.
            if received is signal.SIGINT:
                self.stopped_by = received
                logging.disable(logging.WARNING)
            return
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.stopped_by is signal.SIGINT:
            # uvicorn's connections are its protocols; each holds its transport. Closed, an
            # answer streaming on it sees its reader hang up and ends, and no task is left
            # for uvicorn to wait on or to cancel (which logs a traceback per task).
            for connection in list(self.server_state.connections):
                transport = getattr(connection, "transport", None)
                if transport is not None and not transport.is_closing():
                    transport.close()
        await super().shutdown(sockets)


def say_stopped(server: StoppableServer) -> None:
    """Log the one line that says the server stopped, and why; after ``run`` returned."""
    say_stopped_by(server.stopped_by)


def say_stopped_by(sig: signal.Signals | None) -> None:
    """Log the one line that says a server (its workers too) stopped by ``sig``."""
    logging.disable(logging.NOTSET)
    if sig is not None:
        logger.info("Stopped by %s.", _WORDS.get(sig, sig.name))
