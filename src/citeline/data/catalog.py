"""The data a project declares, opened for reading: tables, measures and their trusted text.

``DataCatalog.open(project)`` copies every declared table into a private DuckDB file (the
sources are only ever read, by a connection that may open those files and no other, so a
view inside a DuckDB source cannot read anything else), closes the writer, and from then on
queries that file only through ``citeline.data.sandbox``: worker processes that open it
``read_only`` with file access disabled and locked, bounded in memory and killed at their time
limit. No query, however written, can change a table, attach another database, read or write
any file, or hold the server's memory or time; ``citeline.data.readonly`` adds the refusal of
anything but one ``SELECT`` on top. Copying costs start-up time on large files (measured:
the bundled 344-row sample opens in about 0.25 s on a 2-core machine); it buys queries that
never touch the user's files again.

The catalog also renders the owner's descriptions as ``TrustedText`` (a definition per
measure, a table entry per table): the exact words the model is shown and may quote. It
knows nothing of models or tools; the agent wraps ``sql`` and ``measure`` as tools.
"""

from __future__ import annotations

import datetime
import shutil
import tempfile
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from citeline.data.errors import MeasureError, ProjectError, QueryRefusedError
from citeline.data.facts import (
    ColumnFacts,
    DataFacts,
    MeasureFacts,
    ParamFacts,
    TableFacts,
    query_shape,
)
from citeline.data.loading import load_table, open_loader, quote_identifier
from citeline.data.measures import bind_arguments, signature
from citeline.data.project import MeasureSpec, Project
from citeline.data.readonly import QueryLimits
from citeline.data.results import QueryResult
from citeline.data.sandbox import QuerySandbox
from citeline.stream.quotes import TrustedText

# A column with at most this many distinct values lists them in its table's text, so a model
# filters on values the table really holds ("Gentoo", 2008) rather than guessing their spelling;
# past it the column is a measurement or an identifier, and a list would only spend context.
MAX_LISTED_VALUES = 24
# A value longer than this is prose, not a category anyone types into a question.
MAX_LISTED_VALUE_CHARS = 60
_LISTABLE_TYPES = ("VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE")


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its DuckDB type, the owner's description, and its distinct values when few."""

    name: str
    type: str
    description: str = ""
    values: tuple[str | int | bool | datetime.date, ...] = ()


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A loaded table: its columns with DuckDB types, its row count, and the owner's words."""

    name: str
    description: str
    columns: tuple[Column, ...]
    rows: int
    source: Path


class DataCatalog:
    """Tables and measures of one project, queried through one read-only connection.

    Safe to share between concurrent answers: each query runs in a worker process of its own.
    """

    def __init__(
        self,
        project: Project,
        sandbox: QuerySandbox,
        tables: tuple[TableInfo, ...],
        database: Path,
        limits: QueryLimits,
    ) -> None:
        self.project = project
        # The private copy the tables were loaded into; removed, with its folder, on close.
        self.database = database
        self.tables = tables
        self.measures = project.measures
        self.limits = limits
        self._sandbox = sandbox
        self._close = weakref.finalize(self, _dispose, sandbox, database.parent)

    @classmethod
    def open(cls, project: Project, *, limits: QueryLimits = QueryLimits()) -> DataCatalog:
        """Load every table and check every measure; any problem is a ``ProjectError``."""
        if not project.tables:
            raise ProjectError(
                "The project declares no tables; add a [tables.NAME] with a path, or pass"
                " --data NAME=PATH."
            )
        folder = Path(tempfile.mkdtemp(prefix="citeline-data-"))
        database = folder / "catalog.duckdb"
        try:
            writer = open_loader(database, project.tables)
            try:
                for spec in project.tables:
                    load_table(writer, spec)
                tables = tuple(
                    _describe(writer, spec.name, dict(spec.columns), spec.description, spec.path)
                    for spec in project.tables
                )
            finally:
                writer.close()
            sandbox = QuerySandbox(database, limits)
            sandbox.start()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        catalog = cls(project, sandbox, tables, database, limits)
        try:
            for measure in project.measures:
                catalog._check_measure(measure)
        except BaseException:
            catalog.close()
            raise
        return catalog

    def sql(self, query: str) -> QueryResult:
        """Ad-hoc SQL: one read-only query, bounded; refusals and failures are ``DataError``s."""
        return self._sandbox.query(query)

    def measure(self, name: str, arguments: Mapping[str, Any] | None = None) -> QueryResult:
        """Run the owner's query ``name`` with ``arguments`` bound as parameters."""
        spec = self.find_measure(name)
        return self._sandbox.query(spec.sql, bind_arguments(spec, arguments or {}))

    async def sql_async(self, query: str) -> QueryResult:
        """``sql`` for an answer: when the caller is cancelled (the answer ended), the query's
        worker process is killed at once rather than left running."""
        return await self._sandbox.query_async(query)

    async def measure_async(
        self, name: str, arguments: Mapping[str, Any] | None = None
    ) -> QueryResult:
        """``measure`` for an answer, cancelled as ``sql_async`` is."""
        spec = self.find_measure(name)
        return await self._sandbox.query_async(spec.sql, bind_arguments(spec, arguments or {}))

    def worker_pids(self) -> frozenset[int]:
        """The process ids of the query workers now running (benchmarks and tests watch them)."""
        return self._sandbox.worker_pids()

    def find_measure(self, name: str) -> MeasureSpec:
        for spec in self.measures:
            if spec.name == name:
                return spec
        known = ", ".join(spec.name for spec in self.measures) or "none are defined"
        raise MeasureError(f"There is no measure {name!r}; the measures are: {known}.")

    def trusted_texts(self) -> tuple[TrustedText, ...]:
        """Definitions, then tables: the owner's words a quote block may be checked against."""
        return tuple(definition_text(spec) for spec in self.measures) + tuple(
            table_text(table) for table in self.tables
        )

    def facts(self) -> DataFacts:
        """The tables and measures as data (``facts``), for a model that reads structure."""
        return DataFacts(
            tuple(
                TableFacts(
                    table.name,
                    table.description,
                    table.rows,
                    tuple(
                        ColumnFacts(c.name, c.type, c.description, c.values) for c in table.columns
                    ),
                )
                for table in self.tables
            ),
            tuple(
                MeasureFacts(
                    measure.name,
                    measure.description,
                    tuple(ParamFacts(p.name, p.type, p.required) for p in measure.params),
                    query_shape(measure.sql),
                )
                for measure in self.measures
            ),
        )

    def describe_tables(self) -> str:
        """The tables as the model is shown them, word for word their trusted text."""
        return "\n\n".join(table_text(table).text for table in self.tables)

    def describe_measures(self) -> str:
        """The measures as the model is shown them, word for word their trusted text."""
        return "\n\n".join(definition_text(spec).text for spec in self.measures)

    def close(self) -> None:
        self._close()

    def __enter__(self) -> DataCatalog:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _check_measure(self, measure: MeasureSpec) -> None:
        try:
            self._sandbox.check(measure.sql)
        except QueryRefusedError as refusal:
            raise ProjectError(f"Measure {measure.name!r}: {refusal}") from None


