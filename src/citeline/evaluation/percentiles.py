"""The one percentile every figure of citeline uses: the CLI, the eval report, the benchmarks.

Linear interpolation between closest ranks, the method ``numpy.percentile`` uses by default,
so any p50 or p95 printed here can be recomputed from the raw times with numpy and no
footnote. Before it there were three definitions (this one, two nearest-rank variants and a
floor-index one), so a "p95" from ``citeline eval-retrieval`` and one from
``benchmarks/retrieval.py`` were different statistics of the same times. It does not format
or aggregate anything else.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) by linear interpolation; ``None`` for no values.

    ``percentile(times, 50)`` is the median; ``q`` outside 0-100 is a ``ValueError``.
    """
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    ordered = sorted(values)
    if not ordered:
        return None
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
