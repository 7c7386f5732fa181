"""Retrieval metrics agree with hand-computed values and BEIR's folder layout is read right."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from citeline.corpus import Corpus
from citeline.corpus.judged_queries import load_beir_queries, ndcg_at, rank_documents, recall_at


def test_ndcg_is_one_for_a_perfect_ranking_and_discounts_a_late_hit() -> None:
    assert ndcg_at(["a", "b", "x"], {"a": 1, "b": 1}, 10) == 1.0
    assert ndcg_at(["x", "a", "b"], {"a": 1, "b": 1}, 2) == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    )
    assert ndcg_at(["x", "y", "a"], {"a": 1, "b": 1}, 2) == 0.0


def test_recall_counts_relevant_documents_within_the_cut() -> None:
    assert recall_at(["a", "x", "b"], {"a": 1, "b": 1}, 2) == 0.5
    assert recall_at(["a", "x", "b"], {"a": 1, "b": 1}, 3) == 1.0


def test_beir_queries_come_with_their_judgements(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "train.tsv").write_text(
        "query-id\tcorpus-id\tscore\r\n1\td1\t1\r\n1\td2\t1\r\n3\td9\t0\r\n", "utf-8"
    )
    (tmp_path / "queries.jsonl").write_text(
        '{"_id": "1", "text": "first"}\n{"_id": "2", "text": "unjudged"}\n', "utf-8"
    )
    [query] = load_beir_queries(tmp_path, "train")
    assert (query.id, query.text, dict(query.relevant)) == ("1", "first", {"d1": 1, "d2": 1})
    with pytest.raises(FileNotFoundError, match=r"test\.tsv is missing"):
        load_beir_queries(tmp_path, "test")


def test_documents_are_ranked_once_each_by_their_best_passage(tmp_path: Path) -> None:
    text = " ".join(f"Kinase sentence number {n} is here." for n in range(300))
    (tmp_path / "long.txt").write_text(text, "utf-8")
    (tmp_path / "short.txt").write_text("A kinase.", "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(tmp_path)
        assert sorted(rank_documents(corpus, "kinase", depth=10)) == ["long", "short"]
