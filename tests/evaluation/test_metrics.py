"""Citation scores on a tiny question set whose expected figures were computed by hand.

The set (gold sources, what each answer cited, how it ended):

| q  | gold                    | cited (in event order)              | P   | R   |
|----|-------------------------|-------------------------------------|-----|-----|
| q1 | a, https://example.org/b | a, c, https://example.org/d        | 1/3 | 1/2 |
| q2 | a                       | a, a (again, with a verified quote) | 1   | 1   |
| q3 | a, b, c                 | nothing (answered)                  | 0   | 0   |
| q4 | none                    | x                                   | -   | -   |
| q5 | d                       | nothing (nothing_found)             | 0   | 0   |

Judged questions: q1, q2, q3, q5. Precision = (1/3 + 1 + 0 + 0) / 4 = 1/3;
recall = (1/2 + 1 + 0 + 0) / 4 = 3/8.
"""

from __future__ import annotations

import pytest
from tests.support.observed_answers import answer_of

from citeline.evaluation import (
    EvalQuestion,
    EvidenceSentence,
    QuestionScore,
    score_answer,
    summarize,
)
from citeline.events import Citation, Done, Start, Token


def cite(n: int, source: str, **quote: object) -> Citation:
    if source.startswith("https://"):
        return Citation(n=n, display_name=source, url=source, **quote)  # type: ignore[arg-type]
    return Citation(n=n, display_name=source, id=source, **quote)  # type: ignore[arg-type]


QUESTIONS = [
    EvalQuestion("q1", "one?", gold_ids=("a", "https://example.org/b")),
    EvalQuestion(
        "q2",
        "two?",
        gold_ids=("a",),
        evidence=(EvidenceSentence("a", "The gold sentence says what a says, plainly."),),
    ),
    EvalQuestion("q3", "three?", gold_ids=("a", "b", "c")),
    EvalQuestion("q4", "four?"),
    EvalQuestion("q5", "five?", gold_ids=("d",)),
]

ANSWERS = [
    answer_of(
        "q1",
        [
            Start(),
            Token("First a, "),
            cite(1, "a"),
            Token("then c "),
            cite(2, "c", quote="an unverified quote", verified=False, kind="document"),
            cite(3, "https://example.org/d"),
            Token("and d."),
            Done("answered", dropped_anchors=2),
        ],
    ),
    answer_of(
        "q2",
        [
            Start(),
            Token("Only a."),
            cite(1, "a"),
            cite(1, "a", quote="what a says, plainly", verified=True, kind="document"),
            Done("answered"),
        ],
    ),
    answer_of("q3", [Start(), Token("No sources at all."), Done("answered")]),
    answer_of(
        "q4", [Start(), Token("Cites x."), cite(1, "x"), Done("answered", dropped_anchors=1)]
    ),
    answer_of("q5", [Start(), Done("nothing_found")]),
]


@pytest.fixture
def scores() -> list[QuestionScore]:
    return [score_answer(q, a) for q, a in zip(QUESTIONS, ANSWERS, strict=True)]


def test_each_question_scores_its_hand_computed_precision_and_recall(
    scores: list[QuestionScore],
) -> None:
    assert [(s.precision, s.recall) for s in scores] == [
        (pytest.approx(1 / 3), 0.5),
        (1.0, 1.0),
        (0.0, 0.0),
        (None, None),
        (0.0, 0.0),
    ]


def test_a_source_cited_twice_counts_once(scores: list[QuestionScore]) -> None:
    assert scores[1].cited_ids == ("a",)
    assert scores[1].correct_ids == ("a",)


def test_a_url_is_the_source_of_a_citation_without_an_id(scores: list[QuestionScore]) -> None:
    assert scores[0].cited_ids == ("a", "c", "https://example.org/d")
    assert scores[0].correct_ids == ("a",)


def test_the_summary_averages_over_judged_questions_only(scores: list[QuestionScore]) -> None:
    summary = summarize(scores)
    assert summary.questions == 5
    assert summary.judged == 4
    assert summary.precision == pytest.approx(1 / 3)
    assert summary.recall == pytest.approx(3 / 8)


