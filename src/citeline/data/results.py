"""The rows a query returned, and the text a model reads for them.

Plain data: the executor fills a ``QueryResult``; the agent sends ``as_text()`` to the model.
It neither runs queries nor knows which tool asked for them.
"""

from __future__ import annotations

import datetime
import decimal
from dataclasses import dataclass
from typing import Any

# A cell longer than this is cut: a long text column would otherwise spend the model's context
# on one value, and a figure never needs more.
MAX_CELL_CHARS = 200


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and DuckDB type names, the rows (at most the row bound), and whether the
    query had more rows than were kept."""

    columns: tuple[str, ...]
    types: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    truncated: bool = False

    def as_text(self) -> str:
        """A Markdown table with a line saying how many rows it holds (and that more existed)."""
        header = (
            "| "
            + " | ".join(
                f"{name} ({kind})" for name, kind in zip(self.columns, self.types, strict=True)
            )
            + " |"
        )
        rule = "|" + "|".join(" --- " for _ in self.columns) + "|"
        body = self.value_lines()
        count = len(self.rows)
        noun = "row" if count == 1 else "rows"
        summary = (
            f"First {count} {noun}; the query returned more. Aggregate in SQL to see them all."
            if self.truncated
            else f"{count} {noun}."
        )
        return "\n".join([header, rule, *body, summary])

    def value_lines(self) -> list[str]:
        """The rows of ``as_text``'s table, one line each: the values, without the header."""
        return ["| " + " | ".join(format_cell(value) for value in row) + " |" for row in self.rows]


def format_cell(value: Any) -> str:
    """One value as the model reads it: NULL spelt out, dates in ISO form, pipes escaped."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal | int):
        return str(value)
    if isinstance(value, datetime.date | datetime.datetime | datetime.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    text = str(value).replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= MAX_CELL_CHARS else text[: MAX_CELL_CHARS - 1] + "…"
