"""The data tools' descriptions, read back into tables, columns and measures for the embedded model.

The ``sql`` tool describes each table as ``Table NAME (N rows): description`` with a line per
column (``- name (TYPE): description``) and, for a column with few distinct values, a line
``  values: 'Adelie', 'Chinstrap'`` (``citeline.data.catalog.table_text``). The ``measure`` tool
describes each measure with its signature, a line per parameter and its ``Query:``. A real
model reads those words; the embedded one parses them here, including the shape of each
measure's query (what it aggregates, what it groups by, which column each parameter filters),
so it can tell whether a measure answers a question as asked.

A query whose shape this does not recognise gets no shape, and a measure without one is never
chosen: a misread measure would put a ``verified`` label on a figure that does not answer, so
when in doubt, do not match. This module only parses text; it decides nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeline.models.embedded.terms import content_terms

_TABLE = re.compile(r"^Table (\w+) \((\d+) rows\)(?:: (.*))?$")
_COLUMN = re.compile(r"^- (\w+) \(([\w ]+(?:\(\d+(?:, ?\d+)?\))?)\)(?:: (.*))?$")
_VALUES = re.compile(r"^  values: (.*)$")
_LITERAL = re.compile(r"'((?:[^']|'')*)'|(-?\d+)|(true|false)")
_MEASURE = re.compile(r"^Measure (\w+)\(([^)]*)\): (.*)$")
_PARAM = re.compile(r"^- (\w+) \((\w+)\): (.*)$")
_QUERY = re.compile(r"^Query: (.*)$")

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
class ColumnText:
    name: str
    type: str
    description: str
    values: tuple[str | int | bool, ...]

    @property
    def numeric(self) -> bool:
        return self.type.upper().startswith(NUMERIC_TYPES)

    @property
    def label(self) -> str:
        """How the column reads in a sentence: its description's first clause, else its name."""
        first = re.split(r"[.:;]", self.description, maxsplit=1)[0].strip()
        return (first[:1].lower() + first[1:]) if first else self.name.replace("_", " ")

    @property
    def terms(self) -> set[str]:
        return content_terms(self.name.replace("_", " ") + " " + self.description)


@dataclass(frozen=True, slots=True)
class TableText:
    name: str
    description: str
    columns: tuple[ColumnText, ...]

    def column(self, name: str) -> ColumnText | None:
        return next((column for column in self.columns if column.name == name), None)


@dataclass(frozen=True, slots=True)
class Aggregate:
    """One aggregate a query returns: ``function`` (avg, min, max, count, sum) of ``column``
    (``*`` for count of rows), under ``alias``."""

    function: str
    column: str
    alias: str


@dataclass(frozen=True, slots=True)
class QueryShape:
    """What a measure's query computes, when it has the one shape this reads: aggregates over
    one table, filtered by ``column = $param`` and ``column IS NOT NULL``, grouped by columns."""

    table: str
    aggregates: tuple[Aggregate, ...]
    group_by: tuple[str, ...]
    param_columns: dict[str, str]  # parameter name -> the column it filters


@dataclass(frozen=True, slots=True)
class ParamText:
    name: str
    type: str
    required: bool


@dataclass(frozen=True, slots=True)
class MeasureText:
    name: str
    description: str
    params: tuple[ParamText, ...]
    shape: QueryShape | None


def read_tables(description: str) -> list[TableText]:
    """The tables of the ``sql`` tool's description, in order."""
    tables: list[TableText] = []
    columns: list[ColumnText] = []

    def close() -> None:
        if tables:
            last = tables[-1]
            tables[-1] = TableText(last.name, last.description, tuple(columns))

    for line in description.splitlines():
        head = _TABLE.match(line)
        if head:
            close()
            columns = []
            tables.append(TableText(head.group(1), head.group(3) or "", ()))
            continue
        column = _COLUMN.match(line)
        if column and tables:
            columns.append(ColumnText(column.group(1), column.group(2), column.group(3) or "", ()))
            continue
        values = _VALUES.match(line)
        if values and columns:
            last = columns[-1]
            columns[-1] = ColumnText(last.name, last.type, last.description, _literals(values[1]))
    close()
    return tables


def _literals(text: str) -> tuple[str | int | bool, ...]:
    found: list[str | int | bool] = []
    for match in _LITERAL.finditer(text):
        if match.group(1) is not None:
            found.append(match.group(1).replace("''", "'"))
        elif match.group(2) is not None:
            found.append(int(match.group(2)))
        else:
            found.append(match.group(3) == "true")
    return tuple(found)


def read_measures(description: str) -> list[MeasureText]:
    """The measures of the ``measure`` tool's description, in order, each with its query's
    shape when it is one this module reads."""
    measures: list[MeasureText] = []
    for line in description.splitlines():
        head = _MEASURE.match(line)
        if head:
            params = tuple(
                ParamText(
                    part.split(":")[0].strip(),
                    part.split(":")[1].split("=")[0].strip(),
                    "=" not in part,
                )
                for part in head.group(2).split(",")
                if ":" in part
            )
            measures.append(MeasureText(head.group(1), head.group(3), params, None))
            continue
        query = _QUERY.match(line)
        if query and measures:
            last = measures[-1]
            measures[-1] = MeasureText(
                last.name, last.description, last.params, query_shape(query.group(1))
            )
    return measures


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
    params: dict[str, str] = {}
    for condition in re.split(r"\s+AND\s+", (source.group(2) or "").strip(), flags=re.IGNORECASE):
        condition = condition.strip()
        if not condition or _NOT_NULL.match(condition):
            continue
        bound = _PARAM_FILTER.match(condition)
        if bound is None:
            # A fixed filter ("year = 2008", "body_mass_g > 4000") narrows the measure in a way
            # this reader does not model; such a measure is never matched.
            return None
        params[bound.group(2)] = bound.group(1)
    group_by = tuple(part.strip() for part in (source.group(3) or "").split(",") if part.strip())
    if not aggregates or not all(re.fullmatch(r"\w+", column) for column in group_by):
        return None
    return QueryShape(source.group(1), tuple(aggregates), group_by, params)


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
