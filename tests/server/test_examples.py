"""The empty page's example questions: from a file, else from the project file."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.data import load_project
from citeline.sample import examples_path
from citeline.server.errors import StartupError
from citeline.server.examples import load_examples

PROJECT = """\
[project]
name = "Penguins"
examples = ["How heavy is a Gentoo penguin?", "Which island has most penguins?"]

[tables.penguins]
path = "penguins.csv"
"""


def test_a_project_file_can_name_the_examples_and_still_loads_as_a_project(
    tmp_path: Path,
) -> None:
    (tmp_path / "citeline.toml").write_text(PROJECT, "utf-8")
    (tmp_path / "penguins.csv").write_text("species\nGentoo\n", "utf-8")
    assert load_project(str(tmp_path)).name == "Penguins"
    assert load_examples(None, str(tmp_path)) == (
        "How heavy is a Gentoo penguin?",
        "Which island has most penguins?",
    )


def test_an_examples_file_wins_and_only_its_first_three_questions_are_kept(
    tmp_path: Path,
) -> None:
    (tmp_path / "citeline.toml").write_text(PROJECT, "utf-8")
    examples = tmp_path / "examples.txt"
    examples.write_text("# a comment\n\none?\ntwo?\n  three?  \nfour?\n", "utf-8")
    assert load_examples(examples, str(tmp_path)) == ("one?", "two?", "three?")


def test_an_unreadable_examples_file_stops_start_up_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(StartupError, match="one question a line"):
        load_examples(tmp_path / "missing.txt", None)


def test_the_demo_ships_three_example_questions() -> None:
    assert len(load_examples(examples_path(), None)) == 3
