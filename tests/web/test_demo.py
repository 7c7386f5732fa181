"""``citeline demo``: one command indexes the bundled sample and serves an answering page.

The command runs as a reader would run it (a separate process, its own port and index
file), and the page it serves must answer the sample question with at least one chip.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from citeline.cli.demo import default_demo_db
from citeline.sample import sample_path

# Ingesting the sample and starting the server take about two seconds here; the bound
# leaves room for a slow, shared CI machine.
START_SECONDS = 90


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``citeline demo`` on a free port; yields its base URL and its captured output file."""
    port = free_port()
    output = tmp_path / "demo.log"
    with output.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "citeline", "demo", "--port", str(port),
             "--db", str(tmp_path / "demo.sqlite")],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"citeline demo exited early:\n{output.read_text()}")
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"citeline demo did not start:\n{output.read_text()}")
            time.sleep(0.2)
        yield base, output
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_demo_serves_the_sample_and_answers_with_a_chip(
    demo: tuple[str, Path], page: Page
) -> None:
    base, output = demo
    documents = len(list(sample_path().rglob("*.md")))
    log = output.read_text()
    assert f"Sample collection: {documents} sections" in log
    assert f"added {documents}," in log
    assert f"Open {base}/" in log
    assert "The demo's index: " in log and "demo.sqlite" in log

    page.goto(f"{base}/?q=How+do+I+sort+a+list+of+dictionaries+by+a+key%3F")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    info = httpx.get(f"{base}/v1/info", timeout=10).json()
    assert info["documents"] == documents and len(info["examples"]) == 3
    model = info["model"]
    assert model.startswith("embedded")
    expect(page.locator("#answer .model-name")).to_have_text(model)
    expect(page.locator("#answer .chip a").first).to_have_attribute(
        "href", re.compile(r"^https://docs\.python\.org/3\.11/")
    )


def test_the_demo_index_lives_in_the_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/data")
    assert default_demo_db() == Path("/srv/data/citeline/demo.sqlite")
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert default_demo_db() == Path.home() / ".local/share/citeline/demo.sqlite"
