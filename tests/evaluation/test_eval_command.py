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
    # Wide enough that the summary table's longest row is printed on one line.
    return CliRunner().invoke(app, ["eval", "citations", *map(str, args)], env={"COLUMNS": "160"})


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


def write_questions(path: Path, *questions: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    return path


def test_a_follow_up_is_asked_in_its_conversation_with_the_earlier_answer(
    index: Path, tmp_path: Path, openai_server: Any
) -> None:
    def reply(body: dict[str, Any]) -> dict[str, Any]:
        last = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
        return {"text": ["Keeps for years." if "honey" in last else "Because it is dry."]}

    openai_server.responder = reply
    questions = write_questions(
        tmp_path / "follow-ups.jsonl",
        {
            "id": "why",
            "history": ["Does honey spoil?"],
            "question": "Why not?",
            "gold_ids": ["honey"],
            "answer_terms": ["dry"],
        },
    )
    out = tmp_path / "report.json"
    result = run_eval(
        "--db", index, "--questions", questions, "--model", "openai:scripted",
        "--no-warm-up", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output

    _opening, follow_up = openai_server.requests()
    sent = [(message["role"], message["content"]) for message in follow_up["messages"]]
    assert ("user", "Does honey spoil?") in sent
    assert ("assistant", "Keeps for years.") in sent
    # The question, then the server's own search for it (issue 27).
    assert [m for m in sent if m[0] == "user"][-1] == ("user", "Why not?")
    assert sent[-1][0] == "tool"
    [entry] = json.loads(out.read_text(encoding="utf-8"))["questions"]
    assert entry["answer"] == "Because it is dry."
    assert entry["has_expected_term"] is True
    assert entry["cites_gold"] is False
    assert entry["conversation"] == [
        {"role": "user", "text": "Does honey spoil?"},
        {"role": "assistant", "text": "Keeps for years."},
    ]
    assert "answers containing an expected term" in result.output
    assert "cites a gold source" in result.output


def test_a_data_question_file_runs_on_the_sample_project_without_an_index(
    tmp_path: Path, openai_server: Any
) -> None:
    openai_server.script = [{"text": ["There are 344 penguins; ", "Gentoo weigh 5,076 g."]}] * 3
    questions = write_questions(
        tmp_path / "penguins.jsonl",
        {"id": "all", "question": "How many penguins?", "figures": ["344"], "expects": "sql"},
        {"id": "mass", "question": "Gentoo mass?", "figures": ["5076", "123"]},
    )
    out = tmp_path / "report.json"
    result = run_eval(
        "--project", "sample", "--questions", questions, "--model", "openai:scripted",
        "--no-warm-up", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output

    report = json.loads(out.read_text(encoding="utf-8"))
    entries = {entry["id"]: entry for entry in report["questions"]}
    assert report["settings"]["project"] == "sample"
    assert report["settings"]["db"] is None
    assert entries["all"]["has_expected_figures"] is True
    assert entries["mass"]["missing_figures"] == ["123"]
    # No tool was called, so no result stands behind the answer: nothing_found, never a
    # measure or a query.
    assert entries["all"]["outcome"] == "nothing_found"
    assert entries["all"]["as_expected"] is False
    assert entries["all"]["wrong_verified"] is False
    summary = report["summary"]
    assert (summary["figures_judged"], summary["expected_figures_rate"]) == (2, 0.5)
    assert (summary["data_questions"], summary["wrong_verified"]) == (2, 0)
    assert "answers with the expected figures" in result.output
    assert "wrong answers labelled verified" in result.output


def test_the_embedded_model_answers_the_penguin_questions_from_the_sample_project(
    tmp_path: Path,
) -> None:
    questions = write_questions(
        tmp_path / "penguins.jsonl",
        {
            "id": "gentoo",
            "question": "What is the average body mass of Gentoo penguins?",
            "figures": ["5076"],
            "expects": "measure",
        },
    )
    out = tmp_path / "report.json"
    result = run_eval("--project", "sample", "--questions", questions, "--out", out)
    assert result.exit_code == 0, result.output
    [entry] = json.loads(out.read_text(encoding="utf-8"))["questions"]
    assert entry["state"] in ("answered", "nothing_found")
    assert entry["outcome"] in ("measure", "sql", "nothing_found", "documents")
    assert isinstance(entry["wrong_verified"], bool)


def test_neither_an_index_nor_data_is_refused_with_what_to_give(tmp_path: Path) -> None:
    result = run_eval("--questions", QUESTIONS)
    assert result.exit_code == 2
    assert "--project sample" in result.output


def test_an_unknown_project_is_refused_before_any_question(tmp_path: Path) -> None:
    result = run_eval("--project", tmp_path / "absent", "--questions", QUESTIONS)
    assert result.exit_code == 2


# Issue 29: each of these lines ended the command in a traceback, and a lone surrogate let
# the run finish and then lost its report.
UNREADABLE_LINES = {
    "a 100,000-deep line": ("[" * 100_000 + "]" * 100_000).encode(),
    "a 5,000-digit id": b'{"id": ' + b"7" * 5000 + b', "question": "What is honey?"}',
    "bytes that are not UTF-8": b'{"question": "What is honey\xff?"}',
}


@pytest.mark.parametrize("line", list(UNREADABLE_LINES.values()), ids=list(UNREADABLE_LINES))
def test_an_unreadable_line_is_refused_with_its_file_and_line(
    index: Path, tmp_path: Path, line: bytes
) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_bytes(b'{"id": "honey", "question": "What is honey?"}\n' + line + b"\n")
    result = run_eval("--db", index, "--questions", questions)
    assert result.exit_code == 2, result.output
    assert f"{questions}:2 " in result.output
    assert isinstance(result.exception, SystemExit), "a traceback, not a refusal"


def test_a_lone_surrogate_in_a_question_keeps_the_finished_runs_report(
    index: Path, tmp_path: Path
) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"id": "honey", "question": "What is honey \\ud800?"}\n')
    out = tmp_path / "report.json"
    result = run_eval("--db", index, "--questions", questions, "--out", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["questions"][0]["question"] == "What is honey \ud800?"
