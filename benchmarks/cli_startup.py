"""How long the ``citeline`` command takes to start and to answer a search, end to end.

Run: ``.venv/bin/python benchmarks/cli_startup.py`` (``--runs N``). It builds an index of
the bundled sample in a temporary folder, then runs each command as a user would, as a
new process (``citeline --help``, ``citeline version``, ``citeline search QUERY --db``),
``--runs`` times, and prints one table: median wall seconds, median CPU seconds (user +
system of the child, which load from other processes inflates less) and the target.
Targets: ``--help`` and ``version`` under 0.5 s, ``search`` under 1.5 s, judged on CPU
seconds since wall time on a shared machine measures the others' load too.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from citeline.corpus import Corpus
from citeline.sample import sample_path

TARGETS = {"--help": 0.5, "version": 0.5, "search": 1.5}


def citeline_command() -> list[str]:
    installed = Path(sys.executable).with_name("citeline")
    return [str(installed)] if installed.is_file() else [sys.executable, "-m", "citeline"]


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    base = citeline_command()
    table = Table(title=f"citeline start-up, median of {arguments.runs} runs")
    for column in ("command", "wall s", "CPU s", "target s", "met"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.sqlite"
        with Corpus.open(db) as corpus:
            corpus.ingest(sample_path())
        commands = {
            "--help": [*base, "--help"],
            "version": [*base, "version"],
            "search": [*base, "search", "sort a list of dictionaries by key", "--db", str(db)],
        }
        for name, command in commands.items():
            timed(command)  # one warm-up run: the first reads every module from disk
            runs = [timed(command) for _ in range(arguments.runs)]
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            table.add_row(
                name,
                f"{wall:.2f}",
                f"{cpu:.2f}",
                f"{TARGETS[name]:.1f}",
                # Judged on CPU time: on a shared machine, wall time measures the others' load.
                "yes" if cpu < TARGETS[name] else "no",
            )
    Console().print(table)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
