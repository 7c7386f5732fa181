"""Where citeline keeps its state: the database URL and the PostgreSQL plumbing shared by layers.

``CITELINE_DATABASE_URL`` names one database for the corpus index, the answers and the
conversations: ``sqlite:///path`` (the default, one file) or ``postgresql://...`` (several
processes, several machines). This package parses that URL and, for PostgreSQL, owns the
connection pools, the retry on a dropped connection, the start-up checks and the schema
migrations. It holds no table of its own beyond the schema-version ledger: each layer
(corpus, server) owns its tables and its migrations. Importing it never imports the
PostgreSQL driver; only opening a PostgreSQL database does.
"""

from __future__ import annotations

from citeline.database.errors import (
    DatabaseError,
    DatabaseTooOldError,
    DatabaseUnreachableError,
    DriverMissingError,
    SchemaTooNewError,
)

# The names from before every error was called ``...Error``, kept for code written against them.
from citeline.database.errors import DatabaseTooOld as DatabaseTooOld
from citeline.database.errors import DatabaseUnreachable as DatabaseUnreachable
from citeline.database.errors import DriverMissing as DriverMissing
from citeline.database.errors import SchemaTooNew as SchemaTooNew
from citeline.database.url import (
    DEFAULT_DATABASE,
    DatabaseUrl,
    PostgresUrl,
    SqliteUrl,
    parse_database_url,
)

__all__ = [
    "DEFAULT_DATABASE",
    "DatabaseError",
    "DatabaseTooOldError",
    "DatabaseUnreachableError",
    "DatabaseUrl",
    "DriverMissingError",
    "PostgresUrl",
    "SchemaTooNewError",
    "SqliteUrl",
    "parse_database_url",
]
