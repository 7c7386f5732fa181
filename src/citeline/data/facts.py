"""The data tools' facts as data: each table's columns, types and listed values, and each
measure's parameters and the shape of its query, for a model that reads structure.

A real model reads the ``sql`` and ``measure`` tools' descriptions (prose made from these
same facts, ``catalog.table_text`` and ``catalog.definition_text``); the embedded model
reads these instead (``ToolSpec.facts``), so nothing parses our own prose back into the
facts it was made from. A measure's query is the owner's SQL: ``query_shape`` reads the one
shape a model can safely match a question to (aggregates over one table, filtered by
``column = $param`` and ``column IS NOT NULL``, grouped by columns) and gives anything else
no shape, so such a measure is never chosen: a misread measure would put a ``verified``
label on a figure that does not answer. Pure data: it opens nothing and imports no driver.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

Value = str | int | bool | datetime.date

NUMERIC_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "DOUBLE",
    "FLOAT",
    "REAL",
    "DECIMAL",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
)


@dataclass(frozen=True, slots=True)
class ColumnFacts:
    """A column: its DuckDB type, the owner's description, its distinct values when few."""

    name: str
    type: str
    description: str = ""
    values: tuple[Value, ...] = ()

    @property
    def numeric(self) -> bool:
        return self.type.upper().startswith(NUMERIC_TYPES)

    @property
    def label(self) -> str:
        """How the column reads in a sentence: its description's first clause, else its name."""
        first = re.split(r"[.:;]", self.description, maxsplit=1)[0].strip()
        return (first[:1].lower() + first[1:]) if first else self.name.replace("_", " ")


@dataclass(frozen=True, slots=True)
class TableFacts:
    """A table: its name, the owner's description, its row count and columns."""

    name: str
    description: str
    rows: int
    columns: tuple[ColumnFacts, ...]

    def column(self, name: str) -> ColumnFacts | None:
        return next((column for column in self.columns if column.name == name), None)


@dataclass(frozen=True, slots=True)
class Aggregate:
    """One aggregate a query returns: ``function`` (avg, min, max, count, sum) of ``column``
    (``*`` for a count of rows), under ``alias``."""

    function: str
    column: str
    alias: str


@dataclass(frozen=True, slots=True)
class QueryShape:
    """What a measure's query computes, when it has the one shape read here: aggregates over
    one table, filtered by ``column = $param`` and ``column IS NOT NULL``, grouped by columns."""

    table: str
    aggregates: tuple[Aggregate, ...]
    group_by: tuple[str, ...]
    param_columns: tuple[tuple[str, str], ...]  # (parameter name, the column it filters)


@dataclass(frozen=True, slots=True)
class ParamFacts:
    """A measure's parameter: its name, type, and whether a call must give it."""

    name: str
    type: str
    required: bool


@dataclass(frozen=True, slots=True)
class MeasureFacts:
    """A measure: its name, description, parameters and its query's shape (``None`` when it
    is not the one shape read here)."""

    name: str
    description: str
    params: tuple[ParamFacts, ...]
    shape: QueryShape | None


@dataclass(frozen=True, slots=True)
class DataFacts:
    """A project's tables and measures, as the data tools offer them."""

    tables: tuple[TableFacts, ...]
    measures: tuple[MeasureFacts, ...] = ()


_AGGREGATE = re.compile(r"\b(avg|mean|min|max|count|sum)\s*\(\s*(\*|\w+)\s*\)", re.IGNORECASE)
_ALIAS_AFTER = re.compile(r"\)\s*(?:,\s*\d+\s*\))?\s*AS\s+(\w+)", re.IGNORECASE)
_FROM = re.compile(
    r"\bFROM\s+(\w+)\s*(?:WHERE\s+(.*?))?(?:\bGROUP\s+BY\s+(.*?))?"
    r"(?:\bORDER\s+BY\b.*|\bLIMIT\b.*)?$",
    re.IGNORECASE | re.DOTALL,
)
_PARAM_FILTER = re.compile(r"^(\w+)\s*=\s*\$(\w+)$")
_NOT_NULL = re.compile(r"^(\w+)\s+IS\s+NOT\s+NULL$", re.IGNORECASE)
# Anything that changes what the rows mean in ways this reader does not follow.
_UNREAD = re.compile(
    r"\b(JOIN|UNION|HAVING|DISTINCT|OVER|QUALIFY|EXCEPT|INTERSECT|LIMIT)\b", re.IGNORECASE
)
_SELECT_LIST = re.compile(r"^\s*SELECT\s+(.*?)\s+FROM\s", re.IGNORECASE | re.DOTALL)


def query_shape(sql: str) -> QueryShape | None:
    """The shape of ``sql``, or ``None`` when it is anything but the one shape read here."""
    if len(re.findall(r"\bFROM\b", sql, re.IGNORECASE)) != 1 or _UNREAD.search(sql):
        return None
    select = _SELECT_LIST.match(sql)
    source = _FROM.search(sql)
    if select is None or source is None:
        return None
    aggregates: list[Aggregate] = []
    for item in _split_top_level(select.group(1)):
        found = _AGGREGATE.search(item)
        if found is None:
            continue
        alias = _ALIAS_AFTER.search(item, found.end() - 1)
        function = found.group(1).lower()
        aggregates.append(
            Aggregate(
                "avg" if function == "mean" else function,
                found.group(2),
                alias.group(1) if alias else found.group(0),
            )
        )
    params: list[tuple[str, str]] = []
    for condition in re.split(r"\s+AND\s+", (source.group(2) or "").strip(), flags=re.IGNORECASE):
        condition = condition.strip()
        if not condition or _NOT_NULL.match(condition):
            continue
        bound = _PARAM_FILTER.match(condition)
        if bound is None:
            # A fixed filter ("year = 2008", "body_mass_g > 4000") narrows the measure in a way
            # this reader does not model; such a measure is never matched.
            return None
        params.append((bound.group(2), bound.group(1)))
    group_by = tuple(part.strip() for part in (source.group(3) or "").split(",") if part.strip())
    if not aggregates or not all(re.fullmatch(r"\w+", column) for column in group_by):
        return None
    return QueryShape(source.group(1), tuple(aggregates), group_by, tuple(params))


def _split_top_level(text: str) -> list[str]:
    """``text`` split at commas outside parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts
