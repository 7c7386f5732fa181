"""The empty page's example questions: from a file, else from the project file, else from
the collection's own headings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citeline.data import load_project
from citeline.sample import examples_path
from citeline.server.errors import StartupError
from citeline.server.examples import MAX_TITLES_READ, SHOWN, collection_examples, load_examples

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


def test_headings_that_are_questions_come_first_and_from_different_pages() -> None:
    titles = [
        "Programming FAQ › General Questions › Is there a debugger for Python?",
        "Programming FAQ › Core Language › Why are default values shared between objects?",
        "Quickstart › Routing › Variable Rules",
        "Design FAQ › Why is Python indented the way it is?",
        "Library FAQ › How do I find the current module name?",
        "Deploying › How to deploy on a small server",
    ]
    examples = collection_examples(titles)
    assert len(examples) == SHOWN
    assert all(question.endswith("?") for question in examples)
    one_page = {"Why are default values shared between objects?", "Is there a debugger for Python?"}
    assert len(one_page & set(examples)) <= 1
    assert "Why is Python indented the way it is?" in examples
    assert "How do I find the current module name?" in examples


def test_how_to_headings_and_topics_are_phrased_as_questions() -> None:
    titles = [
        "Deploying › How to deploy on a small server",
        "Quickstart › Routing › Variable Rules",
        "Patterns › Message Flashing",
    ]
    assert collection_examples(titles) == (
        "How do I deploy on a small server?",
        "What should I know about Variable Rules?",
        "What should I know about Message Flashing?",
    )


def test_code_numbering_labels_and_sentences_make_no_example() -> None:
    titles = [
        "API › os.path.join()",
        "Reference › 6.2.1. Identifiers",
        "Guide › Introduction",
        "Guide › This heading is far too long to be a topic anyone types in",
        "Guide › <script>alert(1)</script>",
        "Guide › Is it?",
    ]
    assert collection_examples(titles) == ()


def test_only_the_first_titles_are_read_however_large_the_collection() -> None:
    def endless() -> Iterator[str]:
        n = 0
        while True:
            n += 1
            yield f"Page {n} › Chapter"
            if n > MAX_TITLES_READ * 2:
                raise AssertionError("read past the bound")

    assert collection_examples(endless()) == ()
