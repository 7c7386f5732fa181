"""The embedded model over the bundled sample: ``citeline ask --project sample`` works offline,
a measure's answer is ``verified``, a counted answer backs itself with a quote that verifies."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from citeline.agent import answer
from citeline.cli import app
from citeline.data import DataCatalog
from citeline.events import Citation, Done, Event, Token


async def collect(question: str, data: DataCatalog) -> list[Event]:
    return [event async for event in answer(question, data=data)]


async def test_a_question_a_measure_describes_is_answered_by_the_measure(
    sample: DataCatalog,
) -> None:
    events = await collect("What is the average body mass of Gentoo penguins?", sample)
    text = "".join(event.text for event in events if isinstance(event, Token))
    assert "average_body_mass" in text and "5076.0" in text
    assert events[-1] == Done("answered", events[-1].seconds, provenance="verified")  # type: ignore[union-attr]


async def test_a_count_no_measure_gives_is_queried_and_labelled_untrusted(
    sample: DataCatalog,
) -> None:
    events = await collect("How many Gentoo penguins are there?", sample)
    text = "".join(event.text for event in events if isinstance(event, Token))
    assert text.startswith("I counted 124 rows in penguins where species is Gentoo")
    assert not [event for event in events if isinstance(event, Citation)]
    assert isinstance(events[-1], Done) and events[-1].provenance == "untrusted"


async def test_a_question_nothing_fits_says_so_instead_of_guessing(sample: DataCatalog) -> None:
    events = await collect("What colour are penguin eggs?", sample)
    text = "".join(event.text for event in events if isinstance(event, Token))
    assert text.startswith("None of the measures answers that")
    assert isinstance(events[-1], Done) and events[-1].provenance == "none"


def test_citeline_ask_answers_from_the_bundled_sample() -> None:
    result = CliRunner().invoke(
        app,
        ["ask", "How many female penguins were observed in 2008?", "--project", "sample", "--json"],
    )
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    text = "".join(event["text"] for event in events if event["event"] == "token")
    assert text.startswith("I counted 56 rows in penguins where sex is female and year is 2008")
    assert events[-1]["provenance"] == "untrusted"


def test_citeline_ask_without_a_corpus_or_data_says_what_to_pass() -> None:
    result = CliRunner().invoke(app, ["ask", "How many?"])
    assert result.exit_code == 2
    assert "try --project sample" in result.output
