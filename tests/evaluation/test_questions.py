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
        ({"question": "?", "answer_terms": "key="}, r'"answer_terms" must be a list'),
        ({"question": "?", "answer_terms": [" "]}, r'"answer_terms" must be a list'),
        ({"question": "?", "history": [3]}, r'"history" must be a list'),
        ({"question": "?", "figures": ["5,076"]}, r'"figures" must be a list of plain decimal'),
        ({"question": "?", "figures": [5076.0]}, r"written as strings"),
        ({"question": "?", "figures": [True]}, r'"figures" must be a list'),
        ({"question": "?", "figures": "5076"}, r'"figures" must be a list'),
        ({"question": "?", "expects": "governed"}, r'"expects" must be one of "measure"'),
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


def test_answer_terms_figures_history_and_expects_are_read_as_written(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "q.jsonl",
        {
            "id": "f1",
            "question": "Which one is faster?",
            "history": ["What is the difference between a list and a tuple?"],
            "answer_terms": ["`key=`", "itemgetter"],
            "figures": ["5076", "190.0", 44],
            "expects": "measure",
            "note": "a file's own key is ignored",
        },
    )
    [question] = load_questions(path)
    assert question.history == ("What is the difference between a list and a tuple?",)
    assert question.answer_terms == ("`key=`", "itemgetter")
    # "190.0" keeps its decimal: a figure's written precision is what an answer must reach.
    assert question.figures == ("5076", "190.0", "44")
    assert question.expects == "measure"
    assert question.is_data_question


def test_a_question_without_figures_or_expects_is_not_a_data_question(tmp_path: Path) -> None:
    [question] = load_questions(write_lines(tmp_path / "q.jsonl", {"question": "What is a?"}))
    assert (question.answer_terms, question.figures, question.history) == ((), (), ())
    assert question.expects is None
    assert not question.is_data_question


def test_the_development_set_in_the_repository_loads() -> None:
    folder = Path(__file__).parents[2] / "benchmarks" / "questions"
    docs = load_questions(folder / "python-docs.jsonl")
    follow_ups = load_questions(folder / "python-docs-followups.jsonl")
    penguins = load_questions(folder / "penguins.jsonl")
    assert len(docs) >= 65 and all(q.gold_ids and q.answer_terms for q in docs)
    assert len(follow_ups) >= 22 and all(q.history and q.gold_ids for q in follow_ups)
    assert len(penguins) >= 22 and all(q.expects is not None for q in penguins)


def test_every_gold_section_of_the_development_set_is_in_the_bundled_sample() -> None:
    from citeline.corpus.documents import Document
    from citeline.corpus.formats import read_source, source_files

    root = Path(__file__).parents[2]
    ids = {
        document.id
        for source in source_files(root / "src" / "citeline" / "sample" / "python-docs")
        for document in read_source(source)
        if isinstance(document, Document)
    }
    folder = root / "benchmarks" / "questions"
    for name in ("python-docs.jsonl", "python-docs-followups.jsonl"):
        for question in load_questions(folder / name):
            assert set(question.gold_ids) <= ids, (name, question.id)
