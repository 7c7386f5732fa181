"""The CPU of ingesting one file, this working tree against another revision, interleaved.

Run: ``.venv/bin/python benchmarks/ingest_cpu.py --against ff55232`` (the last revision whose
lexical index was SQLite's FTS5; ``--rounds N``, ``--file PATH``; ``--against`` may be given
twice). Each revision's ``src`` is taken with ``git archive`` into a temporary folder, and
every ingest runs in a new process (``Corpus.open`` of an empty file, then
``Corpus.ingest`` of the file, timed in-process with ``time.process_time``: every thread,
the search index's too), the revisions taking turns round after round so that the load of
a shared machine falls on all of them alike. It prints each revision's CPU per round, the
median, and the ratio of each revision's median to this tree's.

It needs what each revision imports: ff55232 imports ``threadpoolctl``, which later
revisions dropped (``pip install threadpoolctl`` into the same environment first).
It deliberately times ingest only: search is ``retrieval.py``'s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "beir-scifact" / "corpus.jsonl"

# Run in each new process: the ingest alone is timed, not the interpreter's start or imports.
_CHILD = """
import sys, tempfile, time
from pathlib import Path
from citeline.corpus import Corpus
with tempfile.TemporaryDirectory() as folder:
    corpus = Corpus.open(Path(folder) / "ingest.sqlite")
    started = time.process_time()
    corpus.ingest(Path(sys.argv[1]))
    print(time.process_time() - started)
    corpus.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="a git revision")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"this tree": ROOT / "src"}
        for revision in args.against:
            folder = Path(scratch) / revision
            folder.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", revision, "src"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
            trees[revision] = folder / "src"
        seconds: dict[str, list[float]] = {name: [] for name in trees}
        load_before = _load()
        for _ in range(args.rounds):
            for name, source in trees.items():
                seconds[name].append(_ingest_cpu(source, args.file))
        load_after = _load()
    table = Table(title=f"Ingest CPU of {args.file.name} (load {load_before}, then {load_after})")
    for column in ("revision", "CPU s per round", "median s", "revision / this tree"):
        table.add_column(column, justify="left" if column == "revision" else "right")
    ours = statistics.median(seconds["this tree"])
    for name, values in seconds.items():
        median = statistics.median(values)
        table.add_row(
            name,
            " ".join(f"{value:.2f}" for value in values),
            f"{median:.2f}",
            f"{median / ours:.2f}x",
        )
    Console(width=150).print(table)


def _ingest_cpu(source: Path, file: Path) -> float:
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(file)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the ingest from {source} failed:\n{done.stderr.strip()}")
    return float(done.stdout.strip().splitlines()[-1])


def _load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
