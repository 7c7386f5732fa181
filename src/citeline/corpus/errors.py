"""The corpus layer's exceptions: one hierarchy, so a caller can catch ``CorpusError`` alone.

Messages are sentences a user can act on; the CLI prints them as they are.
"""

from __future__ import annotations

from citeline.errors import CitelineError


class CorpusError(CitelineError):
    """Base class of every error the corpus layer raises on purpose."""


class IndexUnreadableError(CorpusError):
    """The index file exists but cannot be opened as a citeline index."""


class SchemaVersionError(CorpusError):
    """The index was written by a citeline whose storage layout this one cannot read."""


class SourcePathError(CorpusError):
    """The path given to ingest does not exist or cannot be listed."""


class CorpusUnavailableError(CorpusError):
    """The corpus's database cannot serve right now (down, restarting, out of disk, a statement
    timed out); later may work."""


class DiskFullError(CorpusUnavailableError):
    """The disk holding the collection or its search index is full; what was stored is kept,
    and the command works again once there is space."""


class JudgedQueriesError(CorpusError):
    """A BEIR folder's queries or relevance judgements cannot be read."""


class JudgedQueriesMissingError(JudgedQueriesError, FileNotFoundError):
    """The folder has no relevance judgements for the split asked for."""


class DenseUnavailableError(CorpusError):
    """Dense or hybrid retrieval was asked for where the embedding model is not installed."""


class EmbeddingModelError(CorpusError):
    """The embedding model's files are missing, altered or unreadable; nothing was embedded."""
