"""``citeline eval citations`` end to end: a real index, the real answer engine, any model.

The embedded model answers offline; a real provider is stood in for by the agent tests'
local server that speaks the OpenAI chat-completions streaming protocol (``openai_server``,
see ``conftest.py``), reached through the same ``--model openai:...`` setting a deployment
uses, so no code path is swapped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus

FIXTURES = Path(__file__).parent / "fixtures"
QUESTIONS = FIXTURES / "tiny-questions.jsonl"


@pytest.fixture
def index(tmp_path: Path) -> Path:
    """A real SQLite index of four small documents in the BEIR JSONL layout."""
    path = tmp_path / "tiny.db"
    with Corpus.open(path) as corpus:
        report = corpus.ingest(FIXTURES / "tiny-corpus.jsonl")
    assert not report.skipped
    return path


def run_eval(*args: str | Path) -> Any:
    return CliRunner().invoke(app, ["eval", "citations", *map(str, args)])


def test_the_embedded_model_cites_the_gold_sources_and_leaks_no_markup(
    index: Path, tmp_path: Path
) -> None:
    out, plot = tmp_path / "report.json", tmp_path / "report.png"
    result = run_eval(
        "--db", index, "--questions", QUESTIONS, "--model", "embedded", "--out", out, "--plot", plot
    )
    assert result.exit_code == 0, result.output
    assert "citation precision" in result.output

    report = json.loads(out.read_text(encoding="utf-8"))
    entries = {entry["id"]: entry for entry in report["questions"]}
    assert report["settings"]["model"] == "embedded"
    assert [entry["state"] for entry in report["questions"]] == ["answered"] * 3
    assert "honey" in entries["honey"]["cited_ids"]
    assert entries["honey"]["recall"] == 1.0
    assert "comets" in entries["comet"]["cited_ids"]
    assert entries["tides-no-gold"]["precision"] is None
    assert all(entry["first_token_seconds"] is not None for entry in report["questions"])
    summary = report["summary"]
    assert summary["judged"] == 2
    assert summary["recall"] == 1.0
    assert summary["leak_rate"] == 0.0
    assert summary["dropped_anchors"] == 0
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_a_provider_over_the_openai_protocol_is_evaluated_by_the_same_command(
    index: Path, tmp_path: Path, openai_server: Any
) -> None:
    def reply(body: dict[str, Any]) -> dict[str, Any]:
        if not any(message["role"] == "tool" for message in body["messages"]):
            return {"calls": [("search", {"query": "honey spoiling"})]}
        return {
            "text": [
                "Honey keeps because its water content is low ([Why honey ",
                "keeps](cite:honey)), as [a made-up source](cite:nowhere) agrees.",
                "\n<citation>\n> Honey keeps for years without spoiling because its ",
                "water content is low.\n</citation>\n",
                "\n## Sources\n- [Why honey keeps](cite:honey)\n",
            ]
        }

    openai_server.responder = reply
    out = tmp_path / "report.json"
    result = run_eval(
        "--db", index, "--questions", QUESTIONS, "--model", "openai:scripted",
        "--limit", "1", "--no-warm-up", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output

    report = json.loads(out.read_text(encoding="utf-8"))
    [entry] = report["questions"]
    assert report["settings"]["model"] == "openai:scripted"
    assert entry["state"] == "answered"
    assert entry["cited_ids"] == ["honey"]
    assert (entry["precision"], entry["recall"]) == (1.0, 1.0)
    assert entry["dropped_anchors"] == 1
    assert (entry["quotes"], entry["verified_quotes"], entry["quotes_in_evidence"]) == (1, 1, 1)
    assert entry["leaks"] == []
    assert "made-up source" in entry["answer"]
    assert report["summary"]["dropped_anchor_rate"] == 1.0
    assert report["summary"]["quote_in_evidence_rate"] == 1.0


def test_a_missing_index_is_named_with_the_command_that_builds_it(tmp_path: Path) -> None:
    result = run_eval("--db", tmp_path / "absent.db", "--questions", QUESTIONS)
    assert result.exit_code == 2
    assert "citeline ingest PATH --db" in result.output


def test_an_unknown_model_is_refused_before_any_question(index: Path) -> None:
    result = run_eval("--db", index, "--questions", QUESTIONS, "--model", "gpt-9")
    assert result.exit_code == 2
    assert "Unknown model 'gpt-9'" in result.output
