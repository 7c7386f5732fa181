"""The in-process vector index: nearest passages to a query vector, by dot product.

The store is the truth (one float16 vector per passage, written and removed in its
transactions); this index is a copy in memory, reloaded whenever the store's vectors
version moves, so an ingest in another process is seen at the next search.

Exact while small, approximate past ``APPROXIMATE_FROM`` vectors. Exact search scans every
vector with faiss's flat scalar-quantizer index in float16 (``IndexScalarQuantizer``,
``QT_fp16``): the store's float16 values are held as they are and decoded exactly, so the
scores are the dot products of the stored vectors as before, at half the memory a query has
to read. Measured on SciFact (5,746 vectors, 807 train claims, CPU time of the whole
process inside a hybrid search, load 5-7 on 2 cores): 0.59 ms a search against 1.19 ms for
numpy's float32 matrix-vector product under threadpoolctl's one-thread limit, whose
entering and leaving woke OpenBLAS's second thread to spin after every query, and whose
8.8 MB matrix the model's run had pushed out of the cache. Exact search cost 0.4 ms at
5,000 passages, 7 ms at 20,000, 12 ms at 50,000 and 16 ms at 100,000 (float32, one thread,
random unit vectors), so past 20,000 it costs more than embedding the query does. Past
that, faiss's inverted-file index (``IndexIVFFlat``: k-means lists, ``sqrt(n)`` of them, the
query's nearest eighth searched) scans about an eighth of the vectors; on SciFact's real
vectors with 75 lists, searching 16 of them found 0.95 of the exact top 10 (32 of 303 lists:
0.95). Building it takes about 6 s of CPU at 100,000 vectors, paid at each reload.

It deliberately knows nothing about models, text or fusion; a vector's stored bytes are
``citeline.text.vector_bytes``'s. faiss stays in this module, and an install without it can
still import the module (issue 29: an install with part of the dense extra ended at the
import instead of saying what to install).
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from citeline.corpus.stores.base import Candidate
from citeline.text.vector_bytes import passage_matrix

try:
    import faiss
except ImportError:  # pragma: no cover - an install with only part of the dense extra
    # ``embedding`` says what to install before faiss is needed.
    faiss = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from citeline.corpus.stores.base import PassageVectors

# Exact search up to this many vectors, the approximate index past it (measured above).
APPROXIMATE_FROM = 20_000
# The share of the inverted lists a query searches, and the fewest it searches.
PROBE_SHARE = 8
MIN_PROBES = 16


class VectorIndex:
    """The store's vectors in memory; safe to share between threads."""

    def __init__(self, store: PassageVectors, dimension: int) -> None:
        self._store = store
        self._dimension = dimension
        self._lock = threading.Lock()
        self._version: int | None = None
        self._ids: npt.NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._index: Any = None
        self._approximate = False

    @property
    def approximate(self) -> bool:
        """Whether searches use the approximate index (past ``APPROXIMATE_FROM`` vectors)."""
        self._current()
        return self._approximate

    def __len__(self) -> int:
        return len(self._ids)

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Candidate]:
        """The ``k`` passages whose vectors are nearest ``query``, best first."""
        ids, index = self._current()
        if k < 1 or len(ids) == 0:
            return []
        found, rows = index.search(query.reshape(1, -1), min(k, len(ids)))
        kept = rows[0] >= 0  # faiss pads with -1 where the approximate index finds too few
        return [
            Candidate(passage, score)
            for passage, score in zip(
                ids[rows[0][kept]].tolist(), found[0][kept].tolist(), strict=True
            )
        ]

    def _current(self) -> tuple[npt.NDArray[np.int64], Any]:
        version = self._store.vectors_version()
        with self._lock:
            if version != self._version:
                self._load(version)
            return self._ids, self._index

    def _load(self, version: int) -> None:
        ids: list[int] = []
        blobs: list[bytes] = []
        for passage, blob in self._store.vectors():
            ids.append(passage)
            blobs.append(bytes(blob))
        matrix = passage_matrix(blobs, self._dimension)
        self._ids = np.asarray(ids, dtype=np.int64)
        self._approximate = len(ids) >= APPROXIMATE_FROM
        self._index = _inverted_file(matrix) if self._approximate else _exact(matrix)
        self._version = version


def _exact(matrix: npt.NDArray[np.float32]) -> Any:
    index = faiss.IndexScalarQuantizer(
        matrix.shape[1], faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT
    )
    index.add(matrix)
    _one_thread()
    return index


def _one_thread() -> None:
    # One thread a search: a query scans a few thousand vectors, the server already runs
    # searches side by side on its worker threads, and OpenMP's idle workers would spin.
    faiss.omp_set_num_threads(1)


def _inverted_file(matrix: npt.NDArray[np.float32]) -> Any:
    lists = int(math.sqrt(len(matrix)))
    coarse = faiss.IndexFlatIP(matrix.shape[1])
    index = faiss.IndexIVFFlat(coarse, matrix.shape[1], lists, faiss.METRIC_INNER_PRODUCT)
    index.train(matrix)
    index.add(matrix)
    _one_thread()
    index.nprobe = min(lists, max(MIN_PROBES, lists // PROBE_SHARE))
    return index
