"""A hybrid search's CPU, and what of it is the question's embedding: the floor beneath it.

Run: ``.venv/bin/python benchmarks/hybrid_query.py --db scifact.sqlite`` over a collection
built hybrid (``citeline ingest ../shared/data/beir-scifact/corpus.jsonl --db
scifact.sqlite``), with SciFact's train claims by default (``--queries FILE`` for another
JSON-lines file of ``{"text": ...}`` or ``{"question": ...}``). Needs the ``dense`` extra.

For each query, in one process (CPU time, ``time.process_time``, and wall time):

- **uncached**: ``Corpus.search(q, k=10)`` the first time the process sees ``q``, its
  embedding included: the issue's line (issue 30: p50 at most 2 ms);
- **embedding alone**: the model on the same text (tokenizing, the int8 graph, pooling), as
  the search calls it: the part of the line that is the model's arithmetic, not citeline's;
- **cached**: the same search again, its vector remembered: what citeline adds to it, by
  stage (the vector index, the lexical index, fusion, reading the hits from the store).

It prints the percentiles (numpy's linear ones) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from citeline.corpus import Corpus
from citeline.corpus.fusion import fuse
from citeline.corpus.retrieval import FUSION_DEPTH

REPO = Path(__file__).resolve().parents[1]
SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact"
TARGET_MS = 2.0
K = 10
STAGES = (
    "  vector index (faiss, 100 deep)",
    "  lexical index (tantivy, 100 deep)",
    "  fusion",
    "  the hits read from the store",
)


def _queries(path: Path, qrels: Path | None) -> list[str]:
    wanted: set[str] | None = None
    if qrels is not None and qrels.exists():
        lines = qrels.read_text(encoding="utf-8").splitlines()[1:]
        wanted = {line.split("\t")[0] for line in lines if line.strip()}
    found: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if wanted is not None and str(row.get("_id")) not in wanted:
            continue
        found.append(str(row.get("text") or row.get("question")))
    return found


def _timed(queries: list[str], run: Callable[[str], object]) -> tuple[list[float], list[float]]:
    cpu: list[float] = []
    wall: list[float] = []
    for query in queries:
        started, clock = time.process_time(), time.perf_counter()
        run(query)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
    return cpu, wall


def _row(name: str, cpu: list[float], wall: list[float] | None = None) -> str:
    p50, p95 = (float(np.percentile(cpu, q)) * 1000 for q in (50, 95))
    walls = f"{float(np.percentile(wall, 50)) * 1000:>10.3f}" if wall else f"{'':>10}"
    return f"{name:<37}{p50:>10.3f}{p95:>10.3f}{walls}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--db", required=True, help="a collection built hybrid")
    parser.add_argument("--queries", type=Path, default=SCIFACT / "queries.jsonl")
    parser.add_argument(
        "--qrels",
        type=Path,
        default=SCIFACT / "qrels" / "train.tsv",
        help="only the queries these judgements name (SciFact's train claims by default)",
    )
    args = parser.parse_args()
    queries = list(dict.fromkeys(_queries(args.queries, args.qrels)))
    load = _load()
    with Corpus.open(args.db, retrieval="hybrid") as corpus:
        corpus.search("a first search loads the model and the indexes", k=K)
        retriever = corpus._retriever
        embedder = retriever._embedder
        assert embedder is not None
        model: Any = embedder
        # Each query searched twice in a row (the second with its vector remembered: the
        # caches keep the last 256 queries), then embedded alone.
        uncached: tuple[list[float], list[float]] = ([], [])
        cached: tuple[list[float], list[float]] = ([], [])
        alone: tuple[list[float], list[float]] = ([], [])
        for query in queries:
            for kept, run in (
                (uncached, lambda q: corpus.search(q, k=K)),
                (cached, lambda q: corpus.search(q, k=K)),
                (alone, lambda q: model._run(model.word_pieces(q))),
            ):
                cpu, wall = _timed([query], run)
                kept[0].extend(cpu)
                kept[1].extend(wall)
        # Stage by stage, each query's stages in turn as a search runs them (a stage timed
        # alone in a loop keeps its data in the cache, and measured half what it costs
        # between the model's runs).
        depth = max(K, FUSION_DEPTH)
        staged: dict[str, list[float]] = {name: [] for name in STAGES}
        for query in queries:
            vector = retriever._embed_query(query)
            clock = time.process_time()
            dense = retriever._vectors.search(vector, depth)
            lexical_clock = time.process_time()
            lexical = retriever._lexical.lexical(query, depth)
            fusion_clock = time.process_time()
            fused = fuse(lexical, dense, K)
            hits_clock = time.process_time()
            corpus._store.hits(fused)
            done = time.process_time()
            marks = (clock, lexical_clock, fusion_clock, hits_clock, done)
            for name, begun, ended in zip(STAGES, marks, marks[1:], strict=False):
                staged[name].append(ended - begun)
    print(f"{len(queries)} queries over {args.db} (load {load}, then {_load()}), ms:")
    print(f"{'':<37}{'CPU p50':>10}{'CPU p95':>10}{'wall p50':>10}")
    print(_row("hybrid search, uncached", *uncached))
    print(_row("the question's embedding alone", *alone))
    print(_row("hybrid search, vector cached", *cached))
    for name, cpu in staged.items():
        print(_row(name, cpu))
    p50 = float(np.percentile(uncached[0], 50)) * 1000
    floor = float(np.percentile(alone[0], 50)) * 1000
    verdict = "met" if p50 <= TARGET_MS else "MISSED"
    print(
        f"uncached p50 {p50:.3f} ms (target <= {TARGET_MS} ms: {verdict}); the embedding "
        f"alone {floor:.3f} ms is {'above' if floor > TARGET_MS else 'within'} the target"
    )


def _load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
