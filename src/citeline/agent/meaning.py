"""The embedded model's sense of meaning: the shipped sentence-embedding model, when installed.

The embedded model ranks the sections a search returned by the words they share with
the question, and words mislead where the answer uses others (a question about sorting
records by a key shares every word with a section on dictionaries, none of its point with
one titled "Key Functions"). With the ``citeline[dense]`` extra installed, this module gives it the
cosine similarity of the question and each section's meaning text (its title and opening,
``citeline.corpus.meaning``), from the same model that dense retrieval uses, loaded once
per process.

A section's vector is read from the collection when ingest stored it (dense and hybrid
collections), else embedded here, alone and at full precision as ingest does, so both give
the same number; either way it is kept while recent, since a collection's sections come
back for question after question. The question is embedded as a search query is (int8,
and the search's vector is reused). So measured, the development sets' figures equal those
of the int8 vectors embedded in batches before (which depended on the batch: see
``citeline.corpus.meaning``), where int8 texts alone lost two of the Python-docs questions
(docs/benchmarks.md). A section's paragraphs, read only to choose among them
(``exact=False``), are embedded alone in the int8 arithmetic: a third of the cost a text,
and the development sets' answers did not move; they are never stored.

It is the agent's to give (``models`` knows nothing of the corpus, where the model and the
stored vectors live); it decides nothing about ranking, which stays the embedded model's.
"""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from citeline.corpus.embedding import Embedder, dense_installed, load_embedder
from citeline.corpus.meaning import MEANING_DTYPE
from citeline.models import Similarity

if TYPE_CHECKING:
    from citeline.corpus import Corpus

__all__ = ["MEANING_ENV", "embedded_similarity", "new_similarity"]

# "0" turns the embedded model's reading for meaning off: its answers then depend on words
# alone, as without the extra (a comparison, or a machine where the extra's CPU is dear).
MEANING_ENV = "CITELINE_EMBEDDED_MEANING"
# Texts whose vectors are kept: 4,096 x 384 float32 is 6 MB, and a docs site's answers
# draw on a few thousand sections.
CACHED_TEXTS = 4_096

_lock = threading.Lock()
_meanings: _Meanings | None = None

# A cached vector is a question's or a section's: the two are embedded differently.
# What a vector is of: the question, a text in the exact arithmetic, or one in the quick.
_Key = tuple[str, str]


def embedded_similarity(corpus: Corpus | None = None) -> Similarity | None:
    """The similarity the embedded model reads with, reading vectors ``corpus`` stored at
    ingest where it has them; ``None`` when the extra is not installed or
    ``CITELINE_EMBEDDED_MEANING=0``. The model loads on the first call."""
    global _meanings
    if not _wanted():
        return None
    with _lock:
        if _meanings is None:
            _meanings = _Meanings(load_embedder())
        return _meanings.reading(corpus)


def new_similarity(corpus: Corpus | None = None) -> Similarity | None:
    """A similarity with a cache of its own (a benchmark's, to pay as a fresh process does),
    or ``None`` as ``embedded_similarity`` would be."""
    return _Meanings(load_embedder()).reading(corpus) if _wanted() else None


def _wanted() -> bool:
    return os.environ.get(MEANING_ENV, "1").strip() != "0" and dense_installed()


class _Meanings:
    """Cosine similarity through ``embedder``: each text's vector read from a collection or
    embedded once, and kept while it stays recent."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: OrderedDict[_Key, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def reading(self, corpus: Corpus | None) -> Similarity:
        """The similarity over ``corpus``'s stored vectors (none: all embedded here)."""
        return functools.partial(self.similarity, corpus)

    def similarity(
        self, corpus: Corpus | None, question: str, texts: Sequence[str], *, exact: bool = True
    ) -> list[float]:
        if not texts:
            return []
        kind = "exact" if exact else "quick"
        keys: list[_Key] = [("question", question), *((kind, text) for text in texts)]
        with self._lock:
            have = {key: self._vectors[key] for key in keys if key in self._vectors}
        missing = [text for text in dict.fromkeys(texts) if (kind, text) not in have]
        if missing and exact and corpus is not None:
            stored = corpus.meaning_vectors(missing, self._embedder.model_id)
            for text, raw in stored.items():
                vector = np.frombuffer(raw, dtype=MEANING_DTYPE)
                # A row of another length is damage, not a vector: embed that text here.
                if vector.shape == (self._embedder.dimension,):
                    have[(kind, text)] = vector.astype(np.float32)
        if ("question", question) not in have:
            have[("question", question)] = _row(self._embedder.embed_query(question))
        embed = self._embedder.embed_exact if exact else self._embedder.embed_quick
        for text in missing:
            if (kind, text) not in have:
                have[(kind, text)] = _row(embed(text))
        with self._lock:
            for key, vector in have.items():
                self._vectors[key] = vector
                self._vectors.move_to_end(key)
            while len(self._vectors) > CACHED_TEXTS:
                self._vectors.popitem(last=False)
        matrix = np.stack([have[(kind, text)] for text in texts])
        return [float(score) for score in matrix @ have[("question", question)]]


def _row(vector: npt.ArrayLike) -> npt.NDArray[np.float32]:
    return np.asarray(vector, dtype=np.float32).reshape(-1)
