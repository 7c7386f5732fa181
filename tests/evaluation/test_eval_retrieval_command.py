"""``citeline eval retrieval``: the index judged on a BEIR-layout folder, from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus

DOCUMENTS = [
    {"_id": "d1", "title": "Apoptosis", "text": "Caspases cleave proteins during apoptosis."},
    {"_id": "d2", "title": "Autophagy", "text": "Starvation induces autophagy through mTOR."},
    {"_id": "d3", "title": "Glycolysis", "text": "Hexokinase phosphorylates glucose first."},
]


def _beir_folder(root: Path, qrels: str) -> Path:
    folder = root / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in DOCUMENTS))
    queries = [
        {"_id": "q1", "text": "which enzymes cleave proteins in apoptosis"},
        {"_id": "q2", "text": "does starvation induce autophagy"},
    ]
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels)
    return folder


def test_queries_whose_relevant_document_ranks_first_score_an_ndcg_of_one(tmp_path: Path) -> None:
    folder = _beir_folder(tmp_path, "q1\td1\t1\nq2\td2\t1\n")
    with Corpus.open(tmp_path / "index.db") as corpus:
        corpus.ingest(folder / "corpus.jsonl")
    result = CliRunner().invoke(
        app,
        ["eval", "retrieval", "--db", str(tmp_path / "index.db"), "--beir", str(folder)],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "2 queries" in result.output
    assert "1.0000" in result.output


def test_a_missing_split_is_an_error_that_names_the_fix(tmp_path: Path) -> None:
    folder = _beir_folder(tmp_path, "q1\td1\t1\n")
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "retrieval",
            "--db",
            str(tmp_path / "i.db"),
            "--beir",
            str(folder),
            "--split",
            "dev",
        ],
    )
    assert result.exit_code == 2
    assert "name a split that this folder has" in result.output
