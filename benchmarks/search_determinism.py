"""Whether a collection searches alike however often its ingest committed the search index.

Run: ``.venv/bin/python benchmarks/search_determinism.py python postgresql`` (development
collections by name, ``benchmarks/questions/<name>/collection.toml``; ``--k N`` hits per
query, default 100). Each collection's site is ingested lexically twice, each time into a new
SQLite file in a new process: once committing the search index after every stored batch,
once only at the end (``search_index.INGEST_COMMIT_SECONDS``, which on a loaded machine
commits more often). Every question of its question files (the follow-ups' earlier questions
and the off-topic ones too) is searched with ``SearchIndex.lexical`` in both, and the queries
whose hits or scores differ in any bit are counted: those whose passages come back in another
order, and those whose first ten are another set.

It deliberately compares search only: answers are ``crossval.py``'s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citeline.evaluation.collections import find_collections  # noqa: E402
from citeline.evaluation.questions import load_questions  # noqa: E402

# Run in each new process: argv is the site, the commit interval, the queries' file and the
# file to write each query's hits to, as [passage, score as hex] (every bit of it).
_CHILD = """
import json, sys, tempfile
from pathlib import Path
from citeline.corpus import Corpus, search_index

site, seconds, queries, out, k = sys.argv[1:6]
search_index.INGEST_COMMIT_SECONDS = float(seconds)
asked = json.loads(Path(queries).read_text())
with tempfile.TemporaryDirectory() as folder, Corpus.open(Path(folder) / "x.sqlite") as corpus:
    corpus.ingest(Path(site), retrieval="lexical")
    search = corpus._index.lexical
    hits = {q: [[c.passage, c.score.hex()] for c in search(q, int(k))] for q in asked}
Path(out).write_text(json.dumps(hits))
"""

ARMS = {"a commit per batch": 0.0, "one commit at the end": float("inf")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collections", nargs="+")
    parser.add_argument("--k", type=int, default=100)
    args = parser.parse_args()
    known = find_collections(ROOT / "benchmarks" / "questions")
    for name in args.collections:
        collection = known[name]
        files = [collection.questions, collection.followups, collection.off_topic]
        asked = [
            text
            for path in files
            if path is not None
            for question in load_questions(path)
            for text in (*question.history, question.question)
        ]
        asked = list(dict.fromkeys(asked))
        with tempfile.TemporaryDirectory() as scratch:
            queries = Path(scratch) / "queries.json"
            queries.write_text(json.dumps(asked))
            found = {}
            for arm, seconds in ARMS.items():
                out = Path(scratch) / f"{seconds}.json"
                command = [sys.executable, "-c", _CHILD, str(collection.site), str(seconds)]
                command += [str(queries), str(out), str(args.k)]
                subprocess.run(
                    command, check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}
                )
                found[arm] = json.loads(out.read_text())
        one, other = found.values()
        differ = [q for q in asked if one[q] != other[q]]
        order = [q for q in differ if [p for p, _ in one[q]] != [p for p, _ in other[q]]]
        top = [q for q in differ if {p for p, _ in one[q][:10]} != {p for p, _ in other[q][:10]}]
        print(
            f"{name}: {len(asked)} queries, {len(differ)} differ in hits or scores, "
            f"{len(order)} in the order of their passages, {len(top)} in their first ten"
        )


if __name__ == "__main__":
    main()
