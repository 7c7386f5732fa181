"""The CPU of searching one collection, this working tree against another revision, interleaved.

Run: ``.venv/bin/python benchmarks/search_cpu.py --against main`` (``--rounds N``,
``--queries N``, ``--postgres URL``; ``--against`` may be given twice). SciFact's corpus is
ingested once, by this tree, into a new SQLite file (or a fresh schema of the PostgreSQL
database), lexically; then each revision's ``src`` (``git archive``d, ``revisions.py``)
opens it in a new process and times ``Corpus.search(query, k=10)`` for each of SciFact's
first ``--queries`` queries with ``time.process_time`` (every thread), after one untimed
pass so that every page the searches read is in memory. The revisions take turns round
after round, so the load of a shared machine falls on all of them alike. It prints each
revision's median CPU per query in each round, their median, its ratio to this tree's, and
the wall time per query beside it (the PostgreSQL server's work shows only there).

It compares revisions that read the same store format: a search reads the ranking from the
search index and each hit's text from the store (``CorpusStore.hits``), the part a store
change moves. It deliberately times search only: ingest is ``ingest_cpu.py``'s, quality
``retrieval.py``'s.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

# Beside this script, first on sys.path.
from revisions import load_average, revision_table, run_in_tree, scratch_schema, source_trees

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "data" / "beir-scifact"

# Run in each new process: argv is the collection (a file or URL), the search index's folder,
# then the queries file. Prints the median CPU and wall seconds of one search.
_CHILD = """
import json, statistics, sys, time
from pathlib import Path
from citeline.corpus import Corpus
queries = json.loads(Path(sys.argv[3]).read_text())
with Corpus.open(sys.argv[1], retrieval="lexical", search_index=Path(sys.argv[2])) as corpus:
    for query in queries:
        corpus.search(query, k=10)
    cpu, wall = [], []
    for query in queries:
        started, clock = time.process_time(), time.perf_counter()
        corpus.search(query, k=10)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
print(statistics.median(cpu), statistics.median(wall))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="a git revision")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL URL to search, not SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        trees = source_trees(folder, args.against)
        queries = folder / "queries.json"
        lines = (SCIFACT / "queries.jsonl").read_text("utf-8").splitlines()[: args.queries]
        queries.write_text(json.dumps([json.loads(line)["text"] for line in lines]))
        with scratch_schema(args.postgres, "search_cpu") as schema:
            target = schema or str(folder / "c.db")
            _ingest(target, folder / "index")
            cpu, wall = _rounds(trees, target, folder / "index", queries, args.rounds)
    into = "PostgreSQL" if args.postgres else "SQLite"
    title = f"Search CPU on SciFact in {into}, {args.queries} queries (load {load_average()})"
    revision_table(title, "ms a query", cpu, wall, scale=1000, digits=3)


def _ingest(target: str, index: Path) -> None:
    from citeline.corpus import Corpus

    with Corpus.open(target, retrieval="lexical", search_index=index) as corpus:
        corpus.ingest(SCIFACT / "corpus.jsonl", retrieval="lexical")


def _rounds(
    trees: dict[str, Path], target: str, index: Path, queries: Path, rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    wall: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, source in trees.items():
            output = run_in_tree(
                source, _CHILD, [target, str(index), str(queries)], what="the searches"
            )
            seconds, clock = output.strip().splitlines()[-1].split()
            cpu[name].append(float(seconds))
            wall[name].append(float(clock))
    return cpu, wall


if __name__ == "__main__":
    main()
