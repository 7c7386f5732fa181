"""No evaluation question is written in the package: a rule chosen for, or a comment quoting,
a question of ``benchmarks/questions/`` or ``benchmarks/held-out/`` makes the figures measured
on it say more than they know. Comments describe kinds of questions instead."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).parents[2]
QUESTIONS = ROOT / "benchmarks" / "questions"
HELD_OUT = ROOT / "benchmarks" / "held-out"
SOURCES = ROOT / "src" / "citeline"
# The bundled samples' own files (the documents and the demo's example questions, the data
# project and its comments) are data, not code: the demo offers the README's examples, which
# the development set asks too, by design.
DATA = (SOURCES / "sample", SOURCES / "data" / "sample")
# A question this short ("Why?") says nothing of a set; every question in the sets is longer.
SHORTEST = 12


def _plain(text: str) -> str:
    """Text as compared: case-folded, every run of non-word characters one space, so a
    question quoted across a comment's line break, or with its "?" dropped, is still found."""
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


def evaluation_questions() -> dict[str, str]:
    """Every question (and earlier question of a conversation) of every question file under
    ``benchmarks/questions/`` and ``benchmarks/held-out/``, plain, by the file and id it comes
    from."""
    found: dict[str, str] = {}
    for path in sorted([*QUESTIONS.rglob("*.jsonl"), *HELD_OUT.rglob("*.jsonl")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            record = json.loads(line)
            asked = [record.get("question", ""), *record.get("history", [])]
            for text in asked:
                plain = _plain(str(text))
                if len(plain) >= SHORTEST:
                    found.setdefault(plain, f"{path.relative_to(ROOT)}:{number}")
    return found


def source_texts() -> dict[str, str]:
    """Every text file of the package but its bundled data, plain, by path."""
    return {
        str(path.relative_to(ROOT)): _plain(path.read_text(encoding="utf-8", errors="replace"))
        for path in sorted(SOURCES.rglob("*"))
        if path.is_file()
        and path.suffix in {".py", ".md", ".json", ".toml", ".txt"}
        and not any(path.is_relative_to(data) for data in DATA)
    }


def quoted_questions(questions: dict[str, str], sources: dict[str, str]) -> list[str]:
    """``file: question (where it comes from)`` for each question some source holds."""
    return [
        f"{path}: {question!r} ({origin})"
        for path, text in sources.items()
        for question, origin in questions.items()
        if f" {question} " in f" {text} "
    ]


def test_no_question_of_an_evaluation_set_is_written_in_the_package() -> None:
    questions = evaluation_questions()
    assert len(questions) > 200  # the sets were found
    assert quoted_questions(questions, source_texts()) == []


@given(
    prefix=st.text(alphabet="abc #\n", max_size=20),
    suffix=st.text(alphabet="abc #\n", max_size=20),
)
def test_a_question_quoted_in_a_comment_is_found_however_it_is_wrapped(
    prefix: str, suffix: str
) -> None:
    questions = {_plain("How do I tag a commit in this collection?"): "set:1"}
    comment = f"{prefix} # e.g. 'How do I tag a\n    # commit in this collection' {suffix}"
    assert quoted_questions(questions, {"a.py": _plain(comment)}) != []


def test_a_comment_describing_a_kind_of_question_is_not_a_quote() -> None:
    questions = {_plain("How do I tag a commit in this collection?"): "set:1"}
    comment = "# A how-question about tagging asks for the command that does it."
    assert quoted_questions(questions, {"a.py": _plain(comment)}) == []
