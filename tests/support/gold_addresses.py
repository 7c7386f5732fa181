"""The question sets' gold-address script (benchmarks/questions/gold_ids.py), loaded as a module.

The script lives with the question sets it serves, outside the package, so the tests that
check those sets load it from its file. This loads; it checks nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

QUESTIONS = Path(__file__).parents[2] / "benchmarks" / "questions"


def gold_ids_module() -> ModuleType:
    """``benchmarks/questions/gold_ids.py``, imported once and shared."""
    name = "question_sets_gold_ids"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, QUESTIONS / "gold_ids.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve the module's string annotations through sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
