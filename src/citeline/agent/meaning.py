"""The embedded model's sense of meaning: the shipped sentence-embedding model, when installed.

The embedded model ranks the sections a search returned by the words they share with
the question, and words mislead where the answer uses others ("How do I sort a list of
dictionaries by a key?" shares every word with "Dictionaries", none of its point with
"Key Functions"). With the ``citeline[dense]`` extra installed, this module gives it the
cosine similarity of the question and each section's title and opening, from the same
model that dense retrieval uses, loaded once per process. Vectors are kept for recently
seen texts, since a collection's sections come back for question after question.

It is the agent's to give (``models`` knows nothing of the corpus, where the model
lives); it decides nothing about ranking, which stays the embedded model's.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from citeline.corpus.embedding import Embedder, dense_installed, load_embedder
from citeline.models import Similarity

__all__ = ["MEANING_ENV", "embedded_similarity", "new_similarity"]

# "0" turns the embedded model's reading for meaning off: its answers then depend on words
# alone, as without the extra (a comparison, or a machine where the extra's CPU is dear).
MEANING_ENV = "CITELINE_EMBEDDED_MEANING"
# Texts whose vectors are kept: 4,096 x 384 float32 is 6 MB, and a docs site's answers
# draw on a few thousand sections.
CACHED_TEXTS = 4_096

_lock = threading.Lock()
_similarity: Similarity | None = None


def embedded_similarity() -> Similarity | None:
    """The similarity the embedded model reads with, or ``None`` when the extra is not
    installed or ``CITELINE_EMBEDDED_MEANING=0``. The model loads on the first call."""
    global _similarity
    if not _wanted():
        return None
    with _lock:
        if _similarity is None:
            _similarity = _CachedSimilarity(load_embedder())
        return _similarity


def new_similarity() -> Similarity | None:
    """A similarity with a cache of its own (a benchmark's, to pay as a fresh process does),
    or ``None`` as ``embedded_similarity`` would be."""
    return _CachedSimilarity(load_embedder()) if _wanted() else None


def _wanted() -> bool:
    return os.environ.get(MEANING_ENV, "1").strip() != "0" and dense_installed()


class _CachedSimilarity:
    """Cosine similarity through ``embedder``, each text embedded once while it stays recent."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, query: str, texts: Sequence[str]) -> Sequence[float]:
        if not texts:
            return []
        with self._lock:
            have = {t: self._vectors[t] for t in (query, *texts) if t in self._vectors}
        if query not in have:
            have[query] = np.asarray(self._embedder.embed_query(query), np.float32).reshape(-1)
        others = [t for t in dict.fromkeys(texts) if t not in have]
        if others:
            found = self._embedder.embed_passages(others)
            for text, vector in zip(others, found, strict=True):
                have[text] = np.asarray(vector, dtype=np.float32).reshape(-1)
        with self._lock:
            for text, vector in have.items():
                self._vectors[text] = vector
                self._vectors.move_to_end(text)
            while len(self._vectors) > CACHED_TEXTS:
                self._vectors.popitem(last=False)
        matrix = np.stack([have[t] for t in texts])
        return [float(s) for s in matrix @ have[query]]
