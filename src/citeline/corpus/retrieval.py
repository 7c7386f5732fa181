"""How a collection is searched: lexical (BM25), dense (sentence vectors) or hybrid (both).

The mode is the collection's own, recorded at ingest (``citeline ingest --retrieval``,
lexical unless asked: see ``default_retrieval``), and can be
overridden per process by ``CITELINE_RETRIEVAL`` or ``Corpus.open(retrieval=...)``. Dense
and hybrid need the passages' vectors, so asking for them on a collection ingested lexical,
or where the extra is missing, is refused at open with the command that fixes it.

It deliberately holds no ranking of its own: BM25 is the search index's (``search_index``),
vectors ``vectors``', fusion ``fusion``'s; the store turns the winners into hits.
"""

from __future__ import annotations

import enum
import functools
import os

from citeline.corpus.documents import Hit
from citeline.corpus.embedding import Embedder, load_embedder
from citeline.corpus.errors import CorpusError, DenseUnavailableError
from citeline.corpus.fusion import fuse
from citeline.corpus.search_index import SearchIndex
from citeline.corpus.stores.base import CorpusStore

RETRIEVAL_ENV = "CITELINE_RETRIEVAL"
# Candidates each ranking hands to fusion. Measured on SciFact train (mix at 0.6): 50 deep
# scored nDCG@10 0.7415, 100 deep 0.7412 with recall@100 0.9516 against 0.9472.
FUSION_DEPTH = 100
# Query vectors remembered per process: embedding a query is a large share of a hybrid
# search's CPU (about 3 ms of 4.3, measured on SciFact's claims), and one question is often searched
# twice in a row (the page's results, then the answer's own search tool call).
QUERY_CACHE = 256


class Retrieval(enum.StrEnum):
    """How passages are ranked."""

    LEXICAL = "lexical"
    DENSE = "dense"
    HYBRID = "hybrid"


def parse_retrieval(value: str) -> Retrieval:
    """A mode from its name; a ``CorpusError`` naming the choices otherwise."""
    try:
        return Retrieval(value.strip().lower())
    except ValueError:
        choices = ", ".join(mode.value for mode in Retrieval)
        raise CorpusError(f"retrieval {value!r} is not one of {choices}; pick one.") from None


def default_retrieval() -> Retrieval:
    """What a new collection is ingested for when nobody says: lexical.

    Measured on the 2-core build machine (docs/benchmarks.md, docs/corpus.md): hybrid lifts
    the development questions' hit@3 from 0.890 to 0.951, but embedding the bundled sample
    costs about 16 s of CPU against a second, and the extra adds 215 MB to the install. A
    first-time user gets the one-second demo; hybrid is one flag away, and a default that
    followed whatever happens to be installed would build different collections from one
    command on two machines.
    """
    return Retrieval.LEXICAL


class Retriever:
    """Searches one store in one mode; the model and the vectors load when it is made."""

    def __init__(self, store: CorpusStore, lexical: SearchIndex, mode: Retrieval) -> None:
        self._store = store
        self._lexical = lexical
        self.mode = mode
        self._embedder: Embedder | None = None
        if mode is not Retrieval.LEXICAL:
            if store.setting("embedding_model") is None:
                raise DenseUnavailableError(
                    f"{mode.value} retrieval needs passage vectors, and this collection has "
                    f"none: ingest it again with --retrieval {mode.value} (after pip install "
                    f"'citeline[dense]'), or set {RETRIEVAL_ENV}=lexical."
                )
            self._embedder = load_embedder()
            self._embed_query = functools.lru_cache(maxsize=QUERY_CACHE)(self._embedder.embed_query)
            if store.setting("embedding_model") != self._embedder.model_id:
                raise DenseUnavailableError(
                    f"this collection's vectors come from {store.setting('embedding_model')}, "
                    f"not {self._embedder.model_id}: ingest it again to re-embed its passages, "
                    f"or set {RETRIEVAL_ENV}=lexical."
                )
            from citeline.corpus.vectors import VectorIndex

            self._vectors = VectorIndex(store, self._embedder.dimension)

    def search(self, query: str, k: int) -> list[Hit]:
        if k < 1 or not query.strip():
            return []
        if self._embedder is None:
            return self._store.hits(self._lexical.lexical(query, k))
        dense = self._vectors.search(self._embed_query(query), max(k, FUSION_DEPTH))
        if self.mode is Retrieval.DENSE:
            return self._store.hits(dense[:k])
        lexical = self._lexical.lexical(query, max(k, FUSION_DEPTH))
        return self._store.hits(fuse(lexical, dense, k))


def chosen_retrieval(store: CorpusStore, requested: Retrieval | str | None) -> Retrieval:
    """The mode to search in: asked for, else ``CITELINE_RETRIEVAL``, else the collection's."""
    if requested is None:
        requested = os.environ.get(RETRIEVAL_ENV) or None
    if requested is None:
        requested = store.setting("retrieval") or Retrieval.LEXICAL
    return requested if isinstance(requested, Retrieval) else parse_retrieval(requested)
