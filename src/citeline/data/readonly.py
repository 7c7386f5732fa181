"""Run one query on the catalog's read-only connection, bounded in rows and time.

Read-only by construction, in two independent layers: ``check_single_query`` lets through
only text that DuckDB's own parser reads as exactly one ``SELECT`` (so ``INSERT``, ``ATTACH``,
``COPY``, ``PRAGMA``, ``SET``, ``CALL`` and a second statement are refused before anything
runs), and the connection it runs on was opened ``read_only`` with file access disabled and
locked (see ``citeline.data.catalog``), so even a statement the check missed could neither
write nor read a file. This module does not open connections or know about measures.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import duckdb

from citeline.data.errors import QueryFailed, QueryRefused
from citeline.data.results import QueryResult


@dataclass(frozen=True, slots=True)
class QueryLimits:
    """Bounds on one query.

    200 rows is more than any figure needs and about 10,000 tokens at worst in the model's
    context; past it the model is told to aggregate. 10 seconds stops a runaway cross join on
    a laptop-sized table long before a reader gives up on the answer.
    """

    max_rows: int = 200
    seconds: float = 10.0


def check_single_query(connection: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything DuckDB does not parse as exactly one ``SELECT`` (``WITH``, ``VALUES``,
    ``FROM t``, ``DESCRIBE`` and ``SHOW`` parse as ``SELECT``)."""
    try:
        statements = connection.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryRefused(
            f"The SQL does not parse: {_first_line(error)} Fix it and try again."
        ) from None
    if len(statements) != 1:
        raise QueryRefused(f"Send exactly one query; this text holds {len(statements)} statements.")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise QueryRefused(
            f"Only a read query (SELECT) is allowed; this is {kind.name}. The data is read-only."
        )


def run_query(
    connection: duckdb.DuckDBPyConnection,
    sql: str,
    parameters: Mapping[str, Any] | None = None,
    limits: QueryLimits = QueryLimits(),
) -> QueryResult:
    """Run a checked query on ``connection`` (a cursor of its own: it is interrupted when it
    passes ``limits.seconds``) and keep at most ``limits.max_rows`` rows."""
    check_single_query(connection, sql)
    stopped = threading.Event()

    def interrupt() -> None:
        stopped.set()
        connection.interrupt()

    timer = threading.Timer(limits.seconds, interrupt)
    timer.start()
    try:
        cursor = connection.execute(sql, dict(parameters) if parameters else None)
        description = cursor.description or []
        rows = cursor.fetchmany(limits.max_rows + 1)
    except duckdb.Error as error:
        if stopped.is_set():
            raise QueryFailed(
                f"The query ran past {limits.seconds:g} seconds and was stopped;"
                " filter or aggregate more, or query fewer rows."
            ) from None
        raise QueryFailed(f"The query failed: {_first_line(error)}") from None
    finally:
        timer.cancel()
    return QueryResult(
        columns=tuple(column[0] for column in description),
        types=tuple(str(column[1]) for column in description),
        rows=tuple(tuple(row) for row in rows[: limits.max_rows]),
        truncated=len(rows) > limits.max_rows,
    )


def _first_line(error: Exception) -> str:
    """DuckDB's messages carry a caret diagram after the first line; the model needs the line."""
    line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return line if line.endswith((".", "!", "?")) else line + "."
