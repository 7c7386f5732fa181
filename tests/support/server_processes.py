"""Real ``citeline serve`` processes for the scale tests and benchmark.

Each server is its own operating-system process started from the command line, exactly as
an operator behind a load balancer would run it, so nothing is shared between servers but
PostgreSQL and Redis. Deliberately not here: starting those services (``.ci/services``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

# A server that has not answered /healthz by then is not starting: the log says why.
_START_SECONDS = 60


@dataclass(frozen=True)
class ServerProcess:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    env: Mapping[str, str], log: Path, port: int | None = None, args: Sequence[str] = ()
) -> ServerProcess:
    """``citeline serve ARGS`` on loopback with ``env`` added to this process's environment."""
    port = port or free_port()
    command = [sys.executable, "-m", "citeline", "serve", "--host", "127.0.0.1"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--port", str(port), *args],
            env={**os.environ, **env},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"citeline serve exited with {process.returncode}:\n{log_text(log)}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    stop_server(server)
    raise RuntimeError(f"citeline serve did not become healthy:\n{log_text(log)}")


def wait_for_log(server: ServerProcess, line: str, seconds: float = _START_SECONDS) -> None:
    """Wait until ``server``'s log holds ``line``: the port answers from the first worker on,
    while what the others do at start-up comes later."""
    deadline = time.monotonic() + seconds
    while line not in server.log_text():
        if server.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server's log never said {line!r}:\n{log_text(server.log)}")
        time.sleep(0.1)


def stop_server(server: ServerProcess) -> None:
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(10)


@contextmanager
def running(env: Mapping[str, str], logs: Path, count: int) -> Iterator[list[ServerProcess]]:
    """``count`` servers sharing ``env``, stopped however the block ends."""
    servers: list[ServerProcess] = []
    try:
        for number in range(count):
            servers.append(start_server(env, logs / f"server-{number}.log"))
        yield servers
    finally:
        for server in servers:
            stop_server(server)


def log_text(log: Path) -> str:
    return log.read_text("utf-8", errors="replace")[-4000:]
