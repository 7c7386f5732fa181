"""Corpus stores: one interface (``base``) and one module per implementation."""

from citeline.corpus.stores.base import CorpusStore, IndexedDocument
from citeline.corpus.stores.sqlite import SQLiteStore

__all__ = ["CorpusStore", "IndexedDocument", "SQLiteStore"]
