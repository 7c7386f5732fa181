"""Ingest with vectors against the raw int8 graph on the same texts: CPU a passage, one run.

Run: ``.venv/bin/python benchmarks/embedding.py`` (SciFact's corpus, beside the repository
in ``../shared/data``), ``--sample`` for the bundled sample the demo ingests, ``--file PATH``
for another, ``--rounds N`` (default 3). Needs ``pip install -e '.[dense]'``.

Two arms, each in a new process, taking turns round after round so that the load of a
shared machine falls on both alike, each timed in CPU (``time.process_time``: every thread):

- **ingest**: ``Corpus.ingest`` of the file into an empty collection built hybrid, with the
  embedded model's reading (``citeline.agent.meaning.reading``), exactly as ``citeline
  ingest`` runs it: reading and storing the documents, the search index, every passage's
  vector and every meaning text's. Its stages' CPU is printed apart.
- **raw graph**: the same texts that ingest embedded (each passage's title and text as the
  store hands them to the model, and each distinct meaning text), read back from that
  ingest's collection and cut into word pieces beforehand (untimed); then the int8 graph
  alone (``MiniLM.run``: one onnxruntime run a text, on one thread, as ingest runs each),
  once for each distinct sequence of word pieces (the graph reads nothing else), one after
  another, with nothing else: no tokenizing, pooling, storing or reading.

Which texts: ingest embeds every passage and each meaning text no document stored before,
one graph run a text; the raw arm runs each distinct sequence of word pieces of the whole
collection once, so two texts of the same pieces are one run there and two in ingest (one
pair in SciFact's 21,852 texts). Both counts are printed: the graph's runs inside the
ingest (``MiniLM.run`` counted) and the raw arm's texts and distinct sequences.

Ingest spreads its texts over the cores, so its wall time is printed beside its CPU: the
ratio is of CPU, what the texts cost; the wall time is how long a user waits.

It prints each arm's CPU per passage by round, the medians and their ratio. Target (issue
30): ingest within 1.15x of the raw graph a passage; SciFact's ingest at most 40 s of CPU,
the sample's at most 8 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact" / "corpus.jsonl"
TARGET_RATIO = 1.15

# argv: the file, the database. Prints one JSON line: CPU in all and by stage, counts.
_INGEST = """
import itertools, json, sys, time
from pathlib import Path
from citeline.agent.meaning import reading
from citeline.corpus import Corpus
stages = {}
def stage(name):
    def told(done, total):
        if done == 0:
            stages[name] = -time.process_time()
        if done >= total and name in stages and stages[name] < 0:
            stages[name] += time.process_time()
    return told
corpus = Corpus.open(sys.argv[2], retrieval="lexical")
started, clock = time.process_time(), time.perf_counter()
# The graph's runs counted (itertools' counter steps atomically on any thread); imported
# here, inside the timing, where the ingest would import the model's libraries.
from citeline.corpus.minilm import MiniLM
runs, graph = itertools.count(), MiniLM.run
def counted(self, pieces):
    next(runs)
    return graph(self, pieces)
MiniLM.run = counted
corpus.ingest(Path(sys.argv[1]), retrieval="hybrid", reading=reading,
              embed_progress=stage("passages"), meaning_progress=stage("meaning"))
cpu, wall = time.process_time() - started, time.perf_counter() - clock
passages = corpus.indexed_passages
corpus.close()
print(json.dumps({"cpu": cpu, "wall": wall, "stages": stages, "passages": passages,
                  "runs": next(runs)}))
"""

# argv: the database ingest wrote. Prints one JSON line: CPU, passages, texts, word pieces.
_RAW = """
import json, sys, time
from citeline.agent.meaning import reading
from citeline.corpus.embedding import load_embedder
from citeline.text.meaning import SectionRead
import sqlite3
model = load_embedder()
connection = sqlite3.connect(sys.argv[1])
passages = [
    f"{title}\\n{text}" for title, text in connection.execute(
        "SELECT d.title, substr(d.text, p.start + 1, p.end - p.start) FROM corpus_passages AS p "
        "JOIN corpus_documents AS d ON d.rowid = p.document ORDER BY p.rowid")
]
meanings = {}
for rowid, doc_id, title, text in connection.execute(
        "SELECT rowid, id, title, text FROM corpus_documents ORDER BY rowid"):
    spans = connection.execute(
        "SELECT start, end FROM corpus_passages WHERE document = ? ORDER BY rowid", (rowid,))
    section = SectionRead(doc_id, title, text, tuple(text[s:e] for s, e in spans))
    meanings.update(dict.fromkeys(reading(section)))
connection.close()
texts = [*passages, *meanings]
pieces = list(dict.fromkeys(tuple(model.word_pieces(text)) for text in texts))
model.run(pieces[0])
started = time.process_time()
for one in pieces:
    model.run(one)
cpu = time.process_time() - started
print(json.dumps({"cpu": cpu, "passages": len(passages), "texts": len(texts),
                  "runs": len(pieces), "pieces": sum(map(len, pieces))}))
"""


def _child(script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"a benchmark process failed:\n{done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--file", type=Path, default=SCIFACT)
    parser.add_argument("--sample", action="store_true", help="the bundled sample instead")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.sample:
        from citeline.sample import sample_path

        args.file = sample_path()
    ingest_cpu: list[float] = []
    raw_cpu: list[float] = []
    load = _load()
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.rounds):
            db = Path(scratch) / f"round-{number}.sqlite"
            ingest = _child(_INGEST, str(args.file), str(db))
            raw = _child(_RAW, str(db))
            passages = int(ingest["passages"])
            ingest_cpu.append(float(ingest["cpu"]) / passages)
            raw_cpu.append(float(raw["cpu"]) / passages)
            stages = {name: round(float(cpu), 1) for name, cpu in ingest["stages"].items()}
            print(
                f"round {number + 1}: ingest {ingest['cpu']:.1f} s CPU, {ingest['wall']:.1f} s "
                f"wall (stages' CPU {stages}), raw "
                f"graph {raw['cpu']:.1f} s; {passages} passages, {raw['texts']} texts, "
                f"{ingest['runs']} runs of the graph in the ingest, {raw['runs']} in the raw "
                f"arm ({raw['pieces']} word pieces)"
            )
    ours, floor = statistics.median(ingest_cpu), statistics.median(raw_cpu)
    print(f"\n{args.file} (load {load}, then {_load()}), CPU a passage, ms:")
    print(f"{'arm':<12}{'rounds':>28}{'median':>10}")
    for name, values in (("ingest", ingest_cpu), ("raw graph", raw_cpu)):
        rounds = " ".join(f"{v * 1000:.2f}" for v in values)
        print(f"{name:<12}{rounds:>28}{statistics.median(values) * 1000:>10.2f}")
    ratio = ours / floor
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    print(f"ingest / raw graph: {ratio:.3f}x (target <= {TARGET_RATIO}x: {verdict})")


def _load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
