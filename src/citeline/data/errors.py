"""The errors of the data layer, one hierarchy so a caller catches at the level it cares about.

Every message is a sentence that says what to do next: a ``ProjectError`` reaches the person
who wrote the project file, the others reach the model as a tool error it can act on. This
module holds no logic.
"""

from __future__ import annotations

from citeline.errors import CitelineError


class DataError(CitelineError):
    """Anything the data layer refuses or fails at."""


class ProjectError(DataError):
    """The project file or a ``--data`` option is wrong; nothing is opened until it is fixed."""


class QueryRefusedError(DataError):
    """Ad-hoc SQL that is not exactly one read-only query; it was never run."""


class QueryFailedError(DataError):
    """A query that ran and failed: a database error, or it ran past its time bound."""


class MeasureError(DataError):
    """An unknown measure, or arguments that do not fit its parameters."""


# The names these had before every error was called ``...Error``, kept so that code written
# against them still runs.
QueryRefused = QueryRefusedError
QueryFailed = QueryFailedError
