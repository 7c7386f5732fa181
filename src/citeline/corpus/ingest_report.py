"""What an ingest reports: its outcome, each file it skipped, its progress as it goes.

Apart from ``ingest`` so that what reads a report (the command line, ``Corpus``'s
signature) does not load the readers of every source format (Markdown, HTML, YAML front
matter: 4 MB of a server's resident memory, measured on import), which only an ingest runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class IngestProblem:
    """A source file, or one record in it, that was skipped, and why."""

    path: str
    reason: str
    doc_id: str | None = None

    def __str__(self) -> str:
        record = f" (id {self.doc_id!r})" if self.doc_id is not None else ""
        return f"{self.path}{record}: skipped, {self.reason}"


@dataclass(frozen=True, slots=True)
class IngestReport:
    """What one ingest did. ``ok`` is False when anything was skipped."""

    added: int
    updated: int
    unchanged: int
    removed: int
    skipped: tuple[IngestProblem, ...]
    # What was left out of documents on purpose, by name: {"include directives": 3}.
    omitted: Mapping[str, int] = field(default_factory=dict)
    # The name a built site's pages share in their titles ("Python 3.11.2 documentation").
    site_name: str | None = None

    @property
    def ok(self) -> bool:
        return not self.skipped

    def summary(self) -> str:
        dropped = "".join(f", dropped {n} {what}" for what, n in sorted(self.omitted.items()))
        return (
            f"added {self.added}, updated {self.updated}, unchanged {self.unchanged}, "
            f"removed {self.removed}, skipped {len(self.skipped)}{dropped}"
        )


@dataclass(frozen=True, slots=True)
class IngestProgress:
    """How far the ingest has got: reported after each file, and within a large file."""

    path: Path
    files_done: int
    files_total: int
    documents_done: int


ProgressCallback = Callable[[IngestProgress], None]
