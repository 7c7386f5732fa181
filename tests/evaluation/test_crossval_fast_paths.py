"""The leave-one-out harness's fast paths give what the plain ones gave, to the bit: the
figures that decide a change to the embedded model must not move because the harness got
cheaper. The pairs a ranking model learns from are drawn with numpy from the same positions
as from the list of pairs built in Python, for the same seed."""

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


def _listed_pairs(
    groups: Sequence[tuple[np.ndarray, Sequence[float]]], rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs as the harness drew them before numpy: the list of every (better, worse)
    pair, sampled down to ``PAIRS_PER_QUESTION``."""
    rows = []
    for features, grades in groups:
        pairs = [
            (i, j) for i in range(len(grades)) for j in range(len(grades)) if grades[i] > grades[j]
        ]
        if not pairs:
            continue
        if len(pairs) > ranker_fit.PAIRS_PER_QUESTION:
            pairs = rng.sample(pairs, ranker_fit.PAIRS_PER_QUESTION)
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


@settings(max_examples=60, deadline=None)
@given(st.lists(_GRADES, min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_the_numpy_pairs_are_the_pairs_sampled_from_the_list_for_the_same_seed(
    every_grades: list[list[float]], seed: int
) -> None:
    features = np.random.default_rng(seed).normal(size=(sum(map(len, every_grades)), 3))
    groups = []
    at = 0
    for grades in every_grades:
        groups.append((features[at : at + len(grades)], grades))
        at += len(grades)
    if not any(max(g) > min(g) for g in every_grades):
        return  # no pair to learn from: the fit stops (its own test is the harness's run)
    x, y = ranker_fit._pairwise(groups, random.Random(seed))
    expected_x, expected_y = _listed_pairs(groups, random.Random(seed))
    assert np.array_equal(x, expected_x)
    assert np.array_equal(y, expected_y)


def test_a_question_with_more_pairs_than_drawn_gets_the_listed_sample() -> None:
    # 20 gold of 40 candidates: 400 pairs, 200 drawn.
    grades = [1.0] * 20 + [0.0] * 20
    features = np.arange(80, dtype=np.float64).reshape(40, 2)
    x, _ = ranker_fit._pairwise([(features, grades)], random.Random(ranker_fit.SEED))
    expected, _ = _listed_pairs([(features, grades)], random.Random(ranker_fit.SEED))
    assert len(x) == 2 * ranker_fit.PAIRS_PER_QUESTION
    assert np.array_equal(x, expected)
