"""Package attributes that load on first use (PEP 562).

``citeline`` and ``citeline.server`` name things whose modules pull in the model library or
FastAPI; ``import citeline.events`` and ``citeline serve --help`` must not pay for them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def attributes(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``homes[name]`` when ``name``
    is first asked for."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home), name)

    return __getattr__
