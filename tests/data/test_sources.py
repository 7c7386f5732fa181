"""Tables load from CSV, Parquet, SQLite and DuckDB files, declared in a project or by --data."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from citeline.data import DataCatalog, Project, ProjectError, TableSpec, table_option
from citeline.data.loading import detect_format

from .sources import ROWS, write_all, write_csv, write_duckdb, write_sqlite


@pytest.mark.parametrize("source", ["csv", "parquet", "sqlite", "duckdb"])
def test_every_format_loads_the_same_rows(tmp_path: Path, source: str) -> None:
    path = write_all(tmp_path)[source]
    spec = TableSpec("penguins", path, nulls=("NA",) if source == "csv" else ())
    with DataCatalog.open(Project(tables=(spec,))) as catalog:
        result = catalog.sql("SELECT * FROM penguins ORDER BY body_mass_g NULLS LAST")
    assert result.columns == ("species", "island", "bill_length_mm", "body_mass_g", "sex", "year")
    assert sorted(result.rows, key=lambda row: (row[3] is None, row[3])) == sorted(
        ROWS, key=lambda row: (row[3] is None, row[3])
    )


@pytest.mark.parametrize("source", ["csv", "parquet", "sqlite", "duckdb"])
def test_the_format_is_read_from_the_file_not_its_name(tmp_path: Path, source: str) -> None:
    path = write_all(tmp_path)[source]
    renamed = path.rename(tmp_path / "penguins.db")
    assert detect_format(renamed) == source


def test_a_database_file_with_several_tables_needs_the_table_named(tmp_path: Path) -> None:
    path = write_sqlite(tmp_path / "two.sqlite", table="birds", extra_table="notes")
    with pytest.raises(ProjectError, match="holds tables birds, notes; say which one"):
        DataCatalog.open(Project(tables=(TableSpec("penguins", path),)))
    spec = TableSpec("penguins", path, table="birds")
    with DataCatalog.open(Project(tables=(spec,))) as catalog:
        assert catalog.sql("SELECT count(*) FROM penguins").rows == ((5,),)


def test_a_data_option_names_a_table_and_a_file(tmp_path: Path) -> None:
    write_csv(tmp_path / "p.csv")
    spec = table_option("birds=p.csv", base=tmp_path)
    assert spec == TableSpec("birds", (tmp_path / "p.csv").resolve())


@pytest.mark.parametrize("option", ["p.csv", "=p.csv", "birds=", "1birds=p.csv", "a-b=p.csv"])
def test_a_malformed_data_option_says_how_to_write_it(option: str) -> None:
    with pytest.raises(ProjectError, match=r"NAME=PATH|letters, digits and underscores"):
        table_option(option)


def test_a_missing_file_is_named_in_the_error(tmp_path: Path) -> None:
    spec = TableSpec("penguins", tmp_path / "nowhere.csv")
    with pytest.raises(ProjectError, match=r"There is no file at .*nowhere\.csv"):
        DataCatalog.open(Project(tables=(spec,)))


def test_a_column_description_for_a_column_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    spec = TableSpec("penguins", write_csv(tmp_path / "p.csv"), columns=(("mass", "Mass."),))
    with pytest.raises(ProjectError, match="has no column mass; its columns are species"):
        DataCatalog.open(Project(tables=(spec,)))


def test_a_failed_open_leaves_no_private_database_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    spec = TableSpec("penguins", write_csv(tmp_path / "p.csv"), columns=(("mass", "Mass."),))
    with pytest.raises(ProjectError):
        DataCatalog.open(Project(tables=(spec,)))
    assert list((tmp_path / "tmp").iterdir()) == []


def test_closing_a_catalog_removes_its_private_database(tmp_path: Path) -> None:
    catalog = DataCatalog.open(Project(tables=(TableSpec("p", write_csv(tmp_path / "p.csv")),)))
    folder = catalog.database.parent
    assert folder.exists()
    catalog.close()
    assert not folder.exists()


def test_a_view_in_a_duckdb_source_cannot_read_a_local_file(tmp_path: Path) -> None:
    # Found by attack: the view ran with full file access while the project loaded, so the
    # secret became a table the model could query.
    secret = tmp_path / "secret.txt"
    secret.write_text("the owner's private key", encoding="utf-8")
    path = write_duckdb(tmp_path / "views.duckdb")
    connection = duckdb.connect(str(path))
    connection.execute(f"CREATE VIEW leak AS SELECT content FROM read_text('{secret}')")
    connection.close()
    with pytest.raises(ProjectError, match="file system operations are disabled"):
        DataCatalog.open(Project(tables=(TableSpec("leak", path),)))


def test_a_view_over_the_sources_own_tables_still_loads(tmp_path: Path) -> None:
    path = write_duckdb(tmp_path / "views.duckdb")
    connection = duckdb.connect(str(path))
    connection.execute("CREATE VIEW gentoo AS SELECT * FROM penguins WHERE species = 'Gentoo'")
    connection.close()
    with DataCatalog.open(Project(tables=(TableSpec("gentoo", path),))) as catalog:
        assert catalog.sql("SELECT count(*) FROM gentoo").rows == ((2,),)
