"""citeline's lexical search against bm25s and tantivy with their own defaults, side by side.

Run: ``.venv/bin/python benchmarks/retrieval.py --peers [--peer-passages 10000,100000]``.
Each system indexes the same text (SciFact: each abstract's title and text; synthetic: the
passages of ``scale_corpus.synthetic_collection`` as one JSONL file) with its own analysis:

- citeline: ``citeline ingest`` of the file (its analyzer, its store and its search index);
  a query is ``Corpus.search(query, k=10)``: the query analysed by citeline's analyzer,
  BM25 top-k in tantivy, a look-up of titles the query names, and the ten hits' document
  id, title, url, text and offsets read from SQLite as ``Hit`` objects. "ranking only" is
  the same without the read: passage ids and scores, like for like with the peers.
- bm25s: ``bm25s.tokenize`` with its English stop words and PyStemmer's English stemmer (the
  setup its README recommends), numpy backend; a query is tokenized and retrieved, ids out.
- tantivy: one text field with tantivy's ``en_stem`` analyzer; a query is parsed by its
  query parser (lenient) and the ten best documents' ids are read back from its store.

Queries are timed in one process, interleaved (each query asks every system in turn, in a
new random order per query, seeded), as CPU time (``time.process_time``, every thread); the
ratio column is citeline's p50 over the system's. Index CPU covers analysis, indexing and
the commit; citeline's also reads the JSONL file, hashes, splits and stores every document
in SQLite, where the peers index texts already in memory.
It deliberately measures lexical search only: dense and hybrid are ``retrieval.py``'s.
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s  # type: ignore[import-untyped]
import Stemmer
import tantivy
from rich.console import Console
from rich.table import Table
from scale_corpus import synthetic_collection

from citeline.corpus import Corpus
from citeline.corpus.judged_queries import load_beir_queries, ndcg_at, rank_documents
from citeline.evaluation.percentiles import percentile

K = 10
SEED = 20261130


@dataclass
class System:
    """One search system under test: its name, its index CPU, how it ranks documents for
    nDCG, and what is timed (``timed``, default ``search``)."""

    name: str
    index_cpu: float
    search: Callable[[str, int], list[str]]
    timed: Callable[[str, int], object] | None = None
    # False for a second view of a system already scored: the same ranking, timed apart.
    scored: bool = True


def compare_peers(folder: Path, split: str, work: Path, sizes: Sequence[int], load: str) -> None:
    table = Table(title=f"Lexical search: citeline against peers, interleaved (load {load})")
    for column in (
        "collection",
        "system",
        "nDCG@10",
        "CPU p50 ms",
        "CPU p95 ms",
        "citeline / system",
        "index CPU s",
        "citeline / system ",
    ):
        table.add_column(column, justify="left" if column in {"collection", "system"} else "right")
    records = [json.loads(line) for line in (folder / "corpus.jsonl").open(encoding="utf-8")]
    queries = load_beir_queries(folder, split)
    systems = _systems(work / "scifact", folder / "corpus.jsonl", records)
    _rows(
        table,
        f"SciFact {split} ({len(queries)} queries, {len(records):,} docs)",
        systems,
        [q.text for q in queries],
        {q.text: q.relevant for q in queries},
    )
    for size in sizes:
        documents, synthetic_queries = synthetic_collection(size)
        place = work / f"synthetic-{size}"
        place.mkdir(parents=True, exist_ok=True)
        export = place / "passages.jsonl"
        synthetic: list[dict[str, str]] = []
        with export.open("w", encoding="utf-8") as handle:
            for document, passages in documents:
                for number, passage in enumerate(passages):
                    record = {"_id": f"{document.id}-{number}", "title": "", "text": passage.text}
                    synthetic.append(record)
                    handle.write(json.dumps(record) + "\n")
        _rows(
            table,
            f"synthetic ({len(synthetic):,} passages)",
            _systems(place, export, synthetic),
            synthetic_queries,
            None,
        )
    Console(width=170).print(table)


def _rows(
    table: Table,
    collection: str,
    systems: list[System],
    queries: list[str],
    judged: Mapping[str, Mapping[str, int]] | None,
) -> None:
    distinct = list(dict.fromkeys(queries))
    cpu: dict[str, list[float]] = {system.name: [] for system in systems}
    # A new random order for every query (seeded: every run the same), so that each system
    # follows each other one as often. Rotating the order put each system after the same
    # neighbour three queries in four (tantivy after bm25s, citeline's search after
    # tantivy), and what a system pays depends on what ran before it (the caches it
    # emptied, the garbage it left to collect): measured on 10,000 passages, citeline's
    # search p50 was 0.28 ms rotated and 0.17 ms in random order, tantivy's 0.14 and 0.10.
    order = random.Random(SEED)
    for query in distinct:
        for system in order.sample(systems, len(systems)):
            work = system.timed or system.search
            started = time.process_time()
            work(query, K)
            cpu[system.name].append((time.process_time() - started) * 1000)
    citeline = systems[0]
    citeline_p50 = percentile(cpu[citeline.name], 50) or 0.0
    for system in systems:
        p50 = percentile(cpu[system.name], 50) or 0.0
        p95 = percentile(cpu[system.name], 95) or 0.0
        quality = ""
        if judged is not None and system.scored:
            ndcg = statistics.fmean(
                ndcg_at(system.search(q, K), relevant, K) for q, relevant in judged.items()
            )
            quality = f"{ndcg:.4f}"
        table.add_row(
            collection,
            system.name,
            quality,
            f"{p50:.3f}",
            f"{p95:.3f}",
            f"{citeline_p50 / p50:.2f}x" if p50 else "",
            f"{system.index_cpu:.2f}",
            f"{citeline.index_cpu / system.index_cpu:.2f}x" if system.index_cpu else "",
        )


def _systems(place: Path, export: Path, records: list[dict[str, str]]) -> list[System]:
    place.mkdir(parents=True, exist_ok=True)
    texts = [f"{r.get('title', '')} {r['text']}".strip() for r in records]
    ids = [str(r["_id"]) for r in records]
    return [*_citeline(place, export), _bm25s(texts, ids), _tantivy(place, texts, ids)]


def _citeline(place: Path, export: Path) -> list[System]:
    db = place / "citeline.sqlite"
    for leftover in place.glob("citeline.sqlite*"):
        if leftover.is_dir():
            shutil.rmtree(leftover)
        else:
            leftover.unlink()
    corpus = Corpus.open(db, retrieval="lexical")
    started = time.process_time()
    corpus.ingest(export, retrieval="lexical")
    index_cpu = time.process_time() - started

    def search(query: str, k: int) -> list[str]:
        return rank_documents(corpus, query, k)

    return [
        # What a caller gets: ten hits, each with its passage's text read from the store.
        System("citeline search (hits with text)", index_cpu, search, corpus.search),
        # The ranking alone (passage ids, no text), like for like with the peers' ids.
        System("citeline ranking only (ids)", 0.0, search, corpus._index.lexical, False),
    ]


def _bm25s(texts: list[str], ids: list[str]) -> System:
    stemmer = Stemmer.Stemmer("english")
    started = time.process_time()
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    index_cpu = time.process_time() - started

    def search(query: str, k: int) -> list[str]:
        asked = bm25s.tokenize(
            query, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )
        if not asked or not asked[0]:
            return []
        found, _ = retriever.retrieve(asked, k=min(k, len(ids)), show_progress=False)
        return [ids[int(i)] for i in found[0]]

    return System("bm25s (en stop words, Snowball)", index_cpu, search)


def _tantivy(place: Path, texts: list[str], ids: list[str]) -> System:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("body", tokenizer_name="en_stem")
    schema = builder.build()
    folder = place / "tantivy-default"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    started = time.process_time()
    index = tantivy.Index(schema, str(folder))
    writer = index.writer(heap_size=100_000_000, num_threads=1)
    for doc_id, text in zip(ids, texts, strict=True):
        writer.add_document(tantivy.Document(id=doc_id, body=text))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    index_cpu = time.process_time() - started
    searcher = index.searcher()

    def search(query: str, k: int) -> list[str]:
        # The stubs of tantivy 0.22 say one Query; it returns (query, errors).
        parsed: Any = index.parse_query_lenient(query, ["body"])
        hits = searcher.search(parsed[0], k, count=False).hits
        return [searcher.doc(address).to_dict()["id"][0] for _, address in hits]

    return System("tantivy (en_stem)", index_cpu, search)
