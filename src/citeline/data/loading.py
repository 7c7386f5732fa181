"""Copy one declared table (CSV, Parquet, SQLite or DuckDB file) into the catalog's database.

Every source file is opened for reading only and never written: CSV and Parquet through
DuckDB's readers, a DuckDB file attached ``READ_ONLY``, a SQLite file through Python's
``sqlite3`` with ``mode=ro&immutable=1`` (DuckDB's SQLite reader is an extension that would
have to be downloaded, and nothing may be downloaded at run time). The connection that
copies them (``open_loader``) may open the declared files and nothing else: a view stored in a
DuckDB source runs when it is copied, and with full file access a view such as
``SELECT * FROM read_text('/etc/passwd')`` put a local file into a table the model could query.
This module does not decide what may be queried afterwards; ``citeline.data.catalog`` owns
that.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, TypeAlias

import duckdb

from citeline.data.errors import ProjectError
from citeline.data.project import TableSpec

SourceFormat: TypeAlias = Literal["csv", "parquet", "sqlite", "duckdb"]

# SQLite inserts go through Python in batches; 5,000 rows keeps one batch's memory small
# while amortising the per-call cost.
_SQLITE_BATCH = 5_000


def detect_format(path: Path) -> SourceFormat:
    """The file's format from its first bytes, and only for text files from its name: a
    ``.db`` may be SQLite or DuckDB, and only the header tells which."""
    try:
        with path.open("rb") as file:
            head = file.read(16)
    except FileNotFoundError:
        raise ProjectError(f"There is no file at {path}; check the table's path.") from None
    except IsADirectoryError:
        raise ProjectError(f"{path} is a folder; give a table the path of one file.") from None
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head[8:12] == b"DUCK":
        return "duckdb"
    if head.startswith(b"PAR1"):
        return "parquet"
    return "csv"


def open_loader(database: Path, tables: Sequence[TableSpec]) -> duckdb.DuckDBPyConnection:
    """A connection to the catalog's new file that may read the declared files and no other.

    DuckDB takes ``allowed_paths`` only once the database is started, so the paths are set
    first, then file access is turned off and the configuration locked: after that no
    statement, a source's view included, can widen it. A DuckDB source's ``.wal`` is allowed
    beside it because ``ATTACH`` looks for one (and finds none in a closed file).
    """
    writer = duckdb.connect(
        str(database),
        config={"autoinstall_known_extensions": False, "autoload_known_extensions": False},
    )
    try:
        allowed = [str(path) for table in tables for path in (table.path, _wal(table.path))]
        writer.execute("SET allowed_paths = $paths", {"paths": allowed})
        writer.execute("SET enable_external_access = false")
        writer.execute("SET lock_configuration = true")
    except BaseException:
        writer.close()
        raise
    return writer


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def load_table(connection: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
    """Create table ``spec.name`` in ``connection`` holding the rows of ``spec.path``."""
    source = detect_format(spec.path)
    target = quote_identifier(spec.name)
    try:
        if source == "csv":
            nulls = ", ".join(_literal(value) for value in spec.nulls)
            options = f", nullstr = [{nulls}]" if spec.nulls else ""
            reader = f"read_csv({_literal(str(spec.path))}{options})"
            connection.execute(f"CREATE TABLE {target} AS SELECT * FROM {reader}")
        elif source == "parquet":
            connection.execute(
                f"CREATE TABLE {target} AS SELECT * FROM read_parquet({_literal(str(spec.path))})"
            )
        elif source == "duckdb":
            _copy_from_duckdb(connection, spec)
        else:
            _copy_from_sqlite(connection, spec)
    except duckdb.Error as error:
        raise ProjectError(
            f"Could not read table {spec.name!r} from {spec.path} as {source}: {error}"
        ) from None


def _copy_from_duckdb(connection: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
    connection.execute(f"ATTACH {_literal(str(spec.path))} AS citeline_source (READ_ONLY)")
    try:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'citeline_source'"
                " UNION SELECT view_name FROM duckdb_views()"
                " WHERE database_name = 'citeline_source' AND NOT internal ORDER BY 1"
            ).fetchall()
        ]
        inner = _pick_table(spec, names)
        connection.execute(
            f"CREATE TABLE {quote_identifier(spec.name)} AS"
            f" SELECT * FROM citeline_source.{quote_identifier(inner)}"
        )
    finally:
        connection.execute("DETACH citeline_source")


def _copy_from_sqlite(connection: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
    # immutable=1: SQLite takes no lock and writes no journal or -shm file beside the source.
    uri = f"{spec.path.as_uri()}?mode=ro&immutable=1"
    try:
        source = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise ProjectError(f"Could not open {spec.path} as SQLite: {error}") from None
    try:
        names = [
            row[0]
            for row in source.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        inner = _pick_table(spec, names)
        columns = source.execute(f"PRAGMA table_info({quote_identifier(inner)})").fetchall()
        definition = ", ".join(
            f"{quote_identifier(column[1])} {_duckdb_type(column[2])}" for column in columns
        )
        connection.execute(f"CREATE TABLE {quote_identifier(spec.name)} ({definition})")
        placeholders = ", ".join("?" for _ in columns)
        insert = f"INSERT INTO {quote_identifier(spec.name)} VALUES ({placeholders})"
        cursor = source.execute(f"SELECT * FROM {quote_identifier(inner)}")
        while batch := cursor.fetchmany(_SQLITE_BATCH):
            connection.executemany(insert, [list(row) for row in batch])
    except sqlite3.Error as error:
        raise ProjectError(f"Could not read {spec.path} as SQLite: {error}") from None
    finally:
        source.close()


def _duckdb_type(declared: Any) -> str:
    """SQLite's column affinity rules (its documentation, section 3.1), as DuckDB types."""
    text = str(declared or "").upper()
    if "INT" in text:
        return "BIGINT"
    if any(word in text for word in ("CHAR", "CLOB", "TEXT")):
        return "VARCHAR"
    if "BLOB" in text:
        return "BLOB"
    if not text:
        return "VARCHAR"
    if any(word in text for word in ("REAL", "FLOA", "DOUB")):
        return "DOUBLE"
    if "BOOL" in text:
        return "BOOLEAN"
    if text.startswith("DATETIME") or text.startswith("TIMESTAMP"):
        return "TIMESTAMP"
    if text.startswith("DATE"):
        return "DATE"
    return "DOUBLE"


def _pick_table(spec: TableSpec, names: list[str]) -> str:
    wanted = spec.table or spec.name
    if wanted in names:
        return wanted
    if spec.table is None and len(names) == 1:
        return names[0]
    if not names:
        raise ProjectError(
            f"{spec.path} holds no tables; point table {spec.name!r} at another file."
        )
    raise ProjectError(
        f"{spec.path} holds tables {', '.join(names)}; say which one table {spec.name!r} is"
        ' with table = "NAME" in the project file.'
    )


def quote_identifier(name: str) -> str:
    """A name as a DuckDB identifier, whatever characters a source file used."""
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
