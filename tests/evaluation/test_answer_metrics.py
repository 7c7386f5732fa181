"""Answer scores beside the citation scores: gold cited, expected terms, figures, outcome.

The set, with what each answer did and the expected judgement:

| q  | asks                               | answer                              |
|----|------------------------------------|-------------------------------------|
| d1 | gold a, b; terms key=, itemgetter  | cites c, a; prose has `key=`        |
| d2 | gold a; terms reverse=True         | cites c; prose without the term     |
| d3 | nothing                            | cites x                             |
| m1 | figures 5076, 123; expects measure | verified; "5,076 g (123 penguins)"  |
| m2 | figures 152, 68, 124; expects sql  | verified; "152, 68 and 124"         |
| m3 | figures 4716; expects measure      | verified; "4,700 g"                 |
| s1 | figures 344; expects sql           | untrusted; "344 penguins"           |
| n1 | expects nothing_found              | nothing_found, labelled verified    |

Judged: d1 cites gold and has a term, d2 neither, d3 is not judged. m1 is right; m2 has
the figures but no measure answers it, so its label is wrong; m3's figure is wrong; s1 is
right and untrusted; n1 is a verified label on nothing, which is wrong.

Summary: cites gold 1/2; terms 1/2; figures 3/4; as expected 4/5 (all but m2);
wrong verified 3 of 5 data questions.
"""

from __future__ import annotations

import pytest
from tests.support.observed_answers import answer_of

from citeline.evaluation import (
    EvalQuestion,
    ObservedAnswer,
    QuestionScore,
    score_answer,
    summarize,
)
from citeline.evaluation.metrics import answer_outcome
from citeline.events import Citation, Done, Start, Token


def cite(source: str) -> Citation:
    return Citation(n=1, display_name=source, id=source, start=0, end=1)


def data_answer(question_id: str, text: str, provenance: str) -> ObservedAnswer:
    return answer_of(question_id, [Start(), Token(text), Done("answered", provenance=provenance)])  # type: ignore[arg-type]


QUESTIONS = [
    EvalQuestion("d1", "sort by key?", gold_ids=("a", "b"), answer_terms=("key=", "itemgetter")),
    EvalQuestion("d2", "descending?", gold_ids=("a",), answer_terms=("reverse=True",)),
    EvalQuestion("d3", "anything?"),
    EvalQuestion("m1", "Gentoo mass?", figures=("5076", "123"), expects="measure"),
    EvalQuestion("m2", "each species?", figures=("152", "68", "124"), expects="sql"),
    EvalQuestion("m3", "heaviest island?", figures=("4716",), expects="measure"),
    EvalQuestion("s1", "how many?", figures=("344",), expects="sql"),
    EvalQuestion("n1", "lifespan?", expects="nothing_found"),
]

ANSWERS = [
    answer_of(
        "d1",
        [Start(), Token("Use `key=`:"), cite("c"), cite("a"), Done("answered")],
    ),
    answer_of("d2", [Start(), Token("Sort it."), cite("c"), Done("answered")]),
    answer_of("d3", [Start(), Token("Cites x."), cite("x"), Done("answered")]),
    data_answer("m1", "Gentoo penguins weigh 5,076 g on average (123 penguins).", "verified"),
    data_answer("m2", "Adelie 152, Chinstrap 68 and Gentoo 124.", "verified"),
    data_answer("m3", "Biscoe penguins weigh 4,700 g.", "verified"),
    data_answer("s1", "There are 344 penguins.", "untrusted"),
    answer_of("n1", [Start(), Done("nothing_found", provenance="verified")]),
]


@pytest.fixture
def scores() -> dict[str, QuestionScore]:
    return {q.id: score_answer(q, a) for q, a in zip(QUESTIONS, ANSWERS, strict=True)}


def test_one_gold_source_among_the_citations_is_enough(scores: dict[str, QuestionScore]) -> None:
    assert scores["d1"].cites_gold is True
    assert scores["d2"].cites_gold is False
    assert scores["d3"].cites_gold is None


def test_the_expected_term_is_judged_only_where_terms_are_given(
    scores: dict[str, QuestionScore],
) -> None:
    assert scores["d1"].has_expected_term is True
    assert scores["d2"].has_expected_term is False
    assert scores["d3"].has_expected_term is None


def test_figures_are_judged_all_or_nothing_and_the_missing_ones_are_named(
    scores: dict[str, QuestionScore],
) -> None:
    assert scores["m1"].has_expected_figures is True
    assert scores["m3"].has_expected_figures is False
    assert scores["m3"].missing_figures == ("4716",)
    assert scores["d1"].has_expected_figures is None


def test_the_outcome_is_read_from_the_state_and_the_label(scores: dict[str, QuestionScore]) -> None:
    assert [scores[q].outcome for q in ("d1", "m1", "s1", "n1")] == [
        "documents",
        "measure",
        "sql",
        "nothing_found",
    ]
    failed = answer_of("x", [Start(), Token("half")])
    assert answer_outcome(failed) == "failed"
    cited = data_answer("x", "344", "cited")
    assert answer_outcome(cited) == "sql"


def test_a_right_figure_from_a_measure_the_question_expects_is_not_wrong(
    scores: dict[str, QuestionScore],
) -> None:
    assert scores["m1"].as_expected is True
    assert scores["m1"].wrong_verified is False


def test_a_verified_label_on_a_question_no_measure_answers_is_wrong_even_with_right_figures(
    scores: dict[str, QuestionScore],
) -> None:
    assert scores["m2"].has_expected_figures is True
    assert scores["m2"].as_expected is False
    assert scores["m2"].wrong_verified is True


def test_a_verified_label_on_wrong_figures_is_wrong(scores: dict[str, QuestionScore]) -> None:
    assert scores["m3"].wrong_verified is True


def test_an_untrusted_answer_is_never_counted_as_wrongly_verified(
    scores: dict[str, QuestionScore],
) -> None:
    assert scores["s1"].wrong_verified is False


def test_a_verified_label_on_nothing_found_is_wrong(scores: dict[str, QuestionScore]) -> None:
    assert scores["n1"].as_expected is True
    assert scores["n1"].wrong_verified is True


def test_a_document_question_is_not_a_data_question(scores: dict[str, QuestionScore]) -> None:
    assert scores["d1"].wrong_verified is None
    assert scores["d1"].as_expected is None


def test_the_summary_gives_each_rate_over_the_questions_that_ask_for_it(
    scores: dict[str, QuestionScore],
) -> None:
    summary = summarize(list(scores.values()))
    assert (summary.judged, summary.gold_cited_rate) == (2, 0.5)
    assert (summary.term_judged, summary.expected_term_rate) == (2, 0.5)
    assert (summary.figures_judged, summary.expected_figures_rate) == (4, 0.75)
    assert (summary.outcome_judged, summary.as_expected_rate) == (5, 0.8)
    assert (summary.data_questions, summary.wrong_verified) == (5, 3)
    assert summary.wrong_verified_rate == 0.6
    assert summary.outcomes == {"documents": 3, "measure": 3, "sql": 1, "nothing_found": 1}


def test_questions_that_ask_nothing_of_the_answer_leave_the_new_rates_unmeasured() -> None:
    question = EvalQuestion("q", "anything?")
    record = answer_of("q", [Start(), Token("Something."), Done("answered")])
    summary = summarize([score_answer(question, record)])
    assert summary.gold_cited_rate is None
    assert summary.expected_term_rate is None
    assert summary.expected_figures_rate is None
    assert summary.as_expected_rate is None
    assert summary.wrong_verified_rate is None
