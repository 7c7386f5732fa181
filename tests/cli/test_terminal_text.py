"""``citeline ask`` writes no control character a model wrote (issue 29, item 10).

Probed: a model's ``ESC ] 8 ;; URL ESC \\`` became a clickable link in the terminal, and other
sequences clear the screen or move the cursor up over earlier lines (a forged footer). The
answer here comes from a real OpenAI-protocol server scripted to write them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citeline.cli import app
from citeline.cli.terminal_text import json_text, printable
from citeline.corpus import Corpus

ScriptedOpenAIServer = Any  # the conftest fixture's server
runner = CliRunner()
# Every control character a terminal obeys: C0 but newline and tab, DEL, C1.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
HOSTILE = (
    "Apoptosis is programmed cell death.\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"
    "\x1b[2J\x1b[1A\rReferences: none\x9b31m\x07\x7f\x00 Done."
)


@pytest.fixture
def index(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "apoptosis.md").write_text(
        "---\nid: R-HSA-109581\n---\n# Apoptosis\x1b[31m\n\n"
        "Apoptosis is a form of programmed cell death.\n",
        encoding="utf-8",
    )
    database = tmp_path / "index.db"
    with Corpus.open(database) as corpus:
        corpus.ingest(folder)
    return database


def _ask(index: Path, *options: str) -> str:
    result = runner.invoke(
        app,
        ["ask", "What is apoptosis?", "--db", str(index), "--model", "openai:scripted", *options],
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_no_control_character_the_model_wrote_reaches_the_terminal(
    openai_server: ScriptedOpenAIServer, index: Path
) -> None:
    openai_server.script = [
        {"calls": [["read", {"id": "R-HSA-109581"}]]},
        {"text": [HOSTILE[:20], HOSTILE[20:45], HOSTILE[45:], " [Apoptosis](cite:R-HSA-109581)"]},
    ]
    shown = _ask(index)
    assert CONTROL.search(shown) is None
    # Shown, not dropped: the reader can see that something was there.
    assert "\\x1b]8;;https://evil.example\\x1b\\click" in shown
    assert "\\x9b31m" in shown
    # The document's own title reaches the references the same way.
    assert "Apoptosis\\x1b[31m" in shown


def test_json_lines_carry_no_control_character_and_decode_to_what_the_model_wrote(
    openai_server: ScriptedOpenAIServer, index: Path
) -> None:
    openai_server.script = [{"text": [HOSTILE]}]
    shown = _ask(index, "--json")
    assert CONTROL.search(shown) is None
    events = [json.loads(line) for line in shown.splitlines()]
    text = "".join(event["text"] for event in events if event["event"] == "token")
    assert "\x1b]8;;https://evil.example" in text and "\x9b31m" in text


def test_prose_newlines_tabs_and_non_ascii_text_are_left_as_they_are() -> None:
    text = "Line one\n\tindented — café 細胞 ✓\n"
    assert printable(text) == text
    assert json.loads(json_text(text)) == text
    # A CRLF is a line ending: the CR goes, the line stays.
    assert printable("one\r\ntwo") == "one\ntwo"
