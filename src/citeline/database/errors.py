"""The errors a database raises before it is usable, each a sentence that says what to do.

They are raised when a database is opened (start-up), never while answering: a failure
during an answer is a driver error that ends that one stream as failed.
"""

from __future__ import annotations


class DatabaseError(Exception):
    """The database named by the settings cannot be used; ``str(error)`` says how to fix it."""


class DriverMissing(DatabaseError):
    """A PostgreSQL or Redis URL was given but its Python driver is not installed."""


class DatabaseUnreachable(DatabaseError):
    """No connection could be made to the database server."""


class DatabaseTooOld(DatabaseError):
    """The database server is an older release than citeline needs."""


class SchemaTooNew(DatabaseError):
    """The database was migrated by a newer citeline than this one."""
