"""Making free metadata storable as JSON, whatever a YAML or JSON source put in it.

YAML front matter yields dates and datetimes, which ``json`` cannot write; they become ISO
strings here, once, so that every store can keep metadata as JSON text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with every mapping key a string and every date an ISO 8601 string."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
