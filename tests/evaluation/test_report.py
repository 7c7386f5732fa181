"""The JSON report and the PNG plot of an evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.evaluation import (
    AnswerCollector,
    EvalQuestion,
    EvaluatedAnswer,
    build_report,
    percentile,
    score_answer,
    summarize,
    write_report,
)
from citeline.evaluation.plot import write_distribution_plot
from citeline.events import Citation, Done, QuoteVerdict, Start, Token


def evaluated(question: EvalQuestion, cited: str | None) -> EvaluatedAnswer:
    collector = AnswerCollector(question.id, started_at=0.0)
    collector.add(Start(), 0.01)
    collector.add(Token("An answer."), 0.02)
    if cited is not None:
        collector.add(Citation(n=1, display_name=cited, id=cited, start=0, end=2), 0.03)
    collector.add(Done("answered"), 0.04)
    record = collector.finish(0.05)
    return EvaluatedAnswer(question, record, score_answer(question, record))


RESULTS = [
    evaluated(EvalQuestion("q1", "one?", gold_ids=("a",)), "a"),
    evaluated(EvalQuestion("q2", "two?", gold_ids=("a", "b")), "c"),
    evaluated(EvalQuestion("q3", "three?"), None),
]


def test_the_report_holds_settings_summary_and_every_question(tmp_path: Path) -> None:
    summary = summarize([r.score for r in RESULTS])
    report = build_report(RESULTS, summary, {"model": "embedded", "limit": None})
    write_report(tmp_path / "out" / "report.json", report)
    read = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))

    assert read["kind"] == "citeline.eval.citations"
    assert read["settings"] == {"model": "embedded", "limit": None}
    assert read["summary"]["precision"] == 0.5
    assert read["summary"]["judged"] == 2
    assert [q["id"] for q in read["questions"]] == ["q1", "q2", "q3"]
    first = read["questions"][0]
    assert first["cited_ids"] == ["a"]
    assert first["correct_ids"] == ["a"]
    assert first["answer"] == "An answer."
    assert first["first_token_seconds"] == pytest.approx(0.02)
    assert read["questions"][2]["precision"] is None


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    path = tmp_path / "plots" / "report.png"
    write_distribution_plot([r.score for r in RESULTS], path, title="tiny")
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_plot_of_nothing_is_still_drawn(tmp_path: Path) -> None:
    write_distribution_plot([], tmp_path / "empty.png", title="empty")
    assert (tmp_path / "empty.png").stat().st_size > 0


@settings(max_examples=100)
@given(
    st.lists(st.floats(min_value=0, max_value=1e3), min_size=1, max_size=40),
    st.sampled_from([0, 5, 50, 95, 100]),
)
def test_percentiles_agree_with_numpy(values: list[float], q: int) -> None:
    numpy = pytest.importorskip("numpy")
    assert percentile(values, q) == pytest.approx(float(numpy.percentile(values, q)))


def test_the_report_records_the_verdict_of_every_quote_block() -> None:
    question = EvalQuestion("q4", "four?")
    collector = AnswerCollector(question.id, started_at=0.0)
    verdicts = (
        QuoteVerdict("Body mass in grams.", "verified", None, "table:penguins"),
        QuoteVerdict("Weighed at dawn.", "rejected", "not_found"),
    )
    collector.add(Done("answered", verdicts=verdicts), 0.01)
    record = collector.finish(0.02)
    result = EvaluatedAnswer(question, record, score_answer(question, record))
    report = build_report([result], summarize([result.score]), {})
    assert report["questions"][0]["verdicts"] == [
        {"quote": "Body mass in grams.", "status": "verified", "reason": None,
         "source": "table:penguins"},
        {"quote": "Weighed at dawn.", "status": "rejected", "reason": "not_found",
         "source": None},
    ]  # fmt: skip
