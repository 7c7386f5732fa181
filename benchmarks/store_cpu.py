"""The CPU of the corpus store alone, this working tree against another revision, interleaved.

Run: ``.venv/bin/python benchmarks/store_cpu.py --against main`` (``--rounds N``,
``--postgres URL``). Each round, each revision's ``src`` (``revisions.py``) runs in a new
process that puts SciFact's 5,183 documents into an empty store in batches of 500, reads
them back as the search index does (``indexable``, 1,000 ids a call), reads ten random hits
3,000 times, then replaces every document; each step is timed with ``time.process_time``.
No search index and no embedding model: what it moves is the store's alone, which
``ingest_cpu.py`` and ``search_cpu.py`` see through the rest of an ingest or a search. With
``--postgres`` the store is a fresh schema of that database (dropped after), and the CPU is
the client's.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from ingest_cpu import DEFAULT_FILE  # beside this script
from revisions import load_average, run_in_tree, scratch_schema, source_trees

STEPS = ("put new", "read back", "3,000 hits", "put replacing")

# Run in each new process: argv is the corpus file, then a PostgreSQL URL or nothing.
_CHILD = r"""
import json, random, sys, tempfile, time
from pathlib import Path
from citeline.corpus.documents import Document
from citeline.corpus.passages import split_passages
from citeline.corpus.ingest import content_hash
from citeline.corpus.stores.base import DocumentVersion, Candidate
versions = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    d = Document(id=r["_id"], title=r.get("title", ""), text=r["text"])
    versions.append(DocumentVersion(d, split_passages(d.text), content_hash(d), "s"))
with tempfile.TemporaryDirectory() as f:
    if len(sys.argv) > 2:
        from citeline.corpus.stores.postgres import PostgresStore
        from citeline.database import PostgresUrl
        store = PostgresStore(PostgresUrl(sys.argv[2]))
    else:
        from citeline.corpus.stores.sqlite import SQLiteStore
        store = SQLiteStore(Path(f) / "s.db")
    out = []
    t = time.process_time()
    for i in range(0, len(versions), 500):
        store.put_many(versions[i:i + 500])
    out.append(time.process_time() - t)
    ids = [v.document.id for v in versions]
    t = time.process_time(); n = 0
    for i in range(0, len(ids), 1000):
        for doc in store.indexable(ids[i:i + 1000]):
            n += len(doc.passages)
    out.append(time.process_time() - t)
    rnd = random.Random(0)
    lists = [[Candidate(rnd.randint(1, n), 1.0) for _ in range(10)] for _ in range(3000)]
    t = time.process_time()
    for c in lists:
        store.hits(c)
    out.append(time.process_time() - t)
    t = time.process_time()
    for i in range(0, len(versions), 500):
        batch = versions[i:i + 500]
        changed = [DocumentVersion(v.document, v.passages, f"{v.content_hash}!", "") for v in batch]
        store.put_many(changed)
    out.append(time.process_time() - t)
    store.close()
print(*out)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="a git revision")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", help="a PostgreSQL URL, not SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = source_trees(Path(scratch), args.against)
        seconds: dict[str, list[list[float]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, source in trees.items():
                seconds[name].append(_steps(source, args.postgres))
    print(f"store alone, {'PostgreSQL' if args.postgres else 'SQLite'}, load {load_average()}")
    for name, rounds in seconds.items():
        medians = [statistics.median(steps[i] for steps in rounds) for i in range(len(STEPS))]
        print(
            f"{name:>10}: "
            + ", ".join(f"{s} {m:.3f} s" for s, m in zip(STEPS, medians, strict=True))
        )


def _steps(source: Path, postgres: str | None) -> list[float]:
    with scratch_schema(postgres, "store_cpu") as target:
        arguments = [str(DEFAULT_FILE), *([target] if target else [])]
        output = run_in_tree(source, _CHILD, arguments, what="the store")
    return [float(value) for value in output.split()]


if __name__ == "__main__":
    main()
