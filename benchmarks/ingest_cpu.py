"""The CPU of ingesting one file, this working tree against another revision, interleaved.

Run: ``.venv/bin/python benchmarks/ingest_cpu.py --against ff55232`` (the last revision whose
lexical index was SQLite's FTS5; ``--rounds N``, ``--file PATH``; ``--against`` may be given
twice). Each revision's ``src`` is taken with ``git archive`` into a temporary folder, and
every ingest runs in a new process (``Corpus.open`` of an empty file, then
``Corpus.ingest`` of the file, timed in-process with ``time.process_time``: every thread,
the search index's too), the revisions taking turns round after round so that the load of
a shared machine falls on all of them alike. It prints each revision's CPU per round, the
median, and the ratio of each revision's median to this tree's.

With ``--postgres URL`` each ingest goes into a fresh schema of that PostgreSQL database
instead (dropped after it; the search index in a temporary folder), and the wall time of
each ingest is printed beside its CPU: the client's CPU does not count the server's work,
and what a batch saves in round trips shows in the wall time.

It needs what each revision imports: ff55232 imports ``threadpoolctl``, which later
revisions dropped (``pip install threadpoolctl`` into the same environment first).
It deliberately times ingest only: search is ``retrieval.py``'s.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

# Beside this script, first on sys.path.
from revisions import load_average, revision_table, run_in_tree, scratch_schema, source_trees

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "beir-scifact" / "corpus.jsonl"

# Run in each new process: the ingest alone is timed, not the interpreter's start or imports.
# argv: the file, then the database (a PostgreSQL URL) or nothing for a new SQLite file.
_CHILD = """
import os, sys, tempfile, time
from pathlib import Path
from citeline.corpus import Corpus
with tempfile.TemporaryDirectory() as folder:
    target = sys.argv[2] if len(sys.argv) > 2 else Path(folder) / "ingest.sqlite"
    # A PostgreSQL collection's search index goes under the cache folder: this one.
    os.environ["XDG_CACHE_HOME"] = folder
    corpus = Corpus.open(target)
    started, clock = time.process_time(), time.perf_counter()
    corpus.ingest(Path(sys.argv[1]))
    print(time.process_time() - started, time.perf_counter() - clock)
    corpus.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="a git revision")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--postgres", help="a PostgreSQL URL to ingest into, not SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = source_trees(Path(scratch), args.against)
        seconds: dict[str, list[float]] = {name: [] for name in trees}
        walls: dict[str, list[float]] = {name: [] for name in trees}
        load_before = load_average()
        for _ in range(args.rounds):
            for name, source in trees.items():
                with scratch_schema(args.postgres, "ingest_cpu") as target:
                    output = run_in_tree(
                        source,
                        _CHILD,
                        [str(args.file), *([target] if target else [])],
                        what="the ingest",
                    )
                cpu, wall = output.strip().splitlines()[-1].split()
                seconds[name].append(float(cpu))
                walls[name].append(float(wall))
        load_after = load_average()
    into = "PostgreSQL" if args.postgres else "SQLite"
    title = f"Ingest CPU of {args.file.name} into {into} (load {load_before}, then {load_after})"
    revision_table(title, "s", seconds, walls)


if __name__ == "__main__":
    main()
