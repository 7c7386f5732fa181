"""The leave-one-out harness's resampled fits (``crossval.py --resamples``): each fold fitted
on bootstrap resamples of its training questions, the figures averaged, and how far they move
between the fits counted in questions, the unit of the keep rule."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

from crossval import Row, mean_rows, resample_seeds, resampled, spread_table


@given(st.lists(st.integers(), min_size=1, max_size=50), st.integers(1, 1_000))
def test_a_resample_is_as_many_of_the_same_records_drawn_again_alike_for_its_seed(
    records: list[int], seed: int
) -> None:
    drawn = resampled(records, seed)
    assert len(drawn) == len(records)
    assert set(drawn) <= set(records)
    assert resampled(records, seed) == drawn


def test_two_seeds_draw_different_resamples() -> None:
    records = list(range(100))
    assert resampled(records, 1) != resampled(records, 2)


def _row(term: float, followups: float | None, judged: tuple[int, ...]) -> Row:
    return Row("flask", 4, term, 0.75, 0.5, followups, None, 0.0, judged)


def test_the_resampled_figures_are_averaged_and_their_spread_is_in_questions() -> None:
    judged = (4, 4, 4, 2, 0, 6)
    first = [_row(0.5, 1.0, judged)]
    second = [_row(0.25, 0.5, judged)]
    (mean,) = mean_rows([first, second])
    assert (mean.term, mean.gold, mean.followup_gold) == (0.375, 0.75, 0.75)
    assert mean.off_topic_nothing is None and mean.judged == judged
    spread = spread_table([first, second]).splitlines()[-1]
    # term: one question of four apart; follow-ups: one of two; no off-topic question.
    assert spread == "| flask | 1.0 | 0.0 | 0.0 | 1.0 | - | 0.0 |"


def test_a_run_from_a_later_seed_continues_the_fits_of_an_earlier_one() -> None:
    judged = (4, 4, 4, 2, 0, 6)
    assert list(resample_seeds(1, 2)) + list(resample_seeds(3, 2)) == list(resample_seeds(1, 4))
    runs = [[_row(term, None, judged)] for term in (0.25, 0.5, 0.75, 1.0)]
    (whole,) = mean_rows(runs)
    (early,), (late,) = mean_rows(runs[:2]), mean_rows(runs[2:])
    assert whole.term == (early.term + late.term) / 2
