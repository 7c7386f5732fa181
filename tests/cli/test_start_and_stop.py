"""Starting and stopping as a person at a terminal does: a taken port is one sentence, Ctrl+C
is one line and status 0, every error names its command, every log line names citeline.

The commands run as separate processes, each in its own process group as a terminal's
foreground job is, so Ctrl+C (SIGINT to the whole group) reaches the data workers too.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from tests.support.query_workers import query_workers

COMMAND = [sys.executable, "-m", "citeline"]
DATA_QUESTION = "What is the average body mass of Gentoo penguins?"
# Indexing the sample with its vectors and starting: about 12 s of CPU on the build machine
# (docs/benchmarks.md's embedding row); 90 s ran out at load 7 on two shared cores.
START_SECONDS = 240


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def taken_port() -> Iterator[int]:
    """A port another program listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "CITELINE_DB": ""}


@pytest.mark.parametrize("command", [["demo"], ["serve", "--open"]], ids=["demo", "serve"])
def test_a_taken_port_is_one_sentence_naming_port_and_status_2(
    command: list[str], tmp_path: Path
) -> None:
    with taken_port() as port:
        finished = subprocess.run(
            [*COMMAND, *command, "--port", str(port), "--db", str(tmp_path / "i.sqlite")],
            capture_output=True,
            text=True,
            timeout=60,
            env=environment(tmp_path),
        )
    assert finished.returncode == 2, finished.stderr
    assert finished.stdout == ""  # nothing printed before it: no "Open http://..." link
    lines = finished.stderr.splitlines()
    assert len(lines) == 1, finished.stderr
    assert lines[0].startswith(f"citeline {command[0]}: Port {port} ")
    assert "--port" in lines[0] and lines[0].endswith(".")
    # Found before any work was done: the demo's ingest would have made the database. (A
    # bound on its seconds failed at load 5 on two cores, and says no more than this.)
    assert not (tmp_path / "i.sqlite").exists()


@contextmanager
def running_demo(
    tmp_path: Path, *flags: str
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    port = free_port()
    log = tmp_path / "demo.err"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*COMMAND, "demo", "--port", str(port), "--db", str(tmp_path / "demo.sqlite"), *flags],
            stdout=subprocess.DEVNULL,
            stderr=sink,
            env=environment(tmp_path),
            start_new_session=True,  # its own process group, as a terminal's job
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield process, base, log
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


def test_ctrl_c_ends_the_demo_with_a_data_question_in_flight_in_one_line_and_status_0(
    tmp_path: Path,
) -> None:
    # Four readers without a pause pass the default 30 answers a window in well under a
    # second when answers are quick, and each refusal is a log line of its own.
    with running_demo(tmp_path, "--rate-limit", "1000000") as (process, base, log):
        answered = httpx.post(
            f"{base}/v1/answer", json={"question": DATA_QUESTION, "caller_token": ""}, timeout=30
        )
        assert '"provenance":"verified"' in answered.text
        workers = query_workers(process.pid)
        assert workers, "the demo started no data worker"
        # Readers asking data questions without a pause, so some are in flight at Ctrl+C.
        stop = threading.Event()

        def ask_again() -> None:
            with httpx.Client(timeout=30) as client:
                while not stop.is_set():
                    try:
                        with client.stream(
                            "POST",
                            f"{base}/v1/answer",
                            json={"question": DATA_QUESTION, "caller_token": ""},
                        ) as response:
                            for _ in response.iter_lines():
                                pass
                    except httpx.HTTPError:
                        return

        readers = [threading.Thread(target=ask_again) for _ in range(4)]
        for reader in readers:
            reader.start()
        time.sleep(1.0)
        before = log.read_text()
        os.killpg(process.pid, signal.SIGINT)
        try:
            status = process.wait(timeout=30)
        finally:
            stop.set()
            for reader in readers:
                reader.join(timeout=30)
        after = log.read_text()[len(before) :]
    assert status == 0, after
    assert "Traceback" not in after and "KeyboardInterrupt" not in after, after
    assert len(after.splitlines()) == 1, after
    assert after.rstrip().endswith("citeline.server.stopping: Stopped by Ctrl+C.")
    for pid in workers:
        assert not alive(pid), f"data worker {pid} outlived the demo"


def test_every_log_line_of_a_demo_names_a_citeline_logger(tmp_path: Path) -> None:
    with running_demo(tmp_path) as (process, base, log):
        httpx.post(
            f"{base}/v1/answer", json={"question": DATA_QUESTION, "caller_token": ""}, timeout=30
        )
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=30) == 0
    lines = log.read_text().splitlines()
    assert any("Serving on http://127.0.0.1:" in line for line in lines)
    for line in lines:
        name = line.split(" ", 3)[3].split(":", 1)[0]
        assert name.startswith("citeline."), line
        assert "uvicorn" not in line, line


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["search", "anything", "--db", "missing.sqlite"], "citeline search: "),
        (["ingest", "no-such-folder"], "citeline ingest: "),
        (["ingest", "x", "--base-url", "ftp://example.org/"], "citeline ingest: "),
        (["reindex", "--db", "missing.sqlite"], "citeline reindex: "),
        (
            ["eval", "retrieval", "--db", "missing.sqlite", "--beir", "."],
            "citeline eval retrieval: ",
        ),
    ],
    ids=["search", "ingest", "ingest base url", "reindex", "eval retrieval"],
)
def test_every_commands_error_carries_its_name(
    command: list[str], name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from citeline.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").mkdir()
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(name), result.stderr


def test_open_mode_with_a_limit_of_one_says_one_answer(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    from citeline.server.guard import Guard
    from citeline.server.settings import ServerSettings

    Guard.from_settings(ServerSettings(db=tmp_path / "i.sqlite", open=True, rate_limit=1))
    assert "limited to 1 answer per 600 s" in caplog.text
