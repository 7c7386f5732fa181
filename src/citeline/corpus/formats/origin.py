"""Where a source file lies, and what its documents are called and linked as by default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to read: its path, the id its document gets when the source names none,
    its path under the ingest root (``guide/install.md``), the address the published site
    gives it when ingest was given a base URL, and, for a file that must not be read, why.
    """

    path: Path
    default_id: str
    relative: str
    url: str | None = None
    refused: str | None = None
