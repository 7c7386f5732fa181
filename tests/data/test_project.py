"""The project file: what it declares, and the sentences it answers mistakes with."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import pytest

from citeline.data import (
    SAMPLE_PROJECT,
    DataCatalog,
    ParamSpec,
    ProjectError,
    TableSpec,
    load_project,
    parse_project,
    table_option,
)

from .sources import write_csv

PROJECT = """
[project]
name = "Birds"

[tables.penguins]
path = "p.csv"
description = "One row per penguin."
nulls = ["NA"]
columns = { body_mass_g = "Body mass in grams." }

[measures.heaviest]
description = "The heaviest penguin of one species."
sql = "SELECT max(body_mass_g) AS grams FROM penguins WHERE species = $species"
params = { species = { type = "text", description = "A species." } }
"""


def test_a_project_file_declares_tables_and_measures_with_paths_from_its_folder(
    tmp_path: Path,
) -> None:
    (tmp_path / "citeline.toml").write_text(PROJECT, encoding="utf-8")
    project = load_project(tmp_path)
    assert project.name == "Birds"
    assert project.tables == (
        TableSpec(
            "penguins",
            (tmp_path / "p.csv").resolve(),
            "One row per penguin.",
            (("body_mass_g", "Body mass in grams."),),
            None,
            ("NA",),
        ),
    )
    assert project.measures[0].params == (ParamSpec("species", "text", "A species."),)


def test_a_data_option_adds_a_table_to_a_project(tmp_path: Path) -> None:
    write_csv(tmp_path / "p.csv")
    (tmp_path / "citeline.toml").write_text(PROJECT, encoding="utf-8")
    project = load_project(tmp_path).with_tables((table_option("more=p.csv", base=tmp_path),))
    with DataCatalog.open(project) as catalog:
        assert [table.name for table in catalog.tables] == ["penguins", "more"]
        assert catalog.measure("heaviest", {"species": "Gentoo"}).rows == ((5700,),)
    with pytest.raises(ProjectError, match="declared twice"):
        project.with_tables((table_option("Penguins=p.csv", base=tmp_path),))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('description = "One row', 'descripton = "One row'), "unknown key\\(s\\) descripton"),
        (('path = "p.csv"', ""), "has no path"),
        (('type = "text"', 'type = "string"'), "has type 'string'; use one of text, integer"),
        (
            ("WHERE species = $species", "WHERE species = $kind"),
            "uses \\$kind but declares no such parameter",
        ),
        (
            ("[measures.heaviest]", "[measures.heaviest-one]"),
            "measure name 'heaviest-one' should be letters",
        ),
        (('nulls = ["NA"]', 'nulls = "NA"'), "nulls should be a list of strings"),
        (("[project]", "[projct]"), "unknown key\\(s\\) projct"),
        (("sql =", "sequel ="), "unknown key\\(s\\) sequel"),
    ],
)
def test_a_mistake_in_the_project_file_is_a_sentence_naming_the_fix(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    (tmp_path / "citeline.toml").write_text(PROJECT.replace(*edit), encoding="utf-8")
    with pytest.raises(ProjectError, match=message):
        load_project(tmp_path / "citeline.toml")


def test_a_measure_that_is_not_one_select_stops_the_catalog_opening(tmp_path: Path) -> None:
    write_csv(tmp_path / "p.csv")
    raw = tomllib.loads(PROJECT.replace('sql = "SELECT', 'sql = "DELETE FROM penguins; SELECT'))
    with pytest.raises(ProjectError, match="Measure 'heaviest': Send exactly one query"):
        DataCatalog.open(parse_project(raw, root=tmp_path))


def test_a_missing_or_broken_project_file_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="There is no project file at"):
        load_project(tmp_path / "nowhere.toml")
    (tmp_path / "citeline.toml").write_text("[tables\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="is not valid TOML"):
        load_project(tmp_path)


def test_the_sample_opens_with_its_measures_and_every_column_described() -> None:
    with DataCatalog.open(load_project("sample")) as catalog:
        (table,) = catalog.tables
        assert table.rows == 344
        assert all(column.description for column in table.columns)
        assert len(catalog.measures) >= 3
        for measure in catalog.measures:
            arguments = {
                param.name: "Gentoo" if param.name == "species" else "Biscoe"
                for param in measure.params
                if param.required
            }
            assert catalog.measure(measure.name, arguments).rows, measure.name


def test_the_sample_file_is_the_one_the_package_shipped() -> None:
    folder = SAMPLE_PROJECT.parent
    digest = hashlib.sha256((folder / "penguins.csv").read_bytes()).hexdigest()
    assert digest in (folder / "README.md").read_text(encoding="utf-8")
    assert (folder / "LICENSE-palmerpenguins-package").exists()


def test_trusted_text_is_the_text_the_model_is_shown() -> None:
    with DataCatalog.open(load_project("sample")) as catalog:
        trusted = catalog.trusted_texts()
        shown = catalog.describe_measures() + "\n\n" + catalog.describe_tables()
    assert [entry.kind for entry in trusted] == ["definition"] * 4 + ["table"]
    assert shown == "\n\n".join(entry.text for entry in trusted)
    assert "- body_mass_g (BIGINT): Body mass in grams." in trusted[-1].text
