"""The read-only connection a query runs on, and one query run on it, bounded in rows.

Read-only by construction, in two independent layers: ``check_single_query`` lets through
only text that DuckDB's own parser reads as exactly one ``SELECT`` (so ``INSERT``, ``ATTACH``,
``COPY``, ``PRAGMA``, ``SET``, ``CALL`` and a second statement are refused before anything
runs), and ``open_read_only`` opens the catalog's file ``read_only`` with file access,
extension loading and spilling disabled, one thread, and the configuration locked, so even a
statement the check missed could neither write nor read a file nor undo those settings.

This module runs inside a query worker process (``citeline.data.worker``); memory and time
are bounded there and by the parent (``citeline.data.sandbox``), not here. It does not start
processes or know about measures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from citeline.data.errors import QueryFailedError, QueryRefusedError
from citeline.data.results import QueryResult

# 200 rows of 200-character cells pickle to well under 1 MB; 16 MB leaves room for wide
# rows while stopping a query that selects a 500 MB string from shipping it to the server.
MAX_REPLY_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class QueryLimits:
    """Bounds on one query.

    200 rows is more than any figure needs and about 10,000 tokens at worst in the model's
    context; past it the model is told to aggregate. 10 seconds stops a runaway cross join on
    a laptop-sized table long before a reader gives up on the answer. 512 MB is the data
    segment of the process a query runs in: measured, a query worker with DuckDB loaded uses
    about 100 MB of it before any query, and ``repeat('x', 2000000000)`` (which passed 4 GB
    when only DuckDB's own ``memory_limit`` stood in its way) fails at once under it.
    Two workers run queries at once at most, so two answers querying together never wait
    and the data tools never hold more than twice ``memory_mb``. Eight more may wait their
    turn (each at most ``seconds`` before it is told every worker is busy); past that a query
    is refused at once: one answer that asked for 40 slow queries at a time kept every other
    answer's data tools, and, through the shared thread pool they waited in, its document
    searches, waiting 56 s.
    """

    max_rows: int = 200
    seconds: float = 10.0
    memory_mb: int = 512
    workers: int = 2
    waiting: int = 8


def open_read_only(database: Path, limits: QueryLimits) -> duckdb.DuckDBPyConnection:
    """The catalog's file opened for queries that can change nothing and reach nothing else.

    DuckDB's own ``memory_limit`` is half the process's bound, so a join or sort that outgrows
    it fails with DuckDB's clear error before the process limit turns it into a bare
    allocation failure; with ``temp_directory`` empty nothing spills to disk.
    """
    return duckdb.connect(
        str(database),
        read_only=True,
        config={
            "enable_external_access": False,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "threads": 1,
            "memory_limit": f"{max(limits.memory_mb // 2, 16)}MB",
            "temp_directory": "",
            "lock_configuration": True,
        },
    )


def check_single_query(connection: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything DuckDB does not parse as exactly one ``SELECT`` (``WITH``, ``VALUES``,
    ``FROM t``, ``DESCRIBE`` and ``SHOW`` parse as ``SELECT``)."""
    try:
        statements = connection.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryRefusedError(
            f"The SQL does not parse: {_first_line(error)} Fix it and try again."
        ) from None
    if len(statements) != 1:
        raise QueryRefusedError(
            f"Send exactly one query; this text holds {len(statements)} statements."
        )
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise QueryRefusedError(
            f"Only a read query (SELECT) is allowed; this is {kind.name}. The data is read-only."
        )


def run_query(
    connection: duckdb.DuckDBPyConnection,
    sql: str,
    parameters: Mapping[str, Any] | None,
    limits: QueryLimits,
) -> QueryResult:
    """Run a checked query and keep at most ``limits.max_rows`` rows."""
    check_single_query(connection, sql)
    try:
        cursor = connection.execute(sql, dict(parameters) if parameters else None)
        description = cursor.description or []
        rows = cursor.fetchmany(limits.max_rows + 1)
    except duckdb.OutOfMemoryException:
        raise QueryFailedError(out_of_memory(limits)) from None
    except duckdb.Error as error:
        raise QueryFailedError(f"The query failed: {_first_line(error)}") from None
    return QueryResult(
        columns=tuple(column[0] for column in description),
        types=tuple(str(column[1]) for column in description),
        rows=tuple(tuple(row) for row in rows[: limits.max_rows]),
        truncated=len(rows) > limits.max_rows,
    )


def out_of_memory(limits: QueryLimits) -> str:
    return (
        f"The query needed more than its {limits.memory_mb} MB of memory and was stopped;"
        " filter or aggregate more, or select fewer or shorter values."
    )


def _first_line(error: Exception) -> str:
    """DuckDB's messages carry a caret diagram after the first line; the model needs the line."""
    line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return line if line.endswith((".", "!", "?")) else line + "."
