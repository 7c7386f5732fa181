"""The command line names a cited section by the address a reader can open: ``ask``'s
references and ``ask --json`` carry the section's own address when the collection was
ingested with ``--base-url``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from citeline.cli import app

SITE = Path(__file__).parents[1] / "web" / "fixtures" / "site"
BASE_URL = "https://tidewater.example/docs/"
QUESTION = "How do I predict the next high tide?"
SECTION = f"{BASE_URL}guide/predictions.html#predicting-the-next-high-tide"


def ingested(tmp_path: Path) -> str:
    db = str(tmp_path / "site.sqlite")
    result = CliRunner().invoke(app, ["ingest", str(SITE), "--db", db, "--base-url", BASE_URL])
    assert result.exit_code == 0, result.output
    return db


def test_ask_prints_each_reference_with_its_sections_address(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, "--db", ingested(tmp_path)])
    assert result.exit_code == 0, result.output
    _, _, references = result.output.partition("References")
    assert f"[1] Tide predictions › Predicting the next high tide — {SECTION}" in references


def test_ask_json_carries_the_id_and_the_href(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, "--db", ingested(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    (citation,) = [event for event in events if event["event"] == "citation"]
    assert citation["id"] == "guide/predictions#predicting-the-next-high-tide"
    assert citation["href"] == SECTION
    assert "url" not in citation


def test_a_collection_without_addresses_prints_ids_and_no_href(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    notes.write_text(
        '{"_id": "tide-1", "title": "Tides at Brest", "text": "At Brest the tide rises and '
        "falls twice a day, and the range between high and low water reaches seven metres at "
        'spring tides. The harbour master publishes the times of high water every morning."}\n',
        "utf-8",
    )
    db = str(tmp_path / "notes.sqlite")
    assert CliRunner().invoke(app, ["ingest", str(notes), "--db", db]).exit_code == 0
    question = "How high is the tide range at Brest?"
    result = CliRunner().invoke(app, ["ask", question, "--db", db])
    assert "[1] Tides at Brest — tide-1" in result.output
    as_json = CliRunner().invoke(app, ["ask", question, "--db", db, "--json"])
    citations = [json.loads(line) for line in as_json.stdout.splitlines() if '"citation"' in line]
    assert citations and all("href" not in citation for citation in citations)
