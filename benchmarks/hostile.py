"""Hostile probes: what the worst inputs cost under citeline's bounds. One command, one table:

    .venv/bin/python benchmarks/hostile.py [--only NAME ...]

Each probe is one function below that returns rows of the table (probe, case, what was
measured, target, whether it held). Add a probe by writing a function and listing it in
``PROBES``. The probes so far:

- ``sql_direct``: the worst queries found by attack, run through ``DataCatalog.sql`` with the
  default limits (10 s, 512 MB, one thread). For each: wall time, the peak resident memory of
  the worker process that ran it (``VmHWM``, sampled until it ends), and how it ended. Target:
  peak under 600 MB and wall time under the tool's limit plus 1 s.
- ``sql_server``: the same through a real ``citeline serve`` (sample project, open mode, a
  scripted OpenAI-protocol model that calls ``sql`` with the query) whose answer times out at
  5 s, before the query's own 10 s: the answer must end ``failed`` near 5 s, the query's worker
  must be gone within a second of it, the server's memory must not grow by the query, and
  ``/healthz`` and a second answer must still be served.

The client, the server and the workers share this machine; times include its load (printed).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from citeline.data import DataCatalog, DataError, QueryLimits, load_project

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from support.openai_stub import ScriptedOpenAIServer  # noqa: E402

TARGET_PEAK_MB = 600.0
TARGET_OVER_LIMIT_S = 1.0
SERVER_ANSWER_TIMEOUT_S = 5.0

# The worst queries found by attack: one huge scalar (4.2 GB and 32.8 s before the bounds), a
# query that never ends, a join and a sort that outgrow memory, and huge aggregates.
WORST_QUERIES = {
    "huge string": "SELECT length(repeat('x', 2000000000))",
    "endless count": "SELECT count(*) FROM range(100000000000) a",
    "self join": "SELECT count(*) FROM range(100000000) a JOIN range(100000000) b USING (range)",
    "huge sort": "SELECT count(*) FROM (SELECT * FROM range(200000000) ORDER BY random())",
    "huge list": "SELECT max(x) FROM (SELECT list(range) AS x FROM range(300000000))",
    "huge string_agg": "SELECT length(string_agg(repeat('y', 1000), ',')) FROM range(3000000)",
}


@dataclass(frozen=True)
class Row:
    probe: str
    case: str
    measured: str
    target: str
    held: bool


def _status_kb(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def _reset_peak(pid: int) -> None:
    """Reset ``VmHWM`` to the current resident size (Linux ``clear_refs`` value 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


class PeakSampler:
    """Samples the peak resident memory (``VmHWM``) of a set of processes every 10 ms."""

    def __init__(self, pids: Callable[[], set[int]]) -> None:
        self._pids = pids
        self.peak_kb: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid in self._pids():
                peak = _status_kb(pid, "VmHWM")
                if peak is not None:
                    self.peak_kb[pid] = max(self.peak_kb.get(pid, 0), peak)
            time.sleep(0.01)


def sql_direct() -> list[Row]:
    rows: list[Row] = []
    limits = QueryLimits()
    with DataCatalog.open(load_project("sample"), limits=limits) as catalog:
        for case, query in WORST_QUERIES.items():
            # A worker that survived the last query (a memory error does not end it) would
            # report that query's peak; its high-water mark is reset first.
            for pid in catalog.worker_pids():
                _reset_peak(pid)
            with PeakSampler(lambda: set(catalog.worker_pids())) as sampler:
                started = time.perf_counter()
                try:
                    catalog.sql(query)
                    outcome = "returned"
                except DataError as error:
                    outcome = str(error).split(";")[0].removeprefix("The query ")
                wall = time.perf_counter() - started
            peak_mb = max(sampler.peak_kb.values(), default=0) / 1024
            held = peak_mb < TARGET_PEAK_MB and wall < limits.seconds + TARGET_OVER_LIMIT_S
            rows.append(
                Row(
                    "sql_direct",
                    case,
                    f"{wall:.1f} s, worker peak {peak_mb:.0f} MB: {outcome}",
                    f"< {limits.seconds + TARGET_OVER_LIMIT_S:g} s, < {TARGET_PEAK_MB:.0f} MB",
                    held,
                )
            )
    return rows


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _answer(client: httpx.Client, url: str, question: str) -> tuple[dict[str, object], float]:
    started = time.perf_counter()
    done: dict[str, object] = {}
    with client.stream("POST", f"{url}/v1/answer", json={"question": question}) as response:
        event = ""
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event == "done":
                done = json.loads(line.removeprefix("data: "))
    return done, time.perf_counter() - started


def sql_server() -> list[Row]:
    rows: list[Row] = []
    model = ScriptedOpenAIServer()
    model.start()
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="citeline-hostile-"))
    environment = {
        **os.environ,
        "OPENAI_BASE_URL": model.base_url,
        "OPENAI_API_KEY": "not-a-secret",
        "CITELINE_ANSWER_TIMEOUT": str(SERVER_ANSWER_TIMEOUT_S),
    }
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "citeline",
            "serve",
            "--db",
            str(folder / "empty.db"),
            "--project",
            "sample",
            "--open",
            "--model",
            "openai:scripted",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=60) as client:
            for _ in range(300):
                try:
                    if client.get(f"{url}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            # One answer first: the first answer pays for imports, which is not the query's cost.
            model.script = [{"text": ["Warm."]}]
            _answer(client, url, "Warm up.")
            # The endless query outlives the answer's 5 s; the huge string fails at once, so
            # the scripted model then says it has no figure: nothing_found.
            for case, expected in (("endless count", "failed"), ("huge string", "nothing_found")):
                model.script = [
                    {"calls": [["sql", {"query": WORST_QUERIES[case]}]]},
                    {"text": ["The query did not give a figure."]},
                ]
                before = _status_kb(server.pid, "VmRSS") or 0
                with PeakSampler(lambda: _children(server.pid)) as sampler:
                    done, seconds = _answer(client, url, "Count everything, forever.")
                    workers_at_end = _children(server.pid)
                    busy = {pid for pid in workers_at_end if pid in sampler.peak_kb}
                    time.sleep(1.0)
                    remaining = {pid for pid in _children(server.pid) if pid in busy}
                after = _status_kb(server.pid, "VmRSS") or 0
                peak_mb = max(sampler.peak_kb.values(), default=0) / 1024
                healthy = client.get(f"{url}/healthz").status_code == 200
                model.script = [{"text": ["Still answering."]}]
                second, _ = _answer(client, url, "Are you still there?")
                state = done.get("state")
                bound = SERVER_ANSWER_TIMEOUT_S + TARGET_OVER_LIMIT_S
                held = (
                    state == expected
                    and seconds < bound
                    and peak_mb < TARGET_PEAK_MB
                    and (after - before) / 1024 < 50
                    and healthy
                    and second.get("state") in ("answered", "nothing_found")
                )
                rows.append(
                    Row(
                        "sql_server",
                        case,
                        f"done {state} after {seconds:.1f} s; worker peak {peak_mb:.0f} MB;"
                        f" its worker alive 1 s later: {len(remaining)}; server RSS"
                        f" {before / 1024:.0f} -> {after / 1024:.0f} MB; healthz"
                        f" {'ok' if healthy else 'down'}; next answer {second.get('state')}",
                        f"{expected} < {bound:g} s, < {TARGET_PEAK_MB:.0f} MB, +< 50 MB",
                        held and (case != "endless count" or not remaining),
                    )
                )
    finally:
        server.terminate()
        server.wait(timeout=10)
        model.stop()
        log.close()
    return rows


PROBES: dict[str, Callable[[], list[Row]]] = {
    "sql_direct": sql_direct,
    "sql_server": sql_server,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(PROBES), help="run only these")
    chosen = parser.parse_args().only or list(PROBES)
    # The table says how each query ended; the sandbox's own warning per query is noise here.
    logging.getLogger("citeline.data.sandbox").setLevel(logging.ERROR)
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {os.cpu_count()} cores; {sys.version.split()[0]}")
    rows = [row for name in chosen for row in PROBES[name]()]
    widths = [max(len(getattr(row, key)) for row in rows) for key in ("probe", "case")]
    print(f"{'probe':<{widths[0]}}  {'case':<{widths[1]}}  held  measured (target)")
    for row in rows:
        mark = "yes " if row.held else "NO  "
        print(
            f"{row.probe:<{widths[0]}}  {row.case:<{widths[1]}}  {mark}  {row.measured}"
            f" ({row.target})"
        )
    if not all(row.held for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
