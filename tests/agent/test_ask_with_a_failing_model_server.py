"""``citeline ask`` when the model server fails: one sentence, exit status 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.openai_stub import ScriptedOpenAIServer

from citeline.corpus import Corpus

# The body llama-cpp-python's server sent for an assistant message with "content": null.
REFUSAL = '{"error":{"message":"7 validation errors: Input should be \'system\'","code":500}}'


def _ask(server: ScriptedOpenAIServer, index: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "x"}
    return subprocess.run(
        [
            *(sys.executable, "-m", "citeline", "ask", "What do caspases do?"),
            *("--db", str(index), "--model", "openai:scripted", "--max-tokens", "64"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_model_server_that_fails_is_one_sentence_and_exit_2(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, tmp_path: Path
) -> None:
    openai_server.responder = lambda body: {"status": 500, "raw": REFUSAL}
    done = _ask(openai_server, tmp_path / "index.db")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("citeline ask:")]
    assert len(lines) == 1
    assert lines[0].startswith("citeline ask: The model server answered HTTP 500")
    # The retry is the operator's business, said once; nothing else reaches the terminal.
    others = [line for line in done.stderr.splitlines() if line and line not in lines]
    assert all("sending the request again" in line for line in others), others
    assert openai_server.requests()[0]["max_tokens"] == 64


def test_a_model_server_that_cannot_be_reached_is_one_sentence_and_exit_2(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, tmp_path: Path
) -> None:
    openai_server.stop()
    done = _ask(openai_server, tmp_path / "index.db")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "citeline ask: The model server failed" in done.stderr


def test_a_model_servers_error_message_writes_no_control_character_to_the_terminal(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, tmp_path: Path
) -> None:
    # Issue 29: the server's own words reach the terminal in this sentence; an OSC 8 link
    # or a cursor move in them must be shown, not obeyed.
    forged = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \x1b[2A\x9b"
    refusal = forged  # not JSON: some servers answer a fault in plain text
    openai_server.responder = lambda body: {"status": 500, "raw": refusal}
    done = _ask(openai_server, tmp_path / "index.db")
    assert done.returncode == 2, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("citeline ask:"))
    assert "\x1b" not in line and "\x9b" not in line
    assert "\\x1b]8;;https://evil.example" in line
