"""A named pipe with no writer, for tests that a reader never waits on one.

Opened without ``O_NONBLOCK`` such a pipe blocks its reader forever, so a test of code that
did would hang, not fail. ``watched_pipe`` makes it fail: if the code under test is still
running after ``patience`` seconds, a writer opens the pipe (the blocked open returns, the
read finds its end) and the watch says it waited.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class PipeWatch:
    """Whether the code under test had to be let go of the pipe."""

    def __init__(self) -> None:
        self.waited = False


@contextmanager
def watched_pipe(path: Path, patience: float = 30.0) -> Iterator[PipeWatch]:
    """Make ``path`` a named pipe for the ``with`` block; ``.waited`` after it says whether
    a reader was still blocked on it after ``patience`` seconds."""
    os.mkfifo(path)
    watch = PipeWatch()
    finished = threading.Event()

    def let_go() -> None:
        if finished.wait(patience):
            return
        watch.waited = True
        # Non-blocking: with no reader left this fails at once instead of waiting itself.
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    threading.Thread(target=let_go, daemon=True).start()
    try:
        yield watch
    finally:
        finished.set()
