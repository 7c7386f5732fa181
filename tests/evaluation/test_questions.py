"""Question files in the citeline layout, and the errors a broken one gets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citeline.evaluation import EvalQuestion, EvidenceSentence, QuestionFileError, load_questions


def write_lines(path: Path, *lines: object) -> Path:
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n",
        encoding="utf-8",
    )
    return path


def test_questions_are_read_with_gold_ids_and_evidence(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "q.jsonl",
        {
            "id": "q1",
            "question": "What does a say?",
            "gold_ids": ["a", 7, "a"],
            "evidence": {"a": ["A says so."]},
        },
        "",
        {"question": "And without gold?"},
    )
    assert load_questions(path) == [
        EvalQuestion(
            "q1",
            "What does a say?",
            gold_ids=("a", "7"),
            evidence=(EvidenceSentence("a", "A says so."),),
        ),
        EvalQuestion("3", "And without gold?"),
    ]


def test_a_limit_keeps_the_first_questions(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "q.jsonl", *({"question": f"q{i}?"} for i in range(5)))
    assert [q.question for q in load_questions(path, limit=2)] == ["q0?", "q1?"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", r"q\.jsonl:1 is not valid JSON"),
        ("[1, 2]", r"q\.jsonl:1 is not a JSON object"),
        ({"gold_ids": ["a"]}, r'q\.jsonl:1 has no "question" text'),
        ({"question": "?", "gold_ids": "a"}, r'"gold_ids" must be a list'),
        ({"question": "?", "gold_ids": [""]}, r'"gold_ids" must be a list'),
        ({"question": "?", "evidence": ["loose sentence"]}, r'"evidence" must map'),
        ({"question": "?", "id": True}, r'"id" must be a non-empty string'),
    ],
)
def test_a_broken_line_is_named_with_what_to_do(tmp_path: Path, line: object, message: str) -> None:
    with pytest.raises(QuestionFileError, match=message):
        load_questions(write_lines(tmp_path / "q.jsonl", line))


def test_two_questions_with_one_id_are_refused(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "q.jsonl", {"id": 1, "question": "a"}, {"id": "1", "question": "b"}
    )
    with pytest.raises(QuestionFileError, match="appears twice"):
        load_questions(path)


def test_a_missing_file_says_to_check_the_path(tmp_path: Path) -> None:
    with pytest.raises(QuestionFileError, match="Check the path"):
        load_questions(tmp_path / "absent.jsonl")
