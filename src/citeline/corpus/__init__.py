"""The corpus: documents, passages, ingestion, the index and retrieval.

Import from here; the modules behind it may move. It knows nothing about models or HTTP.
"""

from citeline.corpus.corpus import Corpus
from citeline.corpus.documents import Document, Hit, Passage
from citeline.corpus.errors import (
    CorpusError,
    CorpusUnavailableError,
    DenseUnavailableError,
    EmbeddingModelError,
    IndexUnreadableError,
    JudgedQueriesError,
    JudgedQueriesMissingError,
    SchemaVersionError,
    SourcePathError,
)
from citeline.corpus.ingest_report import IngestProblem, IngestProgress, IngestReport
from citeline.corpus.judged_queries import (
    JudgedQuery,
    load_beir_queries,
    ndcg_at,
    rank_documents,
    recall_at,
)
from citeline.corpus.retrieval import Retrieval

__all__ = [
    "Corpus",
    "CorpusError",
    "CorpusUnavailableError",
    "DenseUnavailableError",
    "Document",
    "EmbeddingModelError",
    "Hit",
    "IndexUnreadableError",
    "IngestProblem",
    "IngestProgress",
    "IngestReport",
    "JudgedQueriesError",
    "JudgedQueriesMissingError",
    "JudgedQuery",
    "Passage",
    "Retrieval",
    "SchemaVersionError",
    "SourcePathError",
    "load_beir_queries",
    "ndcg_at",
    "rank_documents",
    "recall_at",
]
