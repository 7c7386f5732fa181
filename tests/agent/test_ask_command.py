"""``citeline ask`` over a real SciFact index: the acceptance of the agent, from the command line.

The index holds the documents that the first train-split claims cite, among a few
hundred others from the same corpus, so retrieval has to find them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus

SCIFACT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "beir-scifact"
DISTRACTORS = 300
CLAIMS = 3

pytestmark = pytest.mark.skipif(
    not (SCIFACT / "corpus.jsonl").exists(), reason="the shared SciFact data is not beside the repo"
)


def _train_claims_with_evidence(count: int) -> list[dict[str, Any]]:
    train = {
        line.split("\t")[0]
        for line in (SCIFACT / "qrels" / "train.tsv").read_text(encoding="utf-8").splitlines()[1:]
    }
    claims = []
    with (SCIFACT / "queries.jsonl").open(encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            if row["_id"] in train and row["metadata"]:
                claims.append(row)
            if len(claims) == count:
                break
    return claims


@pytest.fixture(scope="module")
def scifact(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    claims = _train_claims_with_evidence(CLAIMS)
    wanted = {doc_id for claim in claims for doc_id in claim["metadata"]}
    folder = tmp_path_factory.mktemp("scifact")
    subset = folder / "corpus.jsonl"
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as rows, subset.open("w") as out:
        for n, line in enumerate(rows):
            if n < DISTRACTORS or json.loads(line)["_id"] in wanted:
                out.write(line)
    db = folder / "index.db"
    Corpus.open(db).ingest(subset)
    return db, claims


def test_ask_answers_a_train_claim_citing_documents_the_tools_returned(
    scifact: tuple[Path, list[dict[str, Any]]],
) -> None:
    db, claims = scifact
    claim = claims[0]["text"]
    run = subprocess.run(
        [sys.executable, "-m", "citeline", "ask", claim, "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    events = [json.loads(line) for line in run.stdout.splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "done"
    assert events[-1]["state"] == "answered" and events[-1]["provenance"] == "sourced"
    tokens = [e["text"] for e in events if e["event"] == "token"]
    for markup in ("<a", "](", "## Sources"):
        assert not any(markup in text for text in tokens)
    citations = [e for e in events if e["event"] == "citation"]
    assert citations
    returned = {hit.doc_id for hit in Corpus.open(db).search(claim, 8)}
    for citation in citations:
        assert "url" not in citation
        assert citation["id"] in returned


def test_ask_prints_the_answer_then_numbered_references(
    scifact: tuple[Path, list[dict[str, Any]]],
) -> None:
    db, claims = scifact
    result = CliRunner().invoke(app, ["ask", claims[1]["text"], "--db", str(db)])
    assert result.exit_code == 0, result.output
    answer_text, _, references = result.output.partition("References")
    assert answer_text.strip() and "](" not in answer_text and "## Sources" not in answer_text
    assert "[1] " in references
    assert "answered in" in references and "provenance: sourced" in references


def test_ask_without_an_index_says_how_to_build_one(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(app, ["ask", "anything", "--db", str(missing)])
    assert result.exit_code == 2
    assert "citeline ingest" in result.output


def test_ask_with_a_bad_model_setting_says_what_to_use(
    scifact: tuple[Path, list[dict[str, Any]]],
) -> None:
    db, _ = scifact
    result = CliRunner().invoke(app, ["ask", "anything", "--db", str(db), "--model", "gpt-4o"])
    assert result.exit_code == 2
    assert "embedded" in result.output