def definition_text(measure: MeasureSpec) -> TrustedText:
    """A measure's trusted text: its description, parameters and query."""
    lines = [f"Measure {measure.name}({signature(measure)}): {measure.description}"]
    lines += [
        f"- {param.name} ({param.type}): {param.description}"
        for param in measure.params
        if param.description
    ]
    lines.append(f"Query: {measure.sql}")
    return TrustedText("definition", f"measure:{measure.name}", measure.name, "\n".join(lines))


def table_text(table: TableInfo) -> TrustedText:
    """A table's trusted text: its description, and each column with its type and description."""
    lines = [f"Table {table.name} ({table.rows} rows): {table.description}".rstrip(": ")]
    for column in table.columns:
        lines.append(
            f"- {column.name} ({column.type})"
            + (f": {column.description}" if column.description else "")
        )
        if column.values:
            lines.append("  values: " + ", ".join(_sql_literal(value) for value in column.values))
    return TrustedText("table", f"table:{table.name}", table.name, "\n".join(lines))


def _sql_literal(value: object) -> str:
    """A value as SQL writes it, so a model can copy it into a filter as it stands."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _describe(
    connection: duckdb.DuckDBPyConnection,
    name: str,
    descriptions: dict[str, str],
    description: str,
    source: Path,
) -> TableInfo:
    rows = connection.execute(f"SELECT count(*) FROM {quote_identifier(name)}").fetchone()
    schema = connection.execute(f"DESCRIBE {quote_identifier(name)}").fetchall()
    unknown = sorted(set(descriptions) - {row[0] for row in schema})
    if unknown:
        raise ProjectError(
            f"Table {name!r} has no column {', '.join(unknown)}; its columns are"
            f" {', '.join(row[0] for row in schema)}. Fix the names under its columns."
        )
    columns = tuple(
        Column(
            row[0],
            str(row[1]),
            descriptions.get(row[0], ""),
            _distinct_values(connection, name, row[0]) if str(row[1]) in _LISTABLE_TYPES else (),
        )
        for row in schema
    )
    return TableInfo(name, description, columns, int(rows[0]) if rows else 0, source)


def _distinct_values(
    connection: duckdb.DuckDBPyConnection, table: str, column: str
) -> tuple[str | int | bool | datetime.date, ...]:
    """The column's distinct non-null values in order, or none when there are too many: one
    scan of the column at open time, on the loader's connection (the owner's data only)."""
    found = connection.execute(
        f"SELECT DISTINCT {quote_identifier(column)} AS v FROM {quote_identifier(table)}"
        f" WHERE v IS NOT NULL ORDER BY v LIMIT {MAX_LISTED_VALUES + 1}"
    ).fetchall()
    values = tuple(row[0] for row in found)
    if len(values) > MAX_LISTED_VALUES or any(
        len(str(value)) > MAX_LISTED_VALUE_CHARS for value in values
    ):
        return ()
    return values


def _dispose(sandbox: QuerySandbox, folder: Path) -> None:
    sandbox.close()
    shutil.rmtree(folder, ignore_errors=True)
