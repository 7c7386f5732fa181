"""The in-process vector index: nearest passages to a query vector, by dot product.

The store is the truth (one float16 vector per passage, written and removed in its
transactions); this index is a copy in memory, reloaded whenever the store's vectors
version moves, so an ingest in another process is seen at the next search.

Exact while small, approximate past ``APPROXIMATE_FROM`` vectors. Exact search is one
matrix-vector product; measured on this project's 2-core machine (CPU time, one thread,
random unit vectors): 0.4 ms at 5,000 passages, 7 ms at 20,000, 12 ms at 50,000 and 16 ms at
100,000, so past 20,000 it costs more than embedding the query does. Past that, faiss's
inverted-file index (``IndexIVFFlat``: k-means lists, ``sqrt(n)`` of them, the query's
nearest eighth searched) scans about an eighth of the vectors; on SciFact's real vectors
with 75 lists, searching 16 of them found 0.95 of the exact top 10 (32 of 303 lists: 0.95).
Building it takes about 6 s of CPU at 100,000 vectors, paid at each reload.

It deliberately knows nothing about models, text or fusion; faiss stays in this module.
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import threadpoolctl

from citeline.corpus.stores.base import Candidate

if TYPE_CHECKING:
    from citeline.corpus.stores.base import CorpusStore

# One BLAS thread for a query's matrix-vector product. Measured on SciFact (5,746 vectors,
# CPU time of the whole process): 0.27 ms with one thread against 6.3 ms with OpenBLAS's two,
# whose idle worker spins; a search is too small to split, and a server runs searches side
# by side on its own threads already.
_BLAS = threadpoolctl.ThreadpoolController()

# Exact search up to this many vectors, the approximate index past it (measured above).
APPROXIMATE_FROM = 20_000
# The share of the inverted lists a query searches, and the fewest it searches.
PROBE_SHARE = 8
MIN_PROBES = 16

# Vectors are kept as float16 bytes: half the file of float32, and the cosine of a
# float16-rounded unit vector with its original is above 0.9999 for this model's 384 values.
STORED_DTYPE = np.dtype("<f2")


def to_bytes(vector: npt.NDArray[np.float32]) -> bytes:
    """One vector as the store keeps it."""
    return vector.astype(STORED_DTYPE).tobytes()


class VectorIndex:
    """The store's vectors in memory; safe to share between threads."""

    def __init__(self, store: CorpusStore, dimension: int) -> None:
        self._store = store
        self._dimension = dimension
        self._lock = threading.Lock()
        self._version: int | None = None
        self._ids: npt.NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._matrix: npt.NDArray[np.float32] = np.empty((0, dimension), dtype=np.float32)
        self._approximate: Any = None

    @property
    def approximate(self) -> bool:
        """Whether searches use the approximate index (past ``APPROXIMATE_FROM`` vectors)."""
        self._current()
        return self._approximate is not None

    def __len__(self) -> int:
        return len(self._ids)

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Candidate]:
        """The ``k`` passages whose vectors are nearest ``query``, best first."""
        ids, matrix, approximate = self._current()
        if k < 1 or len(ids) == 0:
            return []
        if approximate is not None:
            found, rows = approximate.search(query.reshape(1, -1), min(k, len(ids)))
            return [
                Candidate(int(ids[row]), float(score))
                for score, row in zip(found[0], rows[0], strict=True)
                if row >= 0
            ]
        with _BLAS.limit(limits=1, user_api="blas"):
            scores = matrix @ query
        if k < len(ids):
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top], kind="stable")]
        else:
            top = np.argsort(-scores, kind="stable")
        return [Candidate(int(ids[i]), float(scores[i])) for i in top]

    def _current(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32], Any]:
        version = self._store.vectors_version()
        with self._lock:
            if version != self._version:
                self._load(version)
            return self._ids, self._matrix, self._approximate

    def _load(self, version: int) -> None:
        ids: list[int] = []
        blobs: list[bytes] = []
        for passage, blob in self._store.vectors():
            ids.append(passage)
            blobs.append(bytes(blob))
        raw = np.frombuffer(b"".join(blobs), dtype=STORED_DTYPE)
        self._matrix = raw.reshape(len(ids), self._dimension).astype(np.float32)
        self._ids = np.asarray(ids, dtype=np.int64)
        self._approximate = _inverted_file(self._matrix) if len(ids) >= APPROXIMATE_FROM else None
        self._version = version


def _inverted_file(matrix: npt.NDArray[np.float32]) -> Any:
    import faiss

    lists = int(math.sqrt(len(matrix)))
    coarse = faiss.IndexFlatIP(matrix.shape[1])
    index = faiss.IndexIVFFlat(coarse, matrix.shape[1], lists, faiss.METRIC_INNER_PRODUCT)
    index.train(matrix)
    index.add(matrix)
    # One thread a search: a query scans a few thousand vectors, and the server already runs
    # searches side by side on its worker threads.
    faiss.omp_set_num_threads(1)
    index.nprobe = min(lists, max(MIN_PROBES, lists // PROBE_SHARE))
    return index
