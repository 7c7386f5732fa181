"""How query time and index size grow with the collection, up to 1,000,000 passages.

Run: ``.venv/bin/python benchmarks/scale_corpus.py`` (``--passages N`` for another size,
``--db FILE`` to keep the index). Generates synthetic documents at run time (nothing is
committed): words drawn from a Zipf distribution over a made-up vocabulary, as word
frequencies are in real text, ten passages of about 60 words per document. The index is
built through the SQLite store's own ``put`` (the code path ingest uses, one transaction per
document); at each checkpoint (10 thousand, 100 thousand, then every tenfold step up to
the target) it times the same queries, eight words each with the word mix of real ones,
and prints query p50/p95 (wall and CPU), index size and build rate as one table.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from citeline.corpus.documents import Document, Passage
from citeline.corpus.ingest import INGEST_BATCH, content_hash
from citeline.corpus.search_index import SearchIndex
from citeline.corpus.stores.base import DocumentVersion
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.evaluation.percentiles import percentile

SEED = 20261130
VOCABULARY = 100_000
# English word frequencies follow Zipf's law with an exponent near 1.
ZIPF_EXPONENT = 1.0
WORDS_PER_PASSAGE = 60
PASSAGES_PER_DOCUMENT = 10
QUERIES = 200
QUERY_WORDS = 8
FIRST_CHECKPOINT = 10_000


def make_vocabulary(rng: np.random.Generator) -> list[str]:
    syllables = np.array([c + v for c in "bcdfghjklmnprstvz" for v in "aeiou"])
    words: set[str] = set()
    while len(words) < VOCABULARY:
        length = int(rng.integers(2, 5))
        words.update("".join(w) for w in rng.choice(syllables, size=(VOCABULARY, length)))
    return sorted(words)[:VOCABULARY]


def synthetic_collection(total: int) -> tuple[Iterator[tuple[Document, list[Passage]]], list[str]]:
    """Up to ``total`` passages of synthetic documents, made as they are consumed, and the
    queries to time against them; the same seed gives the same collection every time."""
    rng = np.random.default_rng(SEED)
    vocabulary = make_vocabulary(rng)
    rng.shuffle(vocabulary)  # so that frequency does not follow alphabetical order
    cumulative = np.cumsum(1 / np.arange(1, VOCABULARY + 1) ** ZIPF_EXPONENT)
    cumulative /= cumulative[-1]

    def draw(count: int) -> list[str]:
        return [vocabulary[i] for i in np.searchsorted(cumulative, rng.random(count))]

    # Real queries mix a few common words with rarer, telling ones: half from the top
    # thousand words, half from ranks 1,000 to 20,000.
    queries = [
        " ".join(
            [vocabulary[i] for i in rng.integers(0, 1_000, QUERY_WORDS // 2)]
            + [vocabulary[i] for i in rng.integers(1_000, 20_000, QUERY_WORDS // 2)]
        )
        for _ in range(QUERIES)
    ]

    def documents() -> Iterator[tuple[Document, list[Passage]]]:
        written = 0
        while written < total:
            count = min(PASSAGES_PER_DOCUMENT, total - written)
            passages, parts, position = [], [], 0
            words = draw(count * WORDS_PER_PASSAGE)
            for n in range(count):
                text = " ".join(words[n * WORDS_PER_PASSAGE : (n + 1) * WORDS_PER_PASSAGE]) + "."
                passages.append(Passage(position, position + len(text), text))
                parts.append(text)
                position += len(text) + 2
            document = Document(
                id=f"synthetic-{written}", title=" ".join(draw(6)), text="\n\n".join(parts)
            )
            yield document, passages
            written += count

    return documents(), queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, help="index file (default: a temporary one)")
    args = parser.parse_args()

    documents, queries = synthetic_collection(args.passages)
    checkpoints = []
    size = FIRST_CHECKPOINT
    while size < args.passages:
        checkpoints.append(size)
        size *= 10
    checkpoints.append(args.passages)

    table = Table(title=f"Synthetic corpus, {WORDS_PER_PASSAGE}-word passages, {QUERIES} queries")
    for column in ("passages", "index MB", "build passages/s", "p50 ms", "p95 ms", "p50 CPU ms"):
        table.add_column(column, justify="right")
    console = Console(width=120)

    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or Path(scratch) / "scale.sqlite"
        store = SQLiteStore(db)
        index = SearchIndex(db.with_name(db.name + ".search-index"), store)
        written = 0
        build_seconds = 0.0
        for checkpoint in checkpoints:
            started = time.perf_counter()
            batch: list[DocumentVersion] = []
            while written < checkpoint:
                document, passages = next(documents)
                batch.append(DocumentVersion(document, passages, content_hash(document), "x"))
                written += len(passages)
                if len(batch) == INGEST_BATCH:
                    store.put_many(batch)
                    batch.clear()
            store.put_many(batch)
            index.follow()
            build_seconds += time.perf_counter() - started
            store.hits(index.lexical(queries[0], 10))
            wall, cpu = [], []
            for query in queries:
                started, started_cpu = time.perf_counter(), time.thread_time()
                store.hits(index.lexical(query, 10))
                cpu.append((time.thread_time() - started_cpu) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
            # The store's file (and its WAL) and the search index's folder beside it.
            files = [p for p in db.parent.glob(db.name + "*") if p.is_file()]
            files += [p for p in db.parent.glob(db.name + ".search-index/*") if p.is_file()]
            size_mb = sum(p.stat().st_size for p in files) / 1e6
            table.add_row(
                f"{written:,}",
                f"{size_mb:,.0f}",
                f"{written / build_seconds:,.0f}",
                f"{percentile(wall, 50):.1f}",
                f"{percentile(wall, 95):.1f}",
                f"{percentile(cpu, 50):.1f}",
            )
            console.print(f"{written:,} passages indexed; p50 {percentile(wall, 50):.1f} ms")
        store.close()
    console.print(table)


if __name__ == "__main__":
    main()
