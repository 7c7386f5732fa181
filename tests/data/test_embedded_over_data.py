"""The embedded model over data: a measure only when it computes the figure asked for (then
``verified``), else its own query (``untrusted``), else ``nothing_found``; answers read as
sentences with the figure linked to the measure or query that made it."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from citeline.agent import answer
from citeline.cli import app
from citeline.corpus import Corpus
from citeline.data import DataCatalog, Project, TableSpec
from citeline.evaluation.answer_checks import missing_figures
from citeline.evaluation.questions import load_questions
from citeline.events import Citation, Done, Event, Token

from .sources import write_csv


async def collect(question: str, data: DataCatalog) -> list[Event]:
    return [event async for event in answer(question, data=data)]


def prose(events: list[Event]) -> str:
    return "".join(event.text for event in events if isinstance(event, Token))


def done(events: list[Event]) -> Done:
    last = events[-1]
    assert isinstance(last, Done)
    return last


def sources(events: list[Event]) -> list[tuple[str | None, str]]:
    return [(e.id, e.display_name) for e in events if isinstance(e, Citation)]


async def test_a_question_a_measure_computes_is_answered_by_it_and_verified(
    sample: DataCatalog,
) -> None:
    events = await collect("What is the average body mass of Gentoo penguins?", sample)
    assert prose(events) == (
        "The average body mass in grams of penguins where species is Gentoo is 5,076.0"
        " (123 penguins)."
    )
    assert sources(events) == [
        ("measure:average_body_mass?species=Gentoo", "average_body_mass(species='Gentoo')")
    ]
    assert (done(events).state, done(events).provenance) == ("answered", "verified")


async def test_a_value_the_measure_groups_by_picks_its_row(sample: DataCatalog) -> None:
    events = await collect("What is the shortest flipper length among Adelie penguins?", sample)
    assert prose(events) == (
        "The shortest flipper length in millimetres of penguins where species is Adelie is 172."
    )
    assert done(events).provenance == "verified"


@pytest.mark.parametrize(
    ("question", "why"),
    [
        # Found by use: both got the flipper-length measure, labelled verified.
        ("How many penguins of each species?", "no measure counts every species"),
        ("Which island has the heaviest penguins?", "no measure ranks islands"),
        ("What was the average body mass of Gentoo penguins in 2009?", "the measure splits by sex"),
        ("What is the average body mass of the penguins on Dream island?", "no island parameter"),
        ("What was the average flipper length of the penguins observed in 2009?", "no year"),
        ("How many penguins were observed on Torgersen?", "the measure splits by species"),
        ("How many Gentoo penguins weigh more than 5,000 g?", "no measure compares"),
        ("What is the average body mass of penguins in 2008?", "a default is not a choice"),
    ],
)
async def test_a_measure_that_computes_another_figure_is_never_called(
    sample: DataCatalog, question: str, why: str
) -> None:
    events = await collect(question, sample)
    assert done(events).provenance != "verified", why


async def test_a_figure_no_measure_gives_is_queried_and_labelled_untrusted(
    sample: DataCatalog,
) -> None:
    events = await collect("How many Gentoo penguins weigh more than 5,000 g?", sample)
    assert prose(events) == (
        "There are 61 penguins where species is Gentoo and body mass in grams is over 5,000."
    )
    ((source_id, query),) = sources(events)
    assert source_id is not None and source_id.startswith("query:")
    assert query == (
        "SELECT count(*) AS count FROM penguins WHERE species = 'Gentoo' AND body_mass_g > 5000"
    )
    assert (done(events).state, done(events).provenance) == ("answered", "untrusted")


async def test_a_figure_per_group_comes_with_a_table(sample: DataCatalog) -> None:
    events = await collect("Which island has the heaviest penguins on average?", sample)
    assert prose(events) == (
        "Biscoe has the highest average body mass in grams of penguins: 4,716.0 (167 penguins).\n"
        "\n| island | average body mass in grams | penguins |\n| --- | --- | --- |\n"
        "| Biscoe | 4,716.0 | 167 |\n| Dream | 3,712.9 | 124 |\n| Torgersen | 3,706.4 | 51 |\n"
    )


@pytest.mark.parametrize(
    "question",
    [
        "What colour are penguin eggs?",
        "How long do Gentoo penguins live?",
        "What was the air temperature on Biscoe island in 2008?",
    ],
)
async def test_a_question_the_data_does_not_record_is_nothing_found(
    sample: DataCatalog, question: str
) -> None:
    events = await collect(question, sample)
    assert prose(events).startswith("Nothing in this data records that")
    assert (done(events).state, done(events).provenance) == ("nothing_found", "none")


async def test_any_table_with_a_project_file_is_read_the_same_way(tmp_path: Path) -> None:
    # Not the sample: another table name and no column descriptions; values are looked up.
    table = TableSpec("birds", write_csv(tmp_path / "birds.csv"), nulls=("NA",))
    with DataCatalog.open(Project(tables=(table,))) as catalog:
        events = await collect("What is the average body_mass_g of birds on Biscoe?", catalog)
        assert prose(events) == (
            "The average body mass g of birds where island is Biscoe is 5,100.0 (2 birds)."
        )
        events = await collect("How many birds of each species are there?", catalog)
        assert "| Adelie | 2 |" in prose(events) and "| Gentoo | 2 |" in prose(events)


def test_citeline_ask_answers_from_the_bundled_sample() -> None:
    result = CliRunner().invoke(
        app,
        ["ask", "How many female penguins were observed in 2008?", "--project", "sample", "--json"],
    )
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    text = "".join(event["text"] for event in events if event["event"] == "token")
    assert text == "There are 56 penguins where sex is female and year is 2008."
    assert events[-1]["provenance"] == "untrusted"


def test_citeline_ask_without_a_corpus_or_data_says_what_to_pass() -> None:
    result = CliRunner().invoke(app, ["ask", "How many?"])
    assert result.exit_code == 2
    assert "try --project sample" in result.output


_AGGREGATES = {
    "average": "avg",
    "mean": "avg",
    "longest": "max",
    "heaviest": "max",
    "shortest": "min",
    "lightest": "min",
}
_MEASURED = {
    "body mass": "body_mass_g",
    "flipper length": "flipper_length_mm",
    "bill length": "bill_length_mm",
}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    word=st.sampled_from(sorted(_AGGREGATES)),
    measured=st.sampled_from(sorted(_MEASURED)),
    species=st.sampled_from([None, "Adelie", "Chinstrap", "Gentoo"]),
    island=st.sampled_from([None, "Biscoe", "Dream", "Torgersen"]),
    year=st.sampled_from([None, 2007, 2008, 2009]),
    sex=st.sampled_from([None, "female", "male"]),
)
def test_a_verified_figure_is_always_the_figure_asked_for(
    sample: DataCatalog,
    word: str,
    measured: str,
    species: str | None,
    island: str | None,
    year: int | None,
    sex: str | None,
) -> None:
    # Questions in every combination of aggregate, column and filters: whenever the answer is
    # labelled verified, its one figure is the figure the question asks for, computed here
    # directly over the table.
    who = " ".join(part for part in (sex, species) if part)
    where = "".join([f" on {island} island" if island else "", f" in {year}" if year else ""])
    question = f"What is the {word} {measured} of {who + ' ' if who else ''}penguins{where}?"
    events = asyncio.run(collect(question, sample))
    if done(events).provenance != "verified":
        return
    column = _MEASURED[measured]
    filters = [
        f"{name} = '{value}'" if isinstance(value, str) else f"{name} = {value}"
        for name, value in (("species", species), ("island", island), ("year", year), ("sex", sex))
        if value is not None
    ]
    truth = sample.sql(
        f"SELECT round({_AGGREGATES[word]}({column}), 1) FROM penguins"
        + (f" WHERE {' AND '.join(filters)}" if filters else "")
    ).rows[0][0]
    assert truth is not None
    figures = [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", prose(events))]
    assert float(truth) in figures, (question, prose(events))
    assert "|" not in prose(events), "a verified answer to a one-figure question is one figure"


@pytest.fixture
def small_corpus(tmp_path: Path) -> Iterator[Corpus]:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lists.md").write_text(
        "---\nid: lists\ntitle: Lists\n---\n# Lists\n\n"
        "The longest list you can make is bounded only by memory. How many items a list"
        " holds is len(items).\n",
        encoding="utf-8",
    )
    index = Corpus.open(tmp_path / "index.db")
    index.ingest(folder)
    yield index


async def test_beside_documents_a_question_naming_the_tables_columns_is_answered_from_data(
    sample: DataCatalog, small_corpus: Corpus
) -> None:
    events = [
        event
        async for event in answer(
            "What is the average flipper length of each species?", corpus=small_corpus, data=sample
        )
    ]
    assert done(events).provenance == "verified"
    assert "| Gentoo | 217.2 |" in prose(events)


@pytest.mark.parametrize(
    "question", ["How many items does a list hold?", "What is the longest list you can make?"]
)
async def test_beside_documents_a_question_about_neither_table_nor_column_goes_to_documents(
    sample: DataCatalog, small_corpus: Corpus, question: str
) -> None:
    events = [event async for event in answer(question, corpus=small_corpus, data=sample)]
    assert done(events).provenance == "sourced"
    assert sources(events) == [("lists", "Lists")]


DEVELOPMENT_SET = (
    Path(__file__).resolve().parents[2] / "benchmarks" / "questions" / "penguins.jsonl"
)


async def test_on_the_development_set_no_wrong_figure_is_labelled_verified(
    sample: DataCatalog,
) -> None:
    # Issue #12's acceptance, held as a test: every verified answer deserves its label (the
    # question expects a measure, and every expected figure is there), and at least nine in
    # ten answers carry their figures.
    right = 0
    with_figures = 0
    for question in load_questions(DEVELOPMENT_SET):
        events = await collect(question.question, sample)
        missing = missing_figures(prose(events), question.figures)
        if done(events).provenance == "verified":
            assert question.expects == "measure" and not missing, question.id
        if question.figures:
            with_figures += 1
            right += not missing
    assert with_figures >= 20 and right / with_figures >= 0.9
