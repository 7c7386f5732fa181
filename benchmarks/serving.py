"""A ``citeline serve`` process for the serving benchmarks (``server.py``, ``streams.py``,
``serve_memory.py``, ``hostile.py``): a free loopback port, the server started and waited
for until it answers, its CPU read from ``/proc``, and the sample indexed as the demo does."""

from __future__ import annotations

import math
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import httpx

from citeline.agent.meaning import ingest_reading
from citeline.corpus import Corpus
from citeline.sample import RELEASE, sample_path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used; NaN where /proc is absent."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return math.nan
    # Fields 14 and 15 are utime and stime, in clock ticks; the command name (field 2) may
    # hold spaces, so count from the closing parenthesis.
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sample_index(db: Path) -> Path:
    """``db``, the bundled sample indexed as the demo indexes it: hybrid where the dense extra
    is installed, with the vectors of what the embedded model reads for meaning."""
    with Corpus.open(db) as corpus:
        corpus.ingest(sample_path(), release=RELEASE, reading=ingest_reading())
    return db


def serve(
    arguments: Sequence[str],
    *,
    log: Path,
    env: Mapping[str, str],
    seconds: float,
    ready: Callable[[str], bool] = lambda log_text: True,
) -> tuple[subprocess.Popen[bytes], str]:
    """``citeline serve arguments`` on a free loopback port, logging to ``log``, ``env``
    added to the environment, once it answers ``/healthz`` and ``ready`` holds of its log
    (every worker up, say); a server that exits or is not ready within ``seconds`` ends the
    benchmark with the end of its log."""
    port = free_port()
    command = [sys.executable, "-m", "citeline", "serve", "--host", "127.0.0.1"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--port", str(port), *arguments],
            env={**os.environ, **env},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if _healthy(url) and ready(log.read_text(errors="replace")):
            return process, url
        time.sleep(0.1)
    process.kill()
    process.wait()
    ending = log.read_text(errors="replace")[-2000:]
    raise SystemExit(f"citeline serve was not ready in {seconds:.0f} s; its log ends:\n{ending}")


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.TransportError:
        return False
