"""Retrieval quality and speed on a BEIR-layout folder (default: SciFact, train split).

Run: ``.venv/bin/python benchmarks/retrieval.py`` (``--help`` for the folder, split and
database). Ingests ``corpus.jsonl`` into a fresh index, then asks every judged query of the
split and prints nDCG@10, recall@100, query latency p50/p95 (``search(query, k=10)``, the
API default) and ingest throughput, as one table. Targets on SciFact train (809 queries):
nDCG@10 >= 0.665 for the default BM25 index and >= 0.70 for the best shipped configuration,
p50 < 10 ms, ingest < 60 s. The test split is held back; never tune on it.

``--dense`` adds two rows that measure whether dense retrieval pays: the only static
(model2vec-format) embedding model found shipped inside a PyPI package,
``tokenlearn-static-model`` (10k-token, 64-dimension int8 vectors, no torch), alone and fused
with BM25 by reciprocal rank fusion. It is not a citeline dependency: install it to run them.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from citeline.corpus import Corpus
from citeline.corpus.evaluation import (
    JudgedQuery,
    load_beir_queries,
    ndcg_at,
    rank_documents,
    recall_at,
)
from citeline.evaluation.percentiles import percentile

DEFAULT_FOLDER = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "beir-scifact"
# Deep enough for recall@100; nDCG@10 reads the first ten of the same ranking.
RANK_DEPTH = 100
# Reciprocal rank fusion's constant, as Cormack et al. (2009) set it.
RRF_K = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_FOLDER, help="BEIR folder")
    parser.add_argument("--split", default="train", help="qrels split (default: train)")
    # A string, not a Path: a Path would fold the "//" of a postgresql:// URL into "/".
    parser.add_argument(
        "--db", help="index file or database URL (default: a temporary SQLite file)"
    )
    parser.add_argument("--dense", action="store_true", help="add the dense and hybrid rows")
    args = parser.parse_args()

    queries = load_beir_queries(args.data, args.split)
    with tempfile.TemporaryDirectory() as scratch:
        db: str | Path = args.db or Path(scratch) / "retrieval.sqlite"
        with Corpus.open(db) as corpus:
            started = time.perf_counter()
            report = corpus.ingest(args.data / "corpus.jsonl")
            ingest_seconds = time.perf_counter() - started
            documents = len(corpus)

            bm25 = [rank_documents(corpus, query.text, RANK_DEPTH) for query in queries]
            dense = _dense_rankings(corpus, queries) if args.dense else None

            corpus.search(queries[0].text)  # warm the page cache before timing
            latencies: list[float] = []
            # CPU time of this thread too: on a shared machine wall time includes waiting
            # for a core, and the CPU column shows what a query itself costs.
            cpu: list[float] = []
            for query in queries:
                started, started_cpu = time.perf_counter(), time.thread_time()
                corpus.search(query.text, k=10)
                cpu.append((time.thread_time() - started_cpu) * 1000)
                latencies.append((time.perf_counter() - started) * 1000)

    table = Table(title=f"Retrieval on {args.data.name}, {args.split} split")
    for column in (
        "configuration",
        "queries",
        "nDCG@10",
        "recall@100",
        "p50 ms",
        "p95 ms",
        "p50 CPU ms",
    ):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    table.add_column("ingest", justify="right")
    table.add_row(
        "BM25 (FTS5, Snowball, title x2): default, shipped",
        str(len(queries)),
        *_quality(bm25, queries),
        f"{percentile(latencies, 50):.2f}",
        f"{percentile(latencies, 95):.2f}",
        f"{percentile(cpu, 50):.2f}",
        f"{documents} docs in {ingest_seconds:.1f} s ({documents / ingest_seconds:,.0f}/s)",
    )
    if dense is not None:
        fused = [_fuse(lexical, semantic) for lexical, semantic in zip(bm25, dense, strict=True)]
        for name, rankings in (("dense (tokenlearn-static-model)", dense), ("hybrid RRF", fused)):
            table.add_row(name, str(len(queries)), *_quality(rankings, queries), "", "", "", "")
    console = Console(width=160)
    console.print(table)
    if not report.ok:
        console.print(f"ingest skipped {len(report.skipped)} records: {report.skipped[0]}")


def _quality(rankings: list[list[str]], queries: list[JudgedQuery]) -> tuple[str, str]:
    pairs = list(zip(rankings, queries, strict=True))
    ndcg = statistics.fmean(ndcg_at(ranked, q.relevant, 10) for ranked, q in pairs)
    recall = statistics.fmean(recall_at(ranked, q.relevant, 100) for ranked, q in pairs)
    return f"{ndcg:.4f}", f"{recall:.4f}"


def _fuse(*rankings: list[str]) -> list[str]:
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc_id in enumerate(ranking):
            scores[doc_id] = scores.get(doc_id, 0.0) + 1 / (RRF_K + rank)
    return sorted(scores, key=lambda doc_id: -scores[doc_id])[:RANK_DEPTH]


def _dense_rankings(corpus: Corpus, queries: list[JudgedQuery]) -> list[list[str]]:
    import numpy as np

    try:
        from static_model import get_embeddings  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit("--dense needs `pip install tokenlearn-static-model`.") from None

    def embed(texts: list[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        vectors = np.asarray(get_embeddings(texts), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        normalised: np.ndarray[Any, np.dtype[np.float32]] = vectors / np.maximum(norms, 1e-9)
        return normalised

    documents = list(corpus.documents())
    matrix = embed([f"{d.title} {d.text}" for d in documents])
    similarities = embed([q.text for q in queries]) @ matrix.T
    top = np.argsort(-similarities, axis=1)[:, :RANK_DEPTH]
    return [[documents[i].id for i in row] for row in top]


if __name__ == "__main__":
    main()
