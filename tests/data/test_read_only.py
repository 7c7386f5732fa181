"""Ad-hoc SQL cannot write: every write attempt is refused, the source files stay byte-identical."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from citeline.data import DataCatalog, Project, QueryFailedError, QueryRefusedError, TableSpec
from citeline.data.readonly import open_read_only

from .sources import write_all


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` (a journal or WAL file appearing would show here) by its hash."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.iterdir())
        if path.is_file()
    }


@pytest.fixture
def sources(tmp_path: Path) -> dict[str, Path]:
    return write_all(tmp_path)


@pytest.fixture
def catalog(sources: dict[str, Path]) -> Iterator[DataCatalog]:
    tables = (
        TableSpec("from_csv", sources["csv"], nulls=("NA",)),
        TableSpec("from_parquet", sources["parquet"]),
        TableSpec("from_sqlite", sources["sqlite"]),
        TableSpec("from_duckdb", sources["duckdb"]),
    )
    with DataCatalog.open(Project(tables=tables)) as opened:
        yield opened


def write_attempts(sources: dict[str, Path]) -> list[str]:
    duck, lite, csv = sources["duckdb"], sources["sqlite"], sources["csv"]
    return [
        "INSERT INTO from_csv SELECT * FROM from_csv",
        "UPDATE from_duckdb SET body_mass_g = 0",
        "DELETE FROM from_sqlite",
        "CREATE TABLE stolen AS SELECT * FROM from_csv",
        "DROP TABLE from_parquet",
        "ALTER TABLE from_csv RENAME TO gone",
        f"ATTACH '{duck}' AS source",
        f"ATTACH '{lite}' AS source (TYPE sqlite)",
        f"COPY from_csv TO '{csv}'",
        f"COPY from_csv FROM '{csv}'",
        f"EXPORT DATABASE '{csv.parent}'",
        "PRAGMA enable_checkpoint_on_shutdown",
        "PRAGMA threads = 1",
        "SET enable_external_access = true",
        "CHECKPOINT",
        "VACUUM",
        "INSTALL sqlite",
        "LOAD sqlite",
        "CALL pragma_version()",
        "CREATE MACRO twice(x) AS x * 2",
        "SELECT 1; DROP TABLE from_csv",
        "SELECT 1; SELECT 2",
        f"SELECT count(*) FROM from_csv; COPY from_csv TO '{csv}'",
    ]


def test_every_write_attempt_is_refused_and_the_files_are_byte_identical(
    sources: dict[str, Path], catalog: DataCatalog
) -> None:
    folder = sources["csv"].parent
    before = snapshot(folder)
    for attempt in write_attempts(sources):
        with pytest.raises(QueryRefusedError):
            catalog.sql(attempt)
    assert catalog.sql("SELECT count(*) FROM from_csv").rows == ((5,),)
    assert snapshot(folder) == before


def test_a_refusal_tells_the_model_what_is_allowed(catalog: DataCatalog) -> None:
    with pytest.raises(
        QueryRefusedError, match=r"Only a read query \(SELECT\) is allowed; this is INSERT"
    ):
        catalog.sql("INSERT INTO from_csv SELECT * FROM from_csv")
    with pytest.raises(QueryRefusedError, match="exactly one query; this text holds 2 statements"):
        catalog.sql("SELECT 1; SELECT 2")


def test_a_select_cannot_read_or_write_files(
    sources: dict[str, Path], catalog: DataCatalog
) -> None:
    folder = sources["csv"].parent
    before = snapshot(folder)
    for query in [
        f"SELECT * FROM read_csv('{sources['csv']}')",
        f"SELECT * FROM read_parquet('{sources['parquet']}')",
        "SELECT * FROM glob('/*')",
        "SELECT * FROM read_text('/etc/hostname')",
    ]:
        with pytest.raises(QueryFailedError, match="file system operations are disabled"):
            catalog.sql(query)
    assert snapshot(folder) == before


def test_the_connection_itself_refuses_writes_that_the_statement_check_would_miss(
    sources: dict[str, Path], catalog: DataCatalog
) -> None:
    # The second layer alone, with the statement check bypassed: the connection a query
    # worker opens, read-only with file access disabled and the configuration locked.
    folder = sources["csv"].parent
    before = snapshot(folder)
    connection = open_read_only(catalog.database, catalog.limits)
    try:
        for statement in [
            "INSERT INTO from_csv SELECT * FROM from_csv",
            "CREATE TABLE stolen AS SELECT 1",
            f"ATTACH '{sources['duckdb']}' AS source",
            f"COPY from_csv TO '{sources['csv']}'",
            "SET enable_external_access = true",
            "SET memory_limit = '64GB'",
            "SET threads = 8",
            "INSTALL httpfs",
        ]:
            with pytest.raises(duckdb.Error):
                connection.execute(statement)
    finally:
        connection.close()
    assert snapshot(folder) == before