def test_no_citation_is_counted_among_answered_answers_only(scores: list[QuestionScore]) -> None:
    summary = summarize(scores)
    assert summary.states == {"answered": 4, "nothing_found": 1}
    assert summary.answered == 4
    assert summary.no_citation_rate == pytest.approx(1 / 4)


def test_dropped_anchors_are_a_share_of_answers_and_a_total(scores: list[QuestionScore]) -> None:
    summary = summarize(scores)
    assert summary.dropped_anchor_rate == pytest.approx(2 / 5)
    assert summary.dropped_anchors == 3


def test_quotes_are_verified_and_found_inside_gold_evidence(scores: list[QuestionScore]) -> None:
    summary = summarize(scores)
    assert (summary.quotes, summary.verified_quotes) == (2, 1)
    assert summary.quote_verification_rate == pytest.approx(1 / 2)
    assert scores[1].quotes_in_evidence == 1
    assert scores[0].quotes_in_evidence is None
    assert summary.quote_in_evidence_rate == 1.0


def test_a_verified_quote_outside_the_gold_sentence_is_not_in_evidence() -> None:
    question = EvalQuestion(
        "q", "?", gold_ids=("a",), evidence=(EvidenceSentence("a", "Alpha beta gamma delta."),)
    )
    elsewhere = cite(1, "a", quote="a sentence that is not gold", verified=True, kind="document")
    other_source = cite(2, "b", quote="Alpha beta gamma", verified=True, kind="document")
    record = answer_of("q", [Start(), Token("x"), elsewhere, other_source, Done("answered")])
    assert score_answer(question, record).quotes_in_evidence == 0


def test_typography_does_not_keep_a_quote_out_of_its_evidence_sentence() -> None:
    question = EvalQuestion(
        "q",
        "?",
        gold_ids=("a",),
        evidence=(EvidenceSentence("a", "It is \u201cwell\u201d known."),),
    )
    quoted = cite(1, "a", quote='is  "well"  known', verified=True, kind="document")
    record = answer_of("q", [Start(), Token("x"), quoted, Done("answered")])
    assert score_answer(question, record).quotes_in_evidence == 1


def test_no_quotes_leave_the_quote_rates_unmeasured(scores: list[QuestionScore]) -> None:
    summary = summarize([scores[2], scores[4]])
    assert summary.quote_verification_rate is None
    assert summary.quote_in_evidence_rate is None


def test_clean_answers_leak_nothing(scores: list[QuestionScore]) -> None:
    summary = summarize(scores)
    assert summary.leak_rate == 0.0
    assert all(count == 0 for count in summary.leaks.values())


def test_a_markdown_link_left_in_the_prose_is_a_leak() -> None:
    record = answer_of("q3", [Start(), Token("See [a]"), Token("(cite:a)."), Done("answered")])
    score = score_answer(QUESTIONS[2], record)
    assert score.leaks == ("markdown_link",)
    assert summarize([score]).leak_rate == 1.0
    assert summarize([score]).leaks["markdown_link"] == 1


def test_times_are_measured_to_the_first_token_with_text_and_to_the_end(
    scores: list[QuestionScore],
) -> None:
    # q1: Start at 1 s, first token at 2 s, eight events, finished at 9 s.
    assert scores[0].first_token_seconds == 2.0
    assert scores[0].total_seconds == 9.0
    assert scores[4].first_token_seconds is None
    summary = summarize(scores)
    # First tokens: q1 2, q2 2, q3 2, q4 2; totals: 9, 6, 4, 5, 3.
    assert summary.first_token_p50 == 2.0
    assert summary.total_p50 == 5.0
    assert summary.total_p95 == pytest.approx(8.4)


def test_an_empty_evaluation_measures_nothing() -> None:
    summary = summarize([])
    assert summary.precision is None
    assert summary.no_citation_rate is None
    assert summary.leak_rate is None
    assert summary.total_p50 is None


def test_an_answer_is_not_scored_against_another_question() -> None:
    with pytest.raises(ValueError, match="scored against"):
        score_answer(QUESTIONS[0], ANSWERS[1])
