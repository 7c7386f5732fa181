"""The one percentile: numpy's default (linear) on any sample, so every p50 and p95 agree."""

from __future__ import annotations

import pytest

from citeline.evaluation.percentiles import percentile

numpy = pytest.importorskip("numpy")


@pytest.mark.parametrize("seed", range(20))
def test_the_percentile_equals_numpys_on_random_samples(seed: int) -> None:
    generator = numpy.random.default_rng(seed)
    size = int(generator.integers(1, 500))
    # Latencies are skewed: a lognormal sample has the long tail that tells methods apart.
    sample = generator.lognormal(mean=3.0, sigma=1.0, size=size).tolist()
    for q in (0, 1, 5, 25, 50, 75, 90, 95, 99, 99.9, 100, float(generator.uniform(0, 100))):
        assert percentile(sample, q) == pytest.approx(float(numpy.percentile(sample, q)))


def test_p95_of_a_short_sample_interpolates_where_nearest_rank_would_not() -> None:
    # Nearest rank gave 20 here (the benchmarks' old definition), a floor index gave 20 too.
    assert percentile([10.0, 20.0], 95) == pytest.approx(19.5)
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5


def test_no_values_have_no_percentile_and_q_must_be_a_percentage() -> None:
    assert percentile([], 50) is None
    with pytest.raises(ValueError, match="between 0 and 100"):
        percentile([1.0], 101)
