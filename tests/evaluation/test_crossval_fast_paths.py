"""The leave-one-out harness's fast paths give what the plain ones gave, to the bit: the
figures that decide a change to the embedded model must not move because the harness got
cheaper. The pairs a ranking model learns from are drawn with numpy from the same positions
as from the list of pairs built in Python, for the same seed; each question draws its own,
whatever comes before it; the section and passage models' scores kept through a fit are the
answerer's, and the answers chosen with them the same."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

import ranker_fit
import ranker_scores
from ranker_features import QuestionRecord, RunRecord, SectionRecord
from tests.support.fitted_models import FITTED

from citeline.models.embedded.passages import PASSAGE_FEATURES, READ_FEATURES
from citeline.models.embedded.ranking import SECTION_FEATURES
from citeline.models.embedded.tuning import Fitted, LinearModel, Tuning


def _listed_pairs(
    groups: Sequence[tuple[np.ndarray, Sequence[float]]], rng: random.Random | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs as the harness drew them before numpy: the list of every (better, worse)
    pair, sampled down to ``PAIRS_PER_QUESTION`` by ``rng`` through every group in turn, or
    without one by each group's own generator."""
    rows = []
    for features, grades in groups:
        draw = rng or ranker_fit.group_generator(np.asarray(grades, dtype=np.float64))
        pairs = [
            (i, j) for i in range(len(grades)) for j in range(len(grades)) if grades[i] > grades[j]
        ]
        if not pairs:
            continue
        if len(pairs) > ranker_fit.PAIRS_PER_QUESTION:
            pairs = draw.sample(pairs, ranker_fit.PAIRS_PER_QUESTION)
        first = np.array([i for i, _ in pairs])
        second = np.array([j for _, j in pairs])
        rows.append(features[first] - features[second])
    better = np.concatenate(rows)
    x = np.concatenate([better, -better])
    y = np.concatenate([np.ones(len(better), dtype=np.int64), np.zeros(len(better), np.int64)])
    return x, y


# Grades as the fit gives them: gold or not, or a term's worth between; a question of a few
# candidates, or of 25 to 40, which mostly has more pairs than are drawn (15 gold of 30: 225).
_GRADE = st.sampled_from([0.0, 0.5, 1.0])
_GRADES = st.one_of(
    st.lists(_GRADE, min_size=1, max_size=6), st.lists(_GRADE, min_size=25, max_size=40)
)


def _groups(every_grades: list[list[float]], seed: int) -> list[tuple[np.ndarray, list[float]]]:
    features = np.random.default_rng(seed).normal(size=(sum(map(len, every_grades)), 3))
    groups = []
    at = 0
    for grades in every_grades:
        groups.append((features[at : at + len(grades)], grades))
        at += len(grades)
    return groups


@settings(max_examples=60, deadline=None)
@given(st.lists(_GRADES, min_size=1, max_size=6), st.integers(0, 2**32 - 1), st.booleans())
def test_the_numpy_pairs_are_the_pairs_sampled_from_the_list_for_the_same_seed(
    every_grades: list[list[float]], seed: int, by_group: bool
) -> None:
    if not any(max(g) > min(g) for g in every_grades):
        return  # no pair to learn from: the fit stops (its own test is the harness's run)
    groups = _groups(every_grades, seed)
    shipped = ranker_fit.PAIRS_BY_GROUP
    ranker_fit.PAIRS_BY_GROUP = by_group
    try:
        x, y = ranker_fit._pairwise(groups, random.Random(seed))
    finally:
        ranker_fit.PAIRS_BY_GROUP = shipped
    expected_x, expected_y = _listed_pairs(groups, None if by_group else random.Random(seed))
    assert np.array_equal(x, expected_x)
    assert np.array_equal(y, expected_y)


def test_a_question_with_more_pairs_than_drawn_gets_the_listed_sample() -> None:
    # 20 gold of 40 candidates: 400 pairs, 200 drawn.
    grades = [1.0] * 20 + [0.0] * 20
    features = np.arange(80, dtype=np.float64).reshape(40, 2)
    x, _ = ranker_fit._pairwise([(features, grades)], random.Random(ranker_fit.SEED))
    expected, _ = _listed_pairs([(features, grades)])
    assert len(x) == 2 * ranker_fit.PAIRS_PER_QUESTION
    assert np.array_equal(x, expected)


@settings(max_examples=40, deadline=None)
@given(st.lists(_GRADES, min_size=1, max_size=4), st.integers(0, 2**32 - 1))
def test_a_question_draws_the_same_pairs_whatever_questions_come_before_it(
    before: list[list[float]], seed: int
) -> None:
    # 15 gold of 30 candidates: 225 pairs, more than are drawn.
    last = [1.0] * 15 + [0.0] * 15
    groups = _groups([*before, last], seed)
    alone, _ = ranker_fit._pairwise(groups[-1:], random.Random(seed))
    behind, _ = ranker_fit._pairwise(groups, random.Random(seed + 1))
    drawn = ranker_fit.PAIRS_PER_QUESTION
    # The last question's pairs are the last ``drawn`` rows of each half (better first, then
    # the same pairs the other way).
    half = len(behind) // 2
    assert np.array_equal(behind[half - drawn : half], alone[:drawn])


