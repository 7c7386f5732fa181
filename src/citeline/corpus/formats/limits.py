"""Reading one source file within bounds: a regular file, opened without blocking, and no
larger than its format's limit.

A name listed as a file may be a named pipe or a device by the time it is opened (swapped
between listing and reading, or made so on purpose): opened without ``O_NONBLOCK`` a pipe
with no writer blocks the ingest forever, so the file is opened non-blocking and its
descriptor, not its name, is checked to be a regular file before a byte is read. A file
larger than its format's limit is refused before it is read: the HTML reader holds about
11 times a page's size at its peak, its parsed tree alone 7.6 times (a 46 MB page once took
715 MB, and a 200 MB one over 3.2 GB, then raised from inside the parser).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citeline.corpus.errors import CorpusError

# The largest page any format but JSONL is read from. The largest page of Debian's
# documentation sites is 10 MB (a source listing in rust-doc); a 32 MiB page of 11,470
# sections peaks at 369 MB in the HTML reader (its tree 240 MB: benchmarks/hostile_files.py
# --only 8). A JSONL export holds one document a line and is read line by line, so it has
# no limit here.
MAX_PAGE_BYTES = 32 * 1024 * 1024
_READ_CHUNK = 1024 * 1024


class RefusedFileError(CorpusError):
    """A file that is not read, with the sentence that says why (it becomes that file's
    line in the ingest report)."""


@contextmanager
def _unreadable_as_refused() -> Iterator[None]:
    """An ``OSError`` while opening or reading a file, as that file's reason."""
    try:
        yield
    except OSError as error:
        raise RefusedFileError(
            f"it cannot be read ({error.strerror or error}); check its permissions"
        ) from error


def read_bytes(path: Path, limit: int | None) -> bytes:
    """``path``'s bytes, read from a regular file of at most ``limit`` bytes."""
    descriptor = _open_regular(path)
    with _unreadable_as_refused():
        try:
            status = os.fstat(descriptor)
            if limit is not None and status.st_size > limit:
                raise RefusedFileError(
                    f"it is larger ({status.st_size / 1048576:.0f} MB) than the "
                    f"{limit // 1048576} MB a page may be; split it, or leave it out"
                )
            chunks = []
            size = 0
            while True:
                chunk = os.read(descriptor, _READ_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if limit is not None and size > limit:  # it grew while being read
                    raise RefusedFileError(
                        f"it is larger than the {limit // 1048576} MB a page may be; "
                        "split it, or leave it out"
                    )
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(descriptor)


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of ``path``, read from a regular file opened as
    `read_bytes` opens one (for what is read beside the ingest: a page's title)."""
    descriptor = _open_regular(path)
    with _unreadable_as_refused():
        try:
            chunks = []
            left = size
            while left > 0:
                chunk = os.read(descriptor, min(left, _READ_CHUNK))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        finally:
            os.close(descriptor)


def _open_regular(path: Path) -> int:
    """A descriptor of ``path`` opened without blocking, checked to be a regular file."""
    with _unreadable_as_refused():
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
        except OSError:
            os.close(descriptor)
            raise
    if not regular:
        os.close(descriptor)
        raise RefusedFileError(
            "it is not a regular file (a named pipe, socket or device) and is not read; "
            "give a folder of ordinary files"
        )
    return descriptor
