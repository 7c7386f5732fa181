"""Importing citeline's public API does not load the model library or any provider SDK."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pydantic_ai", "openai", "anthropic")


def test_the_answer_api_loads_no_model_library_until_a_model_runs() -> None:
    probe = (
        "import sys, citeline, citeline.events, citeline.models; citeline.answer; "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.strip() == "[]"
