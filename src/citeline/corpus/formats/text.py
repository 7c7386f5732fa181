"""Plain text: the whole file is the text; the title is its first line when that is short.

``id`` is the path relative to the ingest root without its extension. The robots file at
the root (``robots.txt``, RFC 9309's rules for crawlers) is counted, not read: SQLite's
site ships one, and its 20 ``Disallow:`` lines were a document titled "User-agent: *".
"""

from __future__ import annotations

from collections.abc import Iterator

from citeline.corpus.documents import Document
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected

# What the ingest report calls the robots file it left out.
ROBOTS_FILES = "robots files for crawlers"
# A first line longer than this is a paragraph, not a title; the file's name is used instead.
_MAX_TITLE_CHARS = 200


def read(source: str, origin: SourceFile) -> Iterator[Document | Rejected | Omitted]:
    if origin.relative.lower() == "robots.txt":
        yield Omitted(ROBOTS_FILES, 1)
        return
    default_id = origin.default_id
    first_line = next((line.strip() for line in source.splitlines() if line.strip()), "")
    if not first_line or len(first_line) > _MAX_TITLE_CHARS:
        first_line = default_id.rsplit("/", 1)[-1]
    yield Document(id=default_id, title=first_line, text=source, url=origin.url)