def test_a_fit_without_a_feature_learns_from_the_same_pairs() -> None:
    grades = [1.0] * 20 + [0.0] * 20
    features = np.random.default_rng(5).normal(size=(40, 3))
    every, _ = ranker_fit._pairwise([(features, grades)], random.Random(1))
    ablated, _ = ranker_fit._pairwise([(features[:, :2], grades)], random.Random(2))
    assert np.array_equal(every[:, :2], ablated)


# -- the section and passage models' scores, kept through a fit (ranker_scores.py) ---------

# Values as the features hold them: shares, counts and BM25 sums, some far apart in size,
# so that the order of the sum shows in the last bits.
_VALUE = st.one_of(
    st.floats(0, 1, allow_nan=False, allow_infinity=False),
    st.floats(0, 1e4, allow_nan=False, allow_infinity=False),
    st.integers(0, 50).map(float),
)


def _row(names: Sequence[str]) -> st.SearchStrategy[tuple[float, ...]]:
    return st.tuples(*(_VALUE for _ in names))


_RUN = st.builds(RunRecord, _row(PASSAGE_FEATURES), st.booleans(), st.just(""))
_SECTION = st.builds(
    SectionRecord,
    st.text(max_size=3),
    _row(SECTION_FEATURES),
    st.booleans(),
    st.lists(_RUN, max_size=4),
    _row(READ_FEATURES[2:]),
)
_RECORD = st.builds(
    QuestionRecord,
    st.just("q"),
    st.sampled_from(["question", "followup", "off_topic"]),
    st.booleans(),
    st.booleans(),
    st.integers(1, 3),  # gold sections, counted where it has gold
    st.floats(0, 1),
    st.integers(0, 5),
    st.integers(0, 3),
    st.lists(_SECTION, max_size=6),
)


@settings(max_examples=50, deadline=None)
@given(FITTED, st.lists(_RECORD, min_size=1, max_size=4))
def test_the_kept_scores_are_the_answerers_to_the_bit_the_first_time_and_every_time_after(
    fitted: Fitted, records: list[QuestionRecord]
) -> None:
    kept = ranker_scores.remembering(fitted)
    for record in records:
        sections = [s.features for s in record.sections]
        expected = fitted.section.scores(SECTION_FEATURES, sections)
        for _ in range(2):
            assert kept.section.scores(SECTION_FEATURES, sections) == expected
        for section in record.sections:
            runs = [run.features for run in section.runs]
            expected = fitted.passage.scores(PASSAGE_FEATURES, runs)
            for _ in range(2):
                assert kept.passage.scores(PASSAGE_FEATURES, runs) == expected


@settings(max_examples=50, deadline=None)
@given(FITTED, st.lists(_RECORD, min_size=1, max_size=4))
def test_the_harness_answers_alike_with_the_kept_scores_as_with_the_answerers(
    fitted: Fitted, records: list[QuestionRecord]
) -> None:
    tuning = Tuning(documents_to_read=2)
    kept = ranker_scores.remembering(fitted)
    for record in records:
        if record.sections:
            expected = ranker_fit.choice_of(record, fitted, tuning)
            assert ranker_fit.choice_of(record, kept, tuning) == expected
            assert ranker_fit.choice_of(record, kept, tuning) == expected
    assert ranker_fit.simulate(records, kept, tuning) == ranker_fit.simulate(
        records, fitted, tuning
    )


def test_a_row_not_the_one_a_score_was_kept_for_is_scored_afresh() -> None:
    model = ranker_scores.remembering(Fitted(section=LinearModel({"heading": 2.0}, 0.5))).section
    assert isinstance(model, ranker_scores.RememberingModel)
    first = (1.0,) * len(SECTION_FEATURES)
    assert model.scores(SECTION_FEATURES, [first]) == [2.5]
    # Another row that happens to get the kept row's id (the first one collected): the
    # score kept for the first is not its.
    other = (3.0,) * len(SECTION_FEATURES)
    model.known[id(other)] = (first, 2.5)
    assert model.scores(SECTION_FEATURES, [other]) == [6.5]


def test_an_ablation_or_another_order_of_features_is_scored_as_the_answerer_scores_it() -> None:
    plain = LinearModel({"heading": 2.0, "page": 1.0}, 0.5)
    model = ranker_scores.remembering(Fitted(section=plain)).section
    row = tuple(float(i) for i in range(len(SECTION_FEATURES)))
    assert model.scores(SECTION_FEATURES, [row]) == plain.scores(SECTION_FEATURES, [row])
    ablated = frozenset({"heading"})
    assert model.scores(SECTION_FEATURES, [row], ablated) == plain.scores(
        SECTION_FEATURES, [row], ablated
    )
    backwards = SECTION_FEATURES[::-1]
    assert model.scores(backwards, [row]) == plain.scores(backwards, [row])


def test_a_fit_gives_back_the_models_as_the_answerer_holds_them() -> None:
    kept = ranker_scores.remembering(Fitted(section=LinearModel({"heading": 1.0})))
    assert type(ranker_scores.plain(kept).section) is LinearModel
    assert type(ranker_scores.plain(kept).passage) is LinearModel
    assert ranker_scores.plain(kept) == Fitted(section=LinearModel({"heading": 1.0}))
