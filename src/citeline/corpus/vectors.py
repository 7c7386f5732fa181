"""The in-process vector index: nearest passages to a query vector, exactly, by dot product.

The store is the truth (one float16 vector per passage, written and removed in its
transactions); this index is a copy in memory, reloaded whenever the store's vectors
version moves, so an ingest in another process is seen at the next search. Exact search is a
matrix-vector product: measured on this project's 2-core machine (CPU time, one thread),
0.4 ms at 5,000 passages and 16 ms at 100,000 (``benchmarks/retrieval.py``).

It deliberately knows nothing about models, text or fusion.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from citeline.corpus.stores.base import Candidate

if TYPE_CHECKING:
    from citeline.corpus.stores.base import CorpusStore

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

    def __len__(self) -> int:
        return len(self._ids)

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[Candidate]:
        """The ``k`` passages whose vectors are nearest ``query``, best first."""
        ids, matrix = self._current()
        if k < 1 or len(ids) == 0:
            return []
        scores = matrix @ query
        if k < len(ids):
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top], kind="stable")]
        else:
            top = np.argsort(-scores, kind="stable")
        return [Candidate(int(ids[i]), float(scores[i])) for i in top]

    def _current(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        version = self._store.vectors_version()
        with self._lock:
            if version != self._version:
                self._load(version)
            return self._ids, self._matrix

    def _load(self, version: int) -> None:
        ids: list[int] = []
        blobs: list[bytes] = []
        for passage, blob in self._store.vectors():
            ids.append(passage)
            blobs.append(bytes(blob))
        raw = np.frombuffer(b"".join(blobs), dtype=STORED_DTYPE)
        self._matrix = raw.reshape(len(ids), self._dimension).astype(np.float32)
        self._ids = np.asarray(ids, dtype=np.int64)
        self._version = version
