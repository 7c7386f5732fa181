"""The project file (``citeline.toml``) and ``--data NAME=PATH``: what tables and measures exist.

A project declares tables (a file each, with the owner's descriptions of the table and its
columns) and measures (named, parameterised queries with descriptions). This module only
reads and checks that declaration into frozen dataclasses; it opens no data file and runs no
query (``citeline.data.catalog`` does both).

    [tables.penguins]
    path = "penguins.csv"                  # relative to the project file
    description = "One row per adult penguin."
    nulls = ["NA"]                         # CSV only: strings that mean "no value"
    columns = { body_mass_g = "Body mass in grams." }

    [measures.average_body_mass]
    description = "Average body mass in grams of one species."
    sql = "SELECT avg(body_mass_g) AS grams FROM penguins WHERE species = $species"
    params = { species = { type = "text", description = "Adelie, Chinstrap or Gentoo." } }
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast, get_args

from citeline.data.errors import ProjectError

ParamType: TypeAlias = Literal["text", "integer", "number", "boolean", "date"]

PROJECT_FILE = "citeline.toml"

# The bundled sample (Palmer penguins, CC0), so ``citeline ask --project sample`` works with
# nothing else on the machine.
SAMPLE_PROJECT = Path(__file__).parent / "sample" / PROJECT_FILE

# Names become SQL identifiers and ``$name`` parameters, and the model types them back; plain
# identifiers need no quoting rules for it to get wrong.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PARAMETER_USE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")

_TABLE_KEYS = {"path", "description", "columns", "table", "nulls"}
_MEASURE_KEYS = {"description", "sql", "params"}
_PARAM_KEYS = {"type", "description", "default"}
_TOP_KEYS = {"project", "tables", "measures"}


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table: where its rows are, and what its owner says it and its columns mean.

    ``table`` names the table inside a SQLite or DuckDB file; ``None`` takes the one named
    like this table, or the file's only table. ``nulls`` are CSV strings read as no value.
    """

    name: str
    path: Path
    description: str = ""
    columns: tuple[tuple[str, str], ...] = ()
    table: str | None = None
    nulls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of a measure; one without a default must be given."""

    name: str
    type: ParamType
    description: str = ""
    default: str | int | float | bool | None = None

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True, slots=True)
class MeasureSpec:
    """A named query the data owner defined: its result is governed, not ad hoc."""

    name: str
    description: str
    sql: str
    params: tuple[ParamSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Project:
    """Everything one data project declares. ``root`` is where relative paths were resolved."""

    name: str = "data"
    description: str = ""
    tables: tuple[TableSpec, ...] = ()
    measures: tuple[MeasureSpec, ...] = ()
    root: Path | None = None

    def with_tables(self, tables: tuple[TableSpec, ...]) -> Project:
        """This project plus ``tables`` (from ``--data``); a name declared twice is an error."""
        merged = self.tables + tables
        _require_unique([table.name for table in merged], "table")
        return replace(self, tables=merged)


def resolve_project_path(value: str | Path) -> Path:
    """``sample`` is the bundled sample; a folder means the ``citeline.toml`` inside it."""
    if str(value) == "sample":
        return SAMPLE_PROJECT
    path = Path(value)
    return path / PROJECT_FILE if path.is_dir() else path


def load_project(path: str | Path) -> Project:
    """Read and check a project file; every problem is a ``ProjectError`` naming the fix."""
    file = resolve_project_path(path)
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProjectError(
            f"There is no project file at {file}; pass the path of a {PROJECT_FILE}, "
            "or use --data NAME=PATH for a single file."
        ) from None
    except tomllib.TOMLDecodeError as error:
        raise ProjectError(f"{file} is not valid TOML ({error}); fix the line it names.") from None
    return parse_project(raw, root=file.parent.resolve(), where=str(file))


def parse_project(raw: dict[str, Any], *, root: Path, where: str = PROJECT_FILE) -> Project:
    """The checked ``Project`` of already-parsed TOML; relative paths are taken from ``root``."""
    _reject_unknown(raw, _TOP_KEYS, where)
    header = _table(raw.get("project", {}), f"{where} [project]")
    tables = tuple(
        _table_spec(name, _table(body, f"{where} [tables.{name}]"), root, where)
        for name, body in _table(raw.get("tables", {}), f"{where} [tables]").items()
    )
    measures = tuple(
        _measure_spec(name, _table(body, f"{where} [measures.{name}]"), where)
        for name, body in _table(raw.get("measures", {}), f"{where} [measures]").items()
    )
    _require_unique([table.name for table in tables], "table")
    _require_unique([measure.name for measure in measures], "measure")
    return Project(
        name=_text(header.get("name", "data"), f"{where} [project] name"),
        description=_text(header.get("description", ""), f"{where} [project] description"),
        tables=tables,
        measures=measures,
        root=root,
    )


def project_from_options(project: str | Path | None, data: Sequence[str] = ()) -> Project | None:
    """``--project`` (a file, its folder, or ``sample``) plus each ``--data NAME=PATH``;
    ``None`` when neither was given."""
    if project is None and not data:
        return None
    base = load_project(project) if project is not None else Project()
    return base.with_tables(tuple(table_option(option) for option in data))


def table_option(option: str, *, base: Path | None = None) -> TableSpec:
    """A table from ``--data NAME=PATH``; a relative path is taken from ``base`` (or cwd)."""
    name, sep, path = option.partition("=")
    if not sep or not name or not path:
        raise ProjectError(
            f"--data {option!r} should be NAME=PATH, for example --data penguins=penguins.csv."
        )
    _check_name(name.strip(), "table", "--data")
    return TableSpec(name=name.strip(), path=((base or Path.cwd()) / path.strip()).resolve())


def _table_spec(name: str, body: dict[str, Any], root: Path, where: str) -> TableSpec:
    label = f"{where} [tables.{name}]"
    _check_name(name, "table", where)
    _reject_unknown(body, _TABLE_KEYS, label)
    if "path" not in body:
        raise ProjectError(
            f'{label} has no path; add path = "FILE" (CSV, Parquet, SQLite or DuckDB).'
        )
    columns = _table(body.get("columns", {}), f"{label} columns")
    nulls = body.get("nulls", [])
    if not isinstance(nulls, list) or not all(isinstance(value, str) for value in nulls):
        raise ProjectError(f'{label} nulls should be a list of strings, such as ["NA"].')
    inner = body.get("table")
    return TableSpec(
        name=name,
        path=(root / _text(body["path"], f"{label} path")).resolve(),
        description=_text(body.get("description", ""), f"{label} description"),
        columns=tuple(
            (column, _text(text, f"{label} columns.{column}")) for column, text in columns.items()
        ),
        table=None if inner is None else _text(inner, f"{label} table"),
        nulls=tuple(nulls),
    )


def _measure_spec(name: str, body: dict[str, Any], where: str) -> MeasureSpec:
    label = f"{where} [measures.{name}]"
    _check_name(name, "measure", where)
    _reject_unknown(body, _MEASURE_KEYS, label)
    for key in ("description", "sql"):
        if key not in body:
            raise ProjectError(f"{label} has no {key}; a measure needs a description and its sql.")
    params = tuple(
        _param_spec(param, _table(spec, f"{label} params.{param}"), f"{label} params.{param}")
        for param, spec in _table(body.get("params", {}), f"{label} params").items()
    )
    sql = _text(body["sql"], f"{label} sql")
    used = set(_PARAMETER_USE.findall(sql))
    declared = {param.name for param in params}
    if used - declared:
        missing = ", ".join(sorted(used - declared))
        raise ProjectError(
            f"{label} sql uses ${missing} but declares no such parameter; add it to params."
        )
    if declared - used:
        unused = ", ".join(sorted(declared - used))
        raise ProjectError(
            f"{label} declares {unused} but its sql never uses it; use ${unused} or remove it."
        )
    return MeasureSpec(name, _text(body["description"], f"{label} description"), sql, params)


def _param_spec(name: str, body: dict[str, Any], label: str) -> ParamSpec:
    _check_name(name, "parameter", label)
    _reject_unknown(body, _PARAM_KEYS, label)
    kind = body.get("type", "text")
    if kind not in get_args(ParamType):
        allowed = ", ".join(get_args(ParamType))
        raise ProjectError(f"{label} has type {kind!r}; use one of {allowed}.")
    default = body.get("default")
    if default is not None and not isinstance(default, str | int | float | bool):
        raise ProjectError(f"{label} default should be a string, number or boolean.")
    return ParamSpec(
        name, cast(ParamType, kind), _text(body.get("description", ""), label), default
    )


def _check_name(name: str, what: str, where: str) -> None:
    if not _NAME.match(name):
        raise ProjectError(
            f"{where}: {what} name {name!r} should be letters, digits and underscores, "
            "not starting with a digit."
        )


def _require_unique(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            raise ProjectError(
                f"The {what} {name!r} is declared twice; give one of them another name."
            )
        seen.add(name.lower())


def _reject_unknown(body: dict[str, Any], allowed: set[str], label: str) -> None:
    # A misspelt key ("descripton") silently ignored would lose the owner's text, so refuse it.
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ProjectError(
            f"{label} has unknown key(s) {', '.join(unknown)};"
            f" allowed: {', '.join(sorted(allowed))}."
        )


def _table(value: Any, label: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProjectError(f"{label} should be a table of keys and values.")
    return value


def _text(value: Any, label: str) -> str:
    if not isinstance(value, str):
        raise ProjectError(f"{label} should be a string.")
    return value.strip()
