"""``docs/architecture.md``'s layer table holds for the imports the code really makes.

The table is read from the page itself, so the page and the code cannot drift apart: a row
lists a layer's modules (`` `corpus/` ``, `` `events.py` ``), rows run from the bottom of the
flow to its top, and a layer imports only its own row and the rows above it in the table.
Its last column, "must not know about", is read through ``FORBIDDEN``; a phrase the test
does not know fails, so a new rule on the page gets a meaning here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.architecture.imports import Import, all_imports, is_module

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def _every_layer(rows: list[Layer]) -> set[str]:
    return {module for row in rows for module in row.modules}


# What each phrase of the "must not know about" column forbids a layer to import: modules
# (and every module under them), or a rule of its own (``internals``: only a package's
# ``__init__``, never a module inside it).
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "models": ("citeline.models",),
    "corpus": ("citeline.corpus",),
    "the server": ("citeline.server",),
    "HTTP": ("citeline.server", "fastapi", "starlette", "uvicorn"),
    # The server relays what the agent's prompts make; it never reads or words them.
    "prompt wording": ("citeline.agent.prompts", "citeline.prompts"),
    # The database layer keeps connections and migrations; the tables are the layers'.
    "what is stored": ("citeline.corpus", "citeline.server", "citeline.data"),
    "model internals": ("internals:citeline.models",),
    "internals beyond the public API": ("internals:*",),
}


@dataclass(frozen=True)
class Layer:
    rank: int  # the table's row: a layer imports rows at or above its own
    modules: tuple[str, ...]  # dotted: citeline.corpus, citeline.events
    must_not_know: tuple[str, ...]


def layers() -> list[Layer]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("## Layers", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    found = []
    for rank, row in enumerate(rows):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", cells[0])
        modules = tuple("citeline." + name.removesuffix("/").removesuffix(".py") for name in names)
        modules = tuple(module.removesuffix(".__init__") for module in modules)
        phrases = tuple(phrase.strip() for phrase in cells[-1].split(","))
        found.append(Layer(rank, modules, phrases))
    return found


def layer_of(module: str, rows: list[Layer]) -> Layer | None:
    """The row whose module is ``module`` or holds it (the longest match: ``citeline`` is the
    root package's row, ``citeline.corpus.ingest`` is the corpus's)."""
    best: tuple[int, Layer] | None = None
    for row in rows:
        for name in row.modules:
            if (module == name or module.startswith(name + ".")) and (
                best is None or len(name) > best[0]
            ):
                best = (len(name), row)
    return None if best is None else best[1]


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _is_internal(imported: str, under: str, rows: list[Layer]) -> bool:
    """``imported`` is a module inside a package layer, not the package's public surface."""
    target = layer_of(imported, rows)
    if target is None or imported in target.modules:
        return False
    return under == "*" or any(_within(imported, name) for name in target.modules if name == under)


def broken_rules(found: Import, rows: list[Layer]) -> list[str]:
    importer = layer_of(found.importer, rows)
    assert importer is not None, f"{found.importer} is in no row of docs/architecture.md"
    target = layer_of(found.imported, rows)
    if target is importer:
        return []
    broken = []
    if target is not None and target.rank > importer.rank:
        broken.append(f"{found}: {target.modules[0]} is a layer above {importer.modules[0]}")
    for phrase in importer.must_not_know:
        if phrase == "anything else":
            if target is not None:
                broken.append(f"{found}: {importer.modules[0]} must not know anything else")
            continue
        for rule in FORBIDDEN[phrase]:
            if rule.startswith("internals:"):
                if _is_internal(found.imported, rule.removeprefix("internals:"), rows):
                    broken.append(f"{found}: not a public module ({phrase})")
            elif _within(found.imported, rule):
                broken.append(f"{found}: {importer.modules[0]} must not know {phrase}")
    return broken


def test_every_phrase_of_the_table_has_a_meaning_here() -> None:
    unknown = {
        phrase
        for row in layers()
        for phrase in row.must_not_know
        if phrase not in FORBIDDEN and phrase != "anything else"
    }
    assert not unknown, f"give these a meaning in FORBIDDEN: {sorted(unknown)}"


def test_every_module_of_the_package_is_in_a_row_of_the_table() -> None:
    rows = layers()
    from tests.architecture.imports import source_modules

    homeless = [module for module, _ in source_modules() if layer_of(module, rows) is None]
    assert not homeless, f"add a row to docs/architecture.md for {homeless}"


def test_every_row_names_modules_that_exist() -> None:
    missing = [name for name in _every_layer(layers()) if not is_module(name)]
    assert not missing


def test_no_layer_imports_one_above_it_or_one_it_must_not_know() -> None:
    rows = layers()
    broken = [rule for found in all_imports() for rule in broken_rules(found, rows)]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize(
    ("importer", "imported", "rule"),
    [
        ("citeline.corpus.ingest", "citeline.agent", "above"),
        ("citeline.models.turn", "citeline.corpus", "must not know corpus"),
        ("citeline.cli.serve", "citeline.server.guard", "not a public module"),
        ("citeline.evaluation.runner", "citeline.models.turn", "not a public module"),
        ("citeline.events", "citeline.stream", "must not know anything else"),
        ("citeline.server.app", "citeline.agent.prompts", "must not know prompt wording"),
    ],
)
def test_the_rules_catch_an_import_that_breaks_them(
    importer: str, imported: str, rule: str
) -> None:
    broken = broken_rules(Import(importer, imported, 1, True), layers())
    assert any(rule in sentence for sentence in broken), broken


def test_the_command_line_may_import_a_package_by_its_public_name() -> None:
    assert broken_rules(Import("citeline.cli.serve", "citeline.server", 1, True), layers()) == []
