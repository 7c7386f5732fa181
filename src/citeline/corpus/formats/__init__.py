"""Reading source files into documents: which files a path holds, and each format's reader.

One module per format (``markdown``, ``html``, ``text``, ``jsonl``); this module picks the
reader by file extension and turns I/O and decoding failures into ``Rejected`` reasons. It
deliberately knows nothing about hashing, passages or storage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from citeline.corpus.documents import Document
from citeline.corpus.formats import html, jsonl, markdown, text
from citeline.corpus.formats.rejected import Rejected

Reader = Callable[[str, str], Iterator[Document | Rejected]]

READERS: dict[str, Reader] = {
    ".md": markdown.read,
    ".markdown": markdown.read,
    ".html": html.read,
    ".htm": html.read,
    ".txt": text.read,
    ".jsonl": jsonl.read,
}


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to read, and the id its document gets when the source names none."""

    path: Path
    default_id: str


def source_files(path: Path) -> list[SourceFile]:
    """The files under ``path`` (or ``path`` itself), sorted, that citeline can read.

    In a folder, hidden files and folders (a name starting with ``.``) and files of other
    formats are passed over; a single file is always returned, so that an unsupported one
    is reported rather than silently ignored.
    """
    if path.is_file():
        return [SourceFile(path, path.stem)]
    files = []
    for candidate in sorted(path.rglob("*")):
        relative = candidate.relative_to(path)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if candidate.suffix.lower() in READERS and candidate.is_file():
            files.append(SourceFile(candidate, relative.with_suffix("").as_posix()))
    return files


def read_source(source: SourceFile) -> Iterator[Document | Rejected]:
    """The documents in one file, with a ``Rejected`` for each part that could not be read."""
    reader = READERS.get(source.path.suffix.lower())
    if reader is None:
        supported = ", ".join(sorted(READERS))
        yield Rejected(f"its format is not supported; use one of {supported}")
        return
    try:
        raw = source.path.read_bytes()
    except OSError as error:
        yield Rejected(f"it cannot be read ({error.strerror or error}); check its permissions")
        return
    try:
        decoded = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        yield Rejected(f"it is not UTF-8 text (bad byte at offset {error.start}); save it as UTF-8")
        return
    yield from reader(decoded, source.default_id)


__all__ = ["READERS", "Rejected", "SourceFile", "read_source", "source_files"]
