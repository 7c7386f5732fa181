"""The root of every error citeline raises on purpose, and the map of the whole tree.

Each layer raises its own errors from its own module; all of them derive from
``CitelineError``, so a caller catches at the level it cares about, and the ``citeline``
command catches ``CitelineError`` once, prints its sentence and exits with status 2.
``str(error)`` is always a sentence that says what to do next. A library's own errors
(sqlite3, psycopg, DuckDB, PyJWT, limits) are translated into these in the one module
that adapts that library; none crosses a layer. A failure while answering one question
is not raised to the caller at all: it ends that stream with ``done{state: failed}``.

    CitelineError
    ├── CorpusError                      citeline.corpus.errors
    │   ├── IndexUnreadableError         the index file is not a citeline index
    │   ├── SchemaVersionError           the index was written by another citeline
    │   ├── SourcePathError              the path to ingest cannot be listed
    │   ├── CorpusUnavailableError       its database is down right now (psycopg)
    │   │   └── DiskFullError            its disk is full (sqlite3, tantivy)
    │   ├── DenseUnavailableError        dense retrieval asked for, no model installed
    │   ├── EmbeddingModelError          the embedding model's files are unusable
    │   └── JudgedQueriesError           a BEIR folder cannot be read
    │       └── JudgedQueriesMissingError  (also FileNotFoundError) no such split
    ├── DatabaseError                    citeline.database.errors
    │   ├── DriverMissingError           a postgresql:// URL without the driver
    │   ├── DatabaseUnreachableError     no connection could be made (psycopg)
    │   ├── DatabaseTooOldError          the server is older than citeline needs
    │   └── SchemaTooNewError            a newer citeline migrated the tables
    ├── DataError                        citeline.data.errors
    │   ├── ProjectError                 the project file or a --data option is wrong
    │   ├── QueryRefusedError            ad-hoc SQL that is not one read-only query
    │   ├── QueryFailedError             a query that ran and failed (DuckDB)
    │   └── MeasureError                 an unknown measure, or arguments that do not fit
    ├── ModelSpecError                   citeline.models.spec: a model setting is wrong
    ├── TurnLimitError                   citeline.models.tool_loop: a model that kept
    │                                    calling tools was stopped
    ├── TuningError                      citeline.models.embedded.tuning: a weights file
    │                                    that cannot be used
    ├── StartupError                     citeline.server.errors: the server cannot start
    │   ├── SettingsError                citeline.server.settings: a setting is wrong
    │   └── CallerKeyError               citeline.server.tokens: the key (PyJWT) is unusable
    ├── StoreUnavailableError            citeline.server.store.base: answers or
    │                                    conversations are out of reach (sqlite3, psycopg)
    ├── ListenError                      citeline.cli.port: the server cannot listen there
    │   └── PortTakenError               another program holds the port
    ├── QuestionFileError                citeline.evaluation.questions
    ├── ManifestError                    citeline.evaluation.collections: a collection's
    │                                    collection.toml that cannot be read
    ├── PlotUnavailableError             citeline.evaluation.plot: no matplotlib
    ├── EmbedError                       citeline.embed: a Sphinx or MkDocs setting of the
    │                                    Ask box is wrong
    └── PathUnusableError                here: a file or folder named to a command cannot
                                         be read or written

Deliberately not here: the layers' classes themselves (each lives beside the code that
raises it, so this module imports nothing) and any handling (the CLI's, the server's).
"""

from __future__ import annotations


class CitelineError(Exception):
    """Anything citeline refuses or cannot do; ``str(error)`` says what to do next."""


class PathUnusableError(CitelineError):
    """A file or folder named to a command cannot be read or written (the operating
    system's ``OSError``, translated where the path was used)."""


__all__ = ["CitelineError", "PathUnusableError"]
