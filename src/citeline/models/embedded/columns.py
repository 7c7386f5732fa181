"""Feature rows computed column by column, only the columns wanted.

A feature is a named column function of what it describes (a section, a run, a read section)
and of what every row of one table shares (the question, the section's units). An answer
wants only the features its fitted models weigh (``choice.needed_features``): an unwanted
feature's column is 0.0, as a feature with no weight counts (``tuning.LinearModel``), and
its function is never called, so what only it reads is never computed when that is kept
lazy (``functools.cached_property``). The extraction the weights are fitted on wants every
feature.

It knows no feature itself: ``ranking`` and ``passages`` name theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from typing import TypeVar

Shared = TypeVar("Shared")
Item = TypeVar("Item")


def feature_rows(
    names: Sequence[str],
    columns: Mapping[str, Callable[[Shared, Item], float]],
    wanted: Set[str],
    shared: Shared,
    items: Iterable[Item],
) -> list[list[float]]:
    """One row per item, its values in the order of ``names``: each wanted feature's
    ``columns[name](shared, item)``, each other feature's 0.0."""
    chosen = [columns[name] if name in wanted else _unwanted for name in names]
    return [[column(shared, item) for column in chosen] for item in items]


def _unwanted(shared: object, item: object) -> float:
    del shared, item
    return 0.0
