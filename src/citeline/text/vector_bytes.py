"""A sentence model's vector as stored bytes, for each kind of vector, and back.

Two kinds, stored apart and for different reasons: a passage's vector, which dense
retrieval scans (float16: half the file of float32, and the cosine of a float16-rounded unit
vector with its original is above 0.9999 for this model's 384 values), and a meaning text's
(``citeline.text.meaning``), which the embedded model scores sections by (float32: the vector
an answer computes, not a rounding of it; float16 would move cosines by about 1e-3, enough to
reorder sections whose scores are that close). Both little-endian.

numpy is the dense extra's: it is imported only when a vector is encoded or decoded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MEANING_DTYPE",
    "PASSAGE_DTYPE",
    "meaning_bytes",
    "meaning_vector",
    "passage_bytes",
    "passage_matrix",
]

PASSAGE_DTYPE = "<f2"
MEANING_DTYPE = "<f4"


def passage_bytes(vector: npt.NDArray[np.float32]) -> bytes:
    """A passage's vector as the store keeps it."""
    return vector.astype(PASSAGE_DTYPE).tobytes()


def passage_matrix(blobs: Sequence[bytes], dimension: int) -> npt.NDArray[np.float32]:
    """Stored passage vectors as the rows of one float32 matrix, in order."""
    import numpy as np

    raw = np.frombuffer(b"".join(blobs), dtype=PASSAGE_DTYPE)
    return raw.reshape(len(blobs), dimension).astype(np.float32)


def meaning_bytes(vector: npt.NDArray[np.float32]) -> bytes:
    """A meaning text's vector as the store keeps it."""
    return vector.astype(MEANING_DTYPE).tobytes()


def meaning_vector(raw: bytes, dimension: int) -> npt.NDArray[np.float32] | None:
    """A stored meaning vector, or None for a row of another length: damage, not a vector
    (its text is then embedded again)."""
    import numpy as np

    vector = np.frombuffer(raw, dtype=MEANING_DTYPE)
    if vector.shape != (dimension,):
        return None
    return vector.astype(np.float32)
