"""The section and passage models' scores of the cached candidates, kept through one fit.

The harness answers the same training questions a dozen times in one fit (the confidence
model's fit, then each of ``ranker_fit.SECOND_THRESHOLDS``), and each time the answerer's
``choose`` scored every section and every run of the sections it reads again, in plain
Python: 4 million scores of 19 features a fold. Kept, four folds of the 32 documentation
collections back to back (``documents_to_read=3``) took 11.3 s a fold's fit and answers
against 15.5 s (24.8 s before ``ranker_fit._pairwise`` drew its pairs with numpy), the
same weights and answers to the bit. A model from ``remembering`` scores a list of rows as
the answerer does (``LinearModel.scores``: the same code, so the same value to the bit) the
first time it is shown that list's rows, and hands back the same numbers after. It decides
nothing and computes no score of its own.

It keeps a score by the row object (a record's cached features, alive as long as the
record) and checks that it is that same object, so a row that only looks alike, or a list
it has not seen whole, is scored afresh. ``plain`` gives the models back as the answerer
holds them, so what ``ranker_fit.fit`` returns is what it returned before and holds no
scores (the engine's ``--folds`` answers with it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from citeline.models.embedded.passages import PASSAGE_FEATURES
from citeline.models.embedded.ranking import SECTION_FEATURES
from citeline.models.embedded.tuning import Fitted, LinearModel


@dataclass(frozen=True, slots=True)
class RememberingModel(LinearModel):
    """A linear model that keeps its scores of the rows it was shown in the order of
    ``names``, by the row."""

    names: tuple[str, ...] = ()
    known: dict[int, tuple[Sequence[float], float]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def scores(
        self,
        names: Sequence[str],
        rows: Sequence[Sequence[float]],
        ablated: frozenset[str] = frozenset(),
    ) -> list[float]:
        if ablated or tuple(names) != self.names:
            return LinearModel.scores(self, names, rows, ablated)
        found: list[float] = []
        for row in rows:
            kept = self.known.get(id(row))
            if kept is None or kept[0] is not row:
                break
            found.append(kept[1])
        else:
            return found
        # A list the harness asks about is a record's sections or a section's runs, asked
        # whole each time: scored whole the first time, every later time is found whole.
        fresh = LinearModel.scores(self, names, rows)
        self.known.update((id(row), (row, score)) for row, score in zip(rows, fresh, strict=True))
        return fresh


def remembering(fitted: Fitted) -> Fitted:
    """``fitted`` with section and passage models that keep their scores (of rows in the
    order of ``SECTION_FEATURES`` and ``PASSAGE_FEATURES``); those that already keep
    theirs are kept as they are."""
    return dataclasses.replace(
        fitted,
        section=_remembering(fitted.section, SECTION_FEATURES),
        passage=_remembering(fitted.passage, PASSAGE_FEATURES),
    )


def _remembering(model: LinearModel, names: Sequence[str]) -> LinearModel:
    if isinstance(model, RememberingModel) and model.names == tuple(names):
        return model
    return RememberingModel(model.weights, model.bias, tuple(names))


def plain(fitted: Fitted) -> Fitted:
    """``fitted`` with every model a ``LinearModel`` again, no score kept."""
    return dataclasses.replace(
        fitted, section=_plain(fitted.section), passage=_plain(fitted.passage)
    )


def _plain(model: LinearModel) -> LinearModel:
    return LinearModel(model.weights, model.bias) if isinstance(model, RememberingModel) else model
