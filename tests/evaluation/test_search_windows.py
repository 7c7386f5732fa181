"""The windows ``benchmarks/questions/search_windows.py`` cuts a passage into, each read by
the sentence model alone: together they are the passage, none is wider than asked."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

from search_windows import passage_scores, windows


@given(st.text(alphabet=st.sampled_from("ab \n"), max_size=3_000), st.integers(2, 600))
def test_the_windows_of_a_passage_are_the_passage_and_none_is_too_wide(
    text: str, width: int
) -> None:
    pieces = windows(text, width)
    assert "".join(pieces) == text
    assert all(0 < len(piece) <= width for piece in pieces)


def test_a_window_ends_at_a_space_in_its_second_half() -> None:
    text = "word " * 200
    first = windows(text, 450)[0]
    assert len(first) > 225 and text[len(first)] == " "


def test_a_passage_scores_its_share_of_its_first_window_and_the_rest_of_its_best() -> None:
    scores = np.asarray([0.1, 0.9, 0.5, 0.4, 0.7], dtype=np.float32)
    passages = np.asarray([3, 3, 3, 8, 9], dtype=np.int64)
    assert passage_scores(scores, passages, 0.0) == pytest.approx({3: 0.9, 8: 0.4, 9: 0.7})
    assert passage_scores(scores, passages, 1.0) == pytest.approx({3: 0.1, 8: 0.4, 9: 0.7})
    mixed = passage_scores(scores, passages, 0.3)
    assert mixed == pytest.approx({3: 0.3 * 0.1 + 0.7 * 0.9, 8: 0.4, 9: 0.7})
    assert passage_scores(scores[:0], passages[:0], 0.3) == {}
