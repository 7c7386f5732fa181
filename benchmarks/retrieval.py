"""Lexical, dense and hybrid retrieval side by side: quality, query cost, ingest and size.

Run: ``.venv/bin/python benchmarks/retrieval.py`` (needs ``pip install -e '.[dense]'``;
``--help`` for the options). It prints one table:

- SciFact (BEIR layout, ``--split train``; the test split is held back, never tune on it):
  ``corpus.jsonl`` ingested lexically into one index and with vectors into another (each
  timed);
  nDCG@10 (from a search for the first ten documents, as a user's) and recall@100 (from a
  search 100 documents deep) of every judged query in each mode; query CPU time p50/p95 of
  ``search(query, k=10)`` (the API default; embedding the query included); index size.
- The development questions (``benchmarks/questions/python-docs.jsonl``, gold section ids,
  written before tuning): the bundled Python sample ingested with vectors, and the share of
  questions with a gold section among the first three documents (document hit@3).
- ``--passages N`` synthetic passages (default 100,000; 0 skips): the recipe of
  ``scale_corpus.py`` for the text, and random unit vectors for the embeddings, because
  embedding 100,000 real passages takes hours on two cores; the rows measure query cost and
  index size at that scale, not quality.

CPU time is ``time.process_time`` (every thread of this process), so a shared machine's
waiting is left out; the wall-clock ingest time is printed beside it with the load average.
Targets (issue #16): hybrid nDCG@10 >= 0.73 with query CPU p50 < 5 ms; document hit@3 >=
0.95; SciFact ingest with embeddings < 3 min.

``--peers`` prints a second table (issue #17): citeline's lexical search against bm25s and
tantivy with their own default English analysis (``peers.py``), on the same text, queries
timed interleaved in one process, as ratios; on SciFact and on ``--peer-passages`` synthetic
collections (default 10,000 and 100,000).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from scale_corpus import synthetic_collection  # beside this script, first on sys.path

from citeline.corpus import Corpus
from citeline.corpus.ingest import content_hash
from citeline.corpus.judged_queries import load_beir_queries, ndcg_at, rank_documents, recall_at
from citeline.corpus.minilm import DIMENSION, MODEL_ID
from citeline.corpus.retrieval import Retrieval
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.evaluation.percentiles import percentile
from citeline.text.vector_bytes import passage_bytes

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FOLDER = ROOT.parent / "shared" / "data" / "beir-scifact"
DEFAULT_QUESTIONS = ROOT / "benchmarks" / "questions" / "python-docs.jsonl"
SAMPLE = ROOT / "src" / "citeline" / "sample" / "python-docs"
# Deep enough for recall@100; nDCG@10 reads the first ten of the same ranking.
RANK_DEPTH = 100
# Queries timed at the synthetic scale: enough for a stable p50 and p95.
SYNTHETIC_QUERIES = 200
SEED = 20261130
MODES = (Retrieval.LEXICAL, Retrieval.DENSE, Retrieval.HYBRID)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_FOLDER, help="BEIR folder")
    parser.add_argument("--split", default="train", help="qrels split (default: train)")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--passages", type=int, default=100_000, help="synthetic scale")
    parser.add_argument("--work", type=Path, help="folder for the indexes (default: temporary)")
    parser.add_argument("--peers", action="store_true", help="only the table against peers")
    parser.add_argument(
        "--peer-passages",
        type=lambda text: [int(n) for n in text.split(",") if n],
        default=[10_000, 100_000],
        help="synthetic sizes for --peers, comma-separated (default: 10000,100000)",
    )
    args = parser.parse_args()
    if args.peers:
        from peers import compare_peers

        with tempfile.TemporaryDirectory() as scratch:
            work = args.work or Path(scratch)
            compare_peers(args.data, args.split, work, args.peer_passages, _load())
        return

    table = Table(title=f"Retrieval: lexical, dense and hybrid (load {_load()})")
    for column in ("collection", "mode", "quality", "CPU p50 ms", "CPU p95 ms", "ingest", "size"):
        table.add_column(column, justify="left" if column in {"collection", "mode"} else "right")
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        _scifact(table, args.data, args.split, work)
        if args.questions.is_file():
            _questions(table, args.questions, work / "python-docs.sqlite")
        if args.passages:
            _synthetic(table, args.passages, work / "synthetic.sqlite")
    Console(width=170).print(table)


def _scifact(table: Table, folder: Path, split: str, work: Path) -> None:
    queries = load_beir_queries(folder, split)
    lexical_db, hybrid_db = work / "scifact-lexical.sqlite", work / "scifact.sqlite"
    with Corpus.open(lexical_db) as corpus:
        lexical_ingest = _timed(lambda: corpus.ingest(folder / "corpus.jsonl", retrieval="lexical"))
        documents = len(corpus)
    # With --work, an index left by an earlier run is brought up to date, not rebuilt: the
    # ingest column then shows what was left to do, often nothing.
    with Corpus.open(hybrid_db, retrieval="lexical") as corpus:
        hybrid_ingest = _timed(lambda: corpus.ingest(folder / "corpus.jsonl", retrieval="hybrid"))
    for mode in MODES:
        db = lexical_db if mode is Retrieval.LEXICAL else hybrid_db
        with Corpus.open(db, retrieval=mode) as corpus:
            rankings = [rank_documents(corpus, q.text, RANK_DEPTH) for q in queries]
            pairs = list(zip(rankings, queries, strict=True))
            # nDCG@10 from a search as deep as a user's (k 20): fusion scales each ranking
            # over its own candidates, so a 200-deep search orders its top ten differently.
            tops = [rank_documents(corpus, q.text, 10) for q in queries]
            ndcg = statistics.fmean(
                ndcg_at(r, q.relevant, 10) for r, q in zip(tops, queries, strict=True)
            )
            recall = statistics.fmean(recall_at(r, q.relevant, 100) for r, q in pairs)
        p50, p95 = _query_cpu(db, mode, [q.text for q in queries])
        table.add_row(
            f"SciFact {split} ({len(queries)} queries, {documents:,} docs)",
            mode.value,
            f"nDCG@10 {ndcg:.4f}, recall@100 {recall:.4f}",
            f"{p50:.2f}",
            f"{p95:.2f}",
            _shown(lexical_ingest if mode is Retrieval.LEXICAL else hybrid_ingest),
            _mb(_size(db)),
        )


def _questions(table: Table, path: Path, db: Path) -> None:
    questions = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    with Corpus.open(db, retrieval="lexical") as corpus:
        ingest = _timed(lambda: corpus.ingest(SAMPLE, retrieval="hybrid"))
    for mode in MODES:
        with Corpus.open(db, retrieval=mode) as corpus:
            hits = 0
            for question in questions:
                first = rank_documents(corpus, question["question"], 3)
                hits += bool(set(first) & set(question["gold_ids"]))
        p50, p95 = _query_cpu(db, mode, [q["question"] for q in questions])
        table.add_row(
            f"Python sample ({len(questions)} dev questions)",
            mode.value,
            f"document hit@3 {hits / len(questions):.3f}",
            f"{p50:.2f}",
            f"{p95:.2f}",
            _shown(ingest) if mode is not Retrieval.LEXICAL else "",
            _mb(_size(db)),
        )


def _synthetic(table: Table, total: int, db: Path) -> None:
    documents, queries = synthetic_collection(total)
    store = SQLiteStore(db)
    started = time.process_time()
    passages = 0
    for document, split in documents:
        store.put(document, split, content_hash(document), "synthetic")
        passages += len(split)
    lexical_seconds = time.process_time() - started
    lexical_size = _size(db)
    # Random unit vectors stand in for the model's: search cost depends on the count and
    # the dimension, not on what the vectors mean.
    rng = np.random.default_rng(SEED)
    store.set_setting("embedding_model", MODEL_ID)
    while batch := store.unembedded(5000):
        vectors = rng.standard_normal((len(batch), DIMENSION)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.put_vectors([(p, passage_bytes(v)) for (p, _), v in zip(batch, vectors, strict=True)])
    store.set_setting("retrieval", Retrieval.HYBRID.value)
    store.close()
    for mode in MODES:
        p50, p95 = _query_cpu(db, mode, queries[:SYNTHETIC_QUERIES])
        table.add_row(
            f"synthetic ({passages:,} passages, random vectors)",
            mode.value,
            "",
            f"{p50:.2f}",
            f"{p95:.2f}",
            f"{lexical_seconds:.0f} s CPU" if mode is Retrieval.LEXICAL else "",
            _mb(lexical_size if mode is Retrieval.LEXICAL else _size(db)),
        )


def _query_cpu(db: Path, mode: Retrieval, queries: Sequence[str]) -> tuple[float, float]:
    """CPU time per search, each distinct query once, in a freshly opened corpus: the
    retriever remembers query vectors, and a remembered one would not be embedded again."""
    cpu: list[float] = []
    with Corpus.open(db, retrieval=mode) as corpus:
        corpus.search("a first search loads the model and the vectors", k=10)
        for query in dict.fromkeys(queries):
            started = time.process_time()
            corpus.search(query, k=10)
            cpu.append((time.process_time() - started) * 1000)
    p50, p95 = percentile(cpu, 50), percentile(cpu, 95)
    assert p50 is not None and p95 is not None, "no queries were timed"
    return p50, p95


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    started, started_cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - started, time.process_time() - started_cpu


def _shown(seconds: tuple[float, float]) -> str:
    return f"{seconds[0]:.0f} s wall, {seconds[1]:.0f} s CPU"


def _size(db: Path) -> int:
    """The index's bytes on disk, its write-ahead log included (not yet checkpointed)."""
    wal = db.with_name(db.name + "-wal")
    return db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _mb(size: int) -> str:
    return f"{size / 1e6:.0f} MB"


def _load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
