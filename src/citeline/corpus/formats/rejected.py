"""What a format reader yields besides documents: a part it refused, a count it dropped, or
the name of the site it read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rejected:
    """A record that was not turned into a document, and why (a sentence for the user)."""

    reason: str
    doc_id: str | None = None


@dataclass(frozen=True, slots=True)
class Omitted:
    """Parts of a file left out of its text on purpose, such as include directives that
    name a file citeline cannot resolve: ``what`` is their name in the ingest report."""

    what: str
    count: int


@dataclass(frozen=True, slots=True)
class SiteName:
    """The name every page of a built site shares in its ``<title>`` ("Python 3.11.2
    documentation"), learned by comparing the site's pages: the collection's own name."""

    name: str
