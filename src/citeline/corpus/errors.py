"""The corpus layer's exceptions: one hierarchy, so a caller can catch ``CorpusError`` alone.

Messages are sentences a user can act on; the CLI prints them as they are.
"""

from __future__ import annotations


class CorpusError(Exception):
    """Base class of every error the corpus layer raises on purpose."""


class IndexUnreadableError(CorpusError):
    """The index file exists but cannot be opened as a citeline index."""


class SchemaVersionError(CorpusError):
    """The index was written by a citeline whose storage layout this one cannot read."""


class SourcePathError(CorpusError):
    """The path given to ingest does not exist or cannot be listed."""


class CorpusUnavailableError(CorpusError):
    """The corpus's database cannot be reached right now (down, restarting); later may work."""


class DenseUnavailableError(CorpusError):
    """Dense or hybrid retrieval was asked for where the embedding model is not installed."""


class EmbeddingModelError(CorpusError):
    """The embedding model's files are missing, altered or unreadable; nothing was embedded."""
