"""``CITELINE_DATABASE_URL``: which database holds the corpus, the answers and conversations.

A plain path is accepted wherever a URL is, and means a SQLite file, so ``--db FILE`` keeps
working. This module only parses; it opens nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias
from urllib.parse import urlsplit, urlunsplit

from citeline.database.errors import DatabaseError

DATABASE_URL_ENV = "CITELINE_DATABASE_URL"

_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True, slots=True)
class SqliteUrl:
    """One SQLite file."""

    path: Path

    def __str__(self) -> str:
        return f"{_SQLITE_PREFIX}{self.path}"


@dataclass(frozen=True, slots=True)
class PostgresUrl:
    """A PostgreSQL database, as a libpq connection URL."""

    url: str

    def __str__(self) -> str:
        return self.url

    @property
    def redacted(self) -> str:
        """The URL with any password replaced, safe for logs and error messages."""
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))


DatabaseUrl: TypeAlias = SqliteUrl | PostgresUrl


# The one index every command and the server use when none is named (--db,
# CITELINE_DATABASE_URL): a file in the working folder, so `citeline ingest docs/` then
# `citeline serve` serve what was ingested.
DEFAULT_DATABASE = "citeline.sqlite"


def parse_database_url(value: str | os.PathLike[str]) -> DatabaseUrl:
    """A ``sqlite:///path``, ``postgresql://...`` URL, or a plain path to a SQLite file."""
    text = os.fspath(value).strip()
    if not text:
        raise DatabaseError(
            f"{DATABASE_URL_ENV} is empty: give sqlite:///path/to/file.db or postgresql://..."
        )
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if scheme in _POSTGRES_SCHEMES:
        return PostgresUrl(text)
    if text.startswith(_SQLITE_PREFIX):
        return SqliteUrl(Path(text[len(_SQLITE_PREFIX) :]))
    if scheme == "sqlite":
        raise DatabaseError(
            f"database URL {text!r} needs three slashes before the path: "
            "sqlite:///relative/file.db or sqlite:////absolute/file.db."
        )
    if scheme:
        raise DatabaseError(
            f"database URL {text!r} has an unknown scheme {scheme!r}: "
            "use sqlite:///path/to/file.db or postgresql://user@host/dbname."
        )
    return SqliteUrl(Path(text))
