"""The errors a database raises before it is usable, each a sentence that says what to do.

They are raised when a database is opened (start-up), never while answering: a failure
during an answer is a driver error that ends that one stream as failed.
"""

from __future__ import annotations

from citeline.errors import CitelineError


class DatabaseError(CitelineError):
    """The database named by the settings cannot be used; ``str(error)`` says how to fix it."""


class DriverMissingError(DatabaseError):
    """A PostgreSQL or Redis URL was given but its Python driver is not installed."""


class DatabaseUnreachableError(DatabaseError):
    """No connection could be made to the database server."""


class DatabaseTooOldError(DatabaseError):
    """The database server is an older release than citeline needs."""


class SchemaTooNewError(DatabaseError):
    """The database was migrated by a newer citeline than this one."""


# The names these had before every error was called ``...Error``, kept so that code written
# against them still runs.
DriverMissing = DriverMissingError
DatabaseUnreachable = DatabaseUnreachableError
DatabaseTooOld = DatabaseTooOldError
SchemaTooNew = SchemaTooNewError
