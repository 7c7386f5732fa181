"""The names of the embedded model's features, every model's together: what ``--ablate`` and
the weights file name. Each is computed where it is defined (``ranking`` for a section's and
the answer's, ``passages`` for a run's); docs/models.md says what each one measures."""

from __future__ import annotations

from citeline.models.embedded.choice import BEST_RUN_FEATURES
from citeline.models.embedded.passages import PASSAGE_FEATURES, READ_FEATURES
from citeline.models.embedded.ranking import (
    CONFIDENCE_FEATURES,
    SECOND_FEATURES,
    SECTION_FEATURES,
)

FEATURES: tuple[str, ...] = (
    *SECTION_FEATURES,
    *PASSAGE_FEATURES,
    *READ_FEATURES,
    *BEST_RUN_FEATURES,
    *CONFIDENCE_FEATURES,
    *SECOND_FEATURES,
)

__all__ = [
    "BEST_RUN_FEATURES",
    "CONFIDENCE_FEATURES",
    "FEATURES",
    "PASSAGE_FEATURES",
    "READ_FEATURES",
    "SECOND_FEATURES",
    "SECTION_FEATURES",
]
