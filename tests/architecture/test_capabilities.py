"""The agent and the server ask a model what it can do, never which provider it is, and the
server reaches the agent only when it answers.

A branch on ``provider == "embedded"`` outside the model layer made every new provider a
question of which branches it should take; the handle's capabilities answer it once
(``citeline.models.ModelHandle``). The server imported the agent at module level for one
type (``Profile``), against ``answer_engine``'s own docstring; that type now lives in the
leaf ``citeline.conversation``.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from tests.architecture.imports import all_imports, source_modules

from citeline.models import ModelHandle, resolve_model


def _compares_a_provider(node: ast.Compare) -> bool:
    sides = [node.left, *node.comparators]
    return any(
        (isinstance(side, ast.Attribute) and side.attr == "provider")
        or (isinstance(side, ast.Name) and side.id == "provider")
        for side in sides
    )


def test_no_module_outside_the_model_layer_branches_on_a_providers_name() -> None:
    found = [
        f"{module}:{node.lineno}"
        for module, path in source_modules()
        if not (module == "citeline.models" or module.startswith("citeline.models."))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Compare) and _compares_a_provider(node)
    ]
    assert not found, f"ask the handle's capabilities instead: {found}"


def test_the_server_imports_the_agent_in_no_module_level_import() -> None:
    found = [
        str(each)
        for each in all_imports()
        if each.importer.startswith("citeline.server")
        and each.module_level
        and (each.imported == "citeline.agent" or each.imported.startswith("citeline.agent."))
    ]
    assert not found


def test_importing_every_module_of_the_server_loads_no_part_of_the_agent() -> None:
    modules = [module for module, _ in source_modules() if module.startswith("citeline.server")]
    probe = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('citeline.agent')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert loaded.stdout.strip() == "[]"


def test_the_embedded_model_searches_for_itself_reads_for_meaning_and_runs_here() -> None:
    embedded = resolve_model("embedded")
    assert embedded.searches_first
    assert embedded.reads_for_meaning
    assert embedded.runs_in_process
    assert embedded.extractive


@pytest.mark.parametrize("provider", ["openai", "ollama", "anthropic"])
def test_a_real_model_is_given_the_servers_search_and_waited_on_elsewhere(provider: str) -> None:
    real = ModelHandle(f"{provider}:m", provider, "m", "m")  # type: ignore[arg-type]
    assert not real.searches_first
    assert not real.reads_for_meaning
    assert not real.runs_in_process
    assert not real.extractive
