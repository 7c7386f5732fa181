"""What a format reader yields instead of a document it cannot accept."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rejected:
    """A record that was not turned into a document, and why (a sentence for the user)."""

    reason: str
    doc_id: str | None = None
