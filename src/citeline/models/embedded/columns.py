"""Feature rows computed column by column, only the columns wanted.

A feature is a named column function of what it describes (a section, a run, a read section)
and of what every row of one table shares (the question, the section's units). An answer
wants only the features its fitted models weigh (``choice.needed_features``): an unwanted
feature's column is 0.0, as a feature with no weight counts (``tuning.LinearModel``), and
its function is never called, so what only it reads is never computed when that is kept
lazy (``computed_once``). The extraction the weights are fitted on wants every
feature.

It knows no feature itself: ``ranking`` and ``passages`` name theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from typing import Any, Generic, TypeVar, overload

Shared = TypeVar("Shared")
Item = TypeVar("Item")
Value = TypeVar("Value")


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


class computed_once(Generic[Value]):  # a decorator, named as `property` is
    """An attribute computed on its first read and kept in the instance: what several
    features share, or what only one reads, computed only when a wanted feature reads it.
    ``functools.cached_property`` without its lock, which Python 3.11 takes on every first
    read: with it, the features of an answer's twenty results cost 1.10 ms of CPU (0.90
    computed eagerly, as before columns), without it 1.02 (the bundled sample's questions)."""

    def __init__(self, compute: Callable[[Any], Value]) -> None:
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> computed_once[Value]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> Value: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        # Kept in the instance's own dictionary, which a later read finds before this
        # (a descriptor without ``__set__``), so it is computed once.
        value = self._compute(instance)
        instance.__dict__[self._name] = value
        return value
