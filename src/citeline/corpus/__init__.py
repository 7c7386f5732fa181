"""The corpus: documents, passages, ingestion, the index and retrieval.

Import from here; the modules behind it may move. It knows nothing about models or HTTP.
"""

from citeline.corpus.corpus import Corpus
from citeline.corpus.documents import Document, Hit, Passage
from citeline.corpus.errors import (
    CorpusError,
    CorpusUnavailableError,
    IndexUnreadableError,
    SchemaVersionError,
    SourcePathError,
)
from citeline.corpus.ingest import IngestProblem, IngestProgress, IngestReport

__all__ = [
    "Corpus",
    "CorpusError",
    "CorpusUnavailableError",
    "Document",
    "Hit",
    "IndexUnreadableError",
    "IngestProblem",
    "IngestProgress",
    "IngestReport",
    "Passage",
    "SchemaVersionError",
    "SourcePathError",
]
