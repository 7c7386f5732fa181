"""Hypothesis strategies for the embedded model's fitted linear models: any weights over a
model's own features, and a whole ``Fitted`` of them, shared by the answerer's tests and
the leave-one-out harness's."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from citeline.models.embedded.choice import READ_MODEL_FEATURES
from citeline.models.embedded.passages import PASSAGE_FEATURES
from citeline.models.embedded.ranking import (
    CONFIDENCE_FEATURES,
    SECOND_FEATURES,
    SECTION_FEATURES,
)
from citeline.models.embedded.tuning import Fitted, LinearModel

# A weight is often exactly 0 (a feature the fit dropped), else of either sign.
WEIGHT = st.one_of(st.just(0.0), st.floats(-3, 3, allow_nan=False, allow_infinity=False))


def linear_model(names: Sequence[str]) -> st.SearchStrategy[LinearModel]:
    """A model weighing some of ``names``, with a bias."""
    weights = st.dictionaries(st.sampled_from(list(names)), WEIGHT, max_size=len(names))
    return st.builds(LinearModel, weights, st.floats(-1, 1))


FITTED = st.builds(
    Fitted,
    linear_model(SECTION_FEATURES),
    linear_model(PASSAGE_FEATURES),
    linear_model(READ_MODEL_FEATURES),
    linear_model(CONFIDENCE_FEATURES),
    st.floats(0, 1),
    linear_model(SECOND_FEATURES),
    st.floats(0, 1),
)
