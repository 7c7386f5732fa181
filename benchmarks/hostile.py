"""Hostile probes against citeline, measured: one function per probe, a table at the end.

One command, prints a table:

    .venv/bin/python benchmarks/hostile.py [--posts 10] [--post-mb 20]

Each probe is a function that attacks one bound and returns its rows (what was measured,
the figure, the target, whether it held):

- ``probe_large_posts``: a real ``citeline serve --open`` process (its own interpreter,
  on a free loopback port, over an empty index) is sent ``--posts`` request bodies of
  ``--post-mb`` MB each, alternately announced by ``Content-Length`` and sent chunked
  without one, as fast as the socket takes them. Measured from ``/proc``: the server's
  resident memory before and after (target: under 50 MB of growth over the ten), and the
  CPU time it spent on them; then whether it still answers a question. Growth is the
  larger of the peak's rise (``VmHWM``: a body read whole and freed still counts) and the
  resident set's. Before the body cap, one 100 MB POST cost 8 s of CPU, 380 MB of memory
  and a 105 MB response.

Memory is the server's resident set (``VmRSS``), CPU its user plus system time, both read
from ``/proc/PID``, so the client's own work and the machine's other load are not in them.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

TARGET_GROWTH_MB = 50.0
# The piece size the client writes at a time: big enough to be quick, small enough that
# a server which stops reading is noticed after at most this much more.
_PIECE = 1 << 20


@dataclass(frozen=True)
class Row:
    probe: str
    measure: str
    value: str
    target: str
    held: bool | None  # None: a figure reported, with no target of its own


Probe = Callable[[argparse.Namespace], list[Row]]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _memory_mb(pid: int, field: str = "VmRSS") -> float:
    """``VmRSS`` (resident now) or ``VmHWM`` (the most it has ever been resident)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for process {pid}")


def _cpu_seconds(pid: int) -> float:
    # Fields 14 and 15 of /proc/PID/stat are utime and stime, in clock ticks; the command
    # name (field 2) may hold spaces, so count from the closing parenthesis.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "CITELINE_DB": str(folder / "citeline.db"),
        "CITELINE_OPEN": "1",
        "CITELINE_RATE_LIMIT": "1000",
        "CITELINE_LOG_FORMAT": "json",
    }
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "citeline", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((folder / "server.log").read_text()[-2000:])
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("citeline serve did not start: " + (folder / "server.log").read_text())


def _post_large(url: str, megabytes: int, *, announced: bool) -> tuple[int | None, int]:
    """POST ``megabytes`` MB of a JSON string to /v1/answer on a raw socket; the status the
    server answered (None if it closed without one) and how many body bytes got written."""
    host, port = url.removeprefix("http://").split(":")
    size = megabytes * (1 << 20)
    framing = f"Content-Length: {size}" if announced else "Transfer-Encoding: chunked"
    head = (
        f"POST /v1/answer HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"{framing}\r\nConnection: close\r\n\r\n"
    ).encode()
    # A well-formed body (one long question), so a server that reads it also parses it.
    prefix, suffix = b'{"question": "', b'"}'
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(head)
        try:
            while sent < size:
                data = b"x" * min(_PIECE, size - sent)
                if sent == 0:
                    data = prefix + data[len(prefix) :]
                if sent + len(data) == size:
                    data = data[: -len(suffix)] + suffix
                connection.sendall(data if announced else b"%x\r\n%s\r\n" % (len(data), data))
                sent += len(data)
            if not announced:
                connection.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and stopped reading: the point of the cap
        reply = b""
        try:
            while b"\r\n" not in reply:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                reply += chunk
        except OSError:
            pass
    status = int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/") else None
    return status, sent


def probe_large_posts(args: argparse.Namespace) -> list[Row]:
    name = f"{args.posts} POSTs of {args.post_mb} MB"
    with tempfile.TemporaryDirectory() as folder:
        process, url = _start_server(Path(folder))
        try:
            # One honest answer first, so what it loads is in the baseline, not the growth.
            httpx.post(f"{url}/v1/answer", json={"question": "What is a list?"}, timeout=60)
            before_mb, before_cpu = _memory_mb(process.pid), _cpu_seconds(process.pid)
            # The peak so far, so that one large body freed afterwards still counts.
            before_peak_mb = _memory_mb(process.pid, "VmHWM")
            statuses: list[int | None] = []
            written = 0
            for number in range(args.posts):
                status, sent = _post_large(url, args.post_mb, announced=number % 2 == 0)
                statuses.append(status)
                written += sent
            time.sleep(0.5)  # let the server finish with the last connection
            after_mb, after_cpu = _memory_mb(process.pid), _cpu_seconds(process.pid)
            peak_mb = _memory_mb(process.pid, "VmHWM")
            answer = httpx.post(
                f"{url}/v1/answer", json={"question": "What is a list?"}, timeout=60
            )
            still_answers = answer.status_code == 200 and "event: done" in answer.text
        finally:
            process.terminate()
            process.wait(10)
    growth = max(peak_mb - before_peak_mb, after_mb - before_mb)
    refused = sum(1 for status in statuses if status == 413)
    return [
        Row(name, "server memory growth (peak or after)", f"{growth:.1f} MB",
            f"< {TARGET_GROWTH_MB:.0f} MB", growth < TARGET_GROWTH_MB),
        Row(name, "server resident memory before, after", f"{before_mb:.0f}, {after_mb:.0f} MB",
            "", None),
        Row(name, "server CPU time on them", f"{after_cpu - before_cpu:.2f} s", "", None),
        Row(name, "answered 413", f"{refused} of {len(statuses)}", f"{len(statuses)}",
            refused == len(statuses)),
        Row(name, "body bytes the client got to write", f"{written / (1 << 20):.1f} MB", "",
            None),
        Row(name, "server still answers", "yes" if still_answers else "no", "yes",
            still_answers),
    ]  # fmt: skip


PROBES: tuple[Probe, ...] = (probe_large_posts,)


def _print_table(rows: list[Row]) -> None:
    header = ("probe", "measure", "value", "target", "held")
    lines = [
        (row.probe, row.measure, row.value, row.target,
         "" if row.held is None else ("yes" if row.held else "NO"))
        for row in rows
    ]  # fmt: skip
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *lines, strict=True)]
    for line in (header, *lines):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=10, help="large POSTs to send (10)")
    parser.add_argument("--post-mb", type=int, default=20, help="megabytes each (20)")
    args = parser.parse_args()
    rows = [row for probe in PROBES for row in probe(args)]
    _print_table(rows)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if any(row.held is False for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
