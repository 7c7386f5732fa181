"""One index setting everywhere: ingest, search, ask and serve agree on where the index is
with no ``--db`` at all, and a command that answers never answers from a missing or empty
index. Also: the command line loads no web server, model library or DuckDB to start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus

runner = CliRunner()
PAGE = "# Caspases\n\nCaspases execute the apoptosis program in the cell.\n"


@pytest.fixture
def working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working folder with no index setting in the environment."""
    for name in ("CITELINE_DATABASE_URL", "CITELINE_DB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "caspases.md").write_text(PAGE, "utf-8")
    return tmp_path


def test_ingest_then_serve_with_no_db_on_either_serves_that_index(working_folder: Path) -> None:
    ingested = runner.invoke(app, ["ingest", "docs"])
    assert ingested.exit_code == 0, ingested.output
    env = {name: value for name, value in os.environ.items() if not name.startswith("CITELINE_")}
    with _free_port() as port, (working_folder / "serve.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "citeline", "serve", "--open", "--port", str(port)],
            cwd=working_folder,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_until_healthy(url, server, working_folder / "serve.log")
        hits = httpx.get(f"{url}/v1/search", params={"q": "apoptosis program"}).json()
    finally:
        server.terminate()
        server.wait(10)
    assert [hit["id"] for hit in hits] == ["caspases"]


@contextmanager
def _free_port() -> Iterator[int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    yield port


def _wait_until_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text("utf-8", errors="replace")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(log.read_text("utf-8", errors="replace"))


@pytest.mark.parametrize(
    "command",
    [["search", "caspase"], ["ask", "What do caspases do?"], ["serve", "--open", "--port", "0"]],
    ids=["search", "ask", "serve"],
)
def test_answering_from_a_missing_index_stops_with_how_to_build_it(
    working_folder: Path, command: list[str]
) -> None:
    result = runner.invoke(app, command)
    assert result.exit_code == 2
    assert "There is no index at citeline.sqlite" in result.stderr
    assert "`citeline ingest PATH`" in result.stderr
    assert not (working_folder / "citeline.sqlite").exists()


@pytest.mark.parametrize(
    "command",
    [["search", "caspase"], ["ask", "What do caspases do?"], ["serve", "--open", "--port", "0"]],
    ids=["search", "ask", "serve"],
)
def test_answering_from_an_empty_index_stops_with_how_to_build_it(
    working_folder: Path, command: list[str]
) -> None:
    Corpus.open(working_folder / "other.sqlite").close()
    result = runner.invoke(app, [*command, "--db", "other.sqlite"])
    assert result.exit_code == 2
    assert "The index at other.sqlite holds no documents" in result.stderr
    assert "`citeline ingest PATH --db other.sqlite`" in result.stderr


def test_the_index_setting_is_also_read_from_citeline_database_url(
    working_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITELINE_DATABASE_URL", f"sqlite:///{working_folder / 'env.sqlite'}")
    assert runner.invoke(app, ["ingest", "docs"]).exit_code == 0
    assert (working_folder / "env.sqlite").is_file()
    found = runner.invoke(app, ["search", "apoptosis"])
    assert found.exit_code == 0 and "[caspases]" in found.stdout


def test_the_command_line_imports_no_web_server_model_library_or_duckdb() -> None:
    heavy = ("fastapi", "uvicorn", "starlette", "pydantic_ai", "duckdb")
    probe = f"import sys, citeline.cli; print([m for m in {heavy!r} if m in sys.modules])"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.strip() == "[]"
