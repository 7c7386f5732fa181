"""Measuring retrieval on a BEIR-layout folder: queries, relevance judgements, nDCG, recall.

A BEIR folder holds ``corpus.jsonl``, ``queries.jsonl`` (``_id``, ``text``) and
``qrels/<split>.tsv`` (``query-id``, ``corpus-id``, ``score`` with a header line). Passage
hits are turned into a document ranking by each document's best passage, which is how a
reader meets them. It deliberately does not time anything or print: the benchmark does.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from citeline.corpus.corpus import Corpus
from citeline.corpus.errors import JudgedQueriesError, JudgedQueriesMissingError


@dataclass(frozen=True, slots=True)
class JudgedQuery:
    """One query with its graded relevance judgements (document id to grade > 0)."""

    id: str
    text: str
    relevant: Mapping[str, int]


def load_beir_queries(folder: Path, split: str) -> list[JudgedQuery]:
    """The queries of ``split`` that have at least one relevant document, in qrels order.

    Raises ``JudgedQueriesError`` when the folder's files are missing or not in BEIR's
    layout, with a sentence that names the file.
    """
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        raise JudgedQueriesMissingError(
            f"{qrels_path} is missing; name a split that this folder has."
        )
    try:
        return _read_judged_queries(folder, qrels_path)
    except (OSError, ValueError, KeyError) as error:
        raise JudgedQueriesError(
            f"{folder} cannot be read as a BEIR folder ({type(error).__name__}: {error}); "
            "check --beir: it needs queries.jsonl and qrels/<split>.tsv."
        ) from None


def _read_judged_queries(folder: Path, qrels_path: Path) -> list[JudgedQuery]:
    judgements: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle, delimiter="\t")
        next(rows, None)
        for row in rows:
            if len(row) >= 3 and int(row[2]) > 0:
                judgements.setdefault(row[0].strip(), {})[row[1].strip()] = int(row[2])
    texts: dict[str, str] = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                texts[str(record["_id"])] = record["text"]
    return [JudgedQuery(q, texts[q], judgements[q]) for q in judgements if q in texts]


def rank_documents(corpus: Corpus, query: str, depth: int) -> list[str]:
    """Up to ``depth`` document ids, each placed at its best passage's rank."""
    # Asking for twice the depth in passages leaves room for documents with several
    # matching passages; SciFact abstracts are one passage each, so it rarely matters.
    ranked: dict[str, None] = {}
    for hit in corpus.search(query, k=2 * depth):
        ranked.setdefault(hit.doc_id, None)
        if len(ranked) == depth:
            break
    return list(ranked)


def ndcg_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Normalised discounted cumulative gain of the first ``k`` ids (linear gains, as BEIR)."""
    gain = sum(relevant.get(doc, 0) / math.log2(rank + 2) for rank, doc in enumerate(ranked[:k]))
    ideal_grades = sorted(relevant.values(), reverse=True)[:k]
    ideal = sum(grade / math.log2(rank + 2) for rank, grade in enumerate(ideal_grades))
    return gain / ideal if ideal else 0.0


def recall_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """The fraction of relevant documents among the first ``k`` ids."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & relevant.keys()) / len(relevant)
