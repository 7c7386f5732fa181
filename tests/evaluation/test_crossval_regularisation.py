"""The ranker's regularisation (``ranker_fit.C``, ``crossval.py --regularisation``): one
number for every model's fit, which the harness can change and which reaches the fit."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

import crossval
import ranker_fit


@pytest.fixture
def restored_c() -> Iterator[None]:
    shipped = ranker_fit.C
    yield
    ranker_fit.C = shipped


def _groups() -> list[tuple[np.ndarray, list[float]]]:
    # Forty questions of five candidates: the gold one leads on the first feature by a
    # margin noise sometimes hides; the second feature is noise.
    rng = np.random.default_rng(7)
    groups = []
    for _ in range(40):
        features = rng.normal(size=(5, 2))
        features[0, 0] += 1.0
        groups.append((features, [1.0, 0.0, 0.0, 0.0, 0.0]))
    return groups


def test_a_stronger_regularisation_fits_smaller_weights(restored_c: None) -> None:
    names = ("signal", "noise")
    ranker_fit.C = 1.0
    loose = ranker_fit._ranking_model(_groups(), names, frozenset())
    ranker_fit.C = 0.01
    tight = ranker_fit._ranking_model(_groups(), names, frozenset())
    assert 0 < tight.weights["signal"] < loose.weights["signal"]
    assert np.hypot(*tight.weights.values()) < np.hypot(*loose.weights.values())


@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_regularisation_not_above_zero_is_refused_with_what_it_must_be(
    value: str, restored_c: None
) -> None:
    with pytest.raises(SystemExit, match="above 0"):
        crossval.main(["--regularisation", value])
