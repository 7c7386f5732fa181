"""The imports ``src/citeline`` really makes, read from its source with ``ast``.

Every ``import`` and ``from ... import`` counts, wherever it stands (at module level, inside a
function, under ``TYPE_CHECKING``): a layer that names another only for a type still knows it.
``module_level`` says whether it runs when the module is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SOURCE / "citeline"


@dataclass(frozen=True)
class Import:
    importer: str  # the module that imports, dotted: citeline.cli.serve
    imported: str  # the module named, dotted: citeline.server or citeline.server.guard
    line: int
    module_level: bool  # runs on import: not in a function, not under TYPE_CHECKING

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} imports {self.imported}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(dotted: str) -> bool:
    path = SOURCE.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def source_modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield module_name(path), path


def imports_of(module: str, path: Path) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    yield from _walk(tree, module, package, module_level=True)


def all_imports() -> list[Import]:
    return [found for module, path in source_modules() for found in imports_of(module, path)]


def _walk(node: ast.AST, module: str, package: str, *, module_level: bool) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import):
            for alias in child.names:
                yield Import(module, alias.name, child.lineno, module_level)
        elif isinstance(child, ast.ImportFrom):
            imported = _absolute(child, package)
            yield Import(module, imported, child.lineno, module_level)
            # ``from citeline.agent import meaning`` imports a module by another spelling.
            for alias in child.names:
                if is_module(f"{imported}.{alias.name}"):
                    yield Import(module, f"{imported}.{alias.name}", child.lineno, module_level)
        else:
            nested = module_level and not _runs_later(child)
            yield from _walk(child, module, package, module_level=nested)


def _runs_later(node: ast.AST) -> bool:
    """A function's body, or an ``if TYPE_CHECKING:`` block: not run when the module is."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return True
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])
