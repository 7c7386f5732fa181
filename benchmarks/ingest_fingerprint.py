"""Whether a change to ingest moved what the search index holds: digests, this tree against
other revisions.

Run: ``.venv/bin/python benchmarks/ingest_fingerprint.py --against main`` (``--against`` may
be given more than once; ``--folder PATH`` adds a Markdown folder, default the bundled
Python sample). For this tree and each revision (its ``src`` taken with ``git archive``,
run in a new process), it ingests SciFact's ``corpus.jsonl`` and the folder into new files
and digests:

- every row handed to the search index's writer (passage id, document id, title keys and
  the terms, split on whitespace: runs of spaces count for nothing in the index's
  ``whitespace`` tokenizer), sorted;
- the analysis of every SciFact query (``terms``, ``query_terms``, the title keys);
- the ten hits (document, offset, score to 5 decimals) of every SciFact query, so a change
  in the index's order or its fieldnorms would show even where the rows do not.

It prints one row per revision and whether each digest equals this tree's. It needs the
revisions to have a tantivy search index (``SearchIndex._writer``, from the tantivy branch
on); it deliberately measures no time (``ingest_cpu.py`` does).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from revisions import source_trees  # beside this script, first on sys.path
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "beir-scifact"
DEFAULT_FOLDER = ROOT / "src" / "citeline" / "sample" / "python-docs"

# Run in each new process, with PYTHONPATH at the revision's src: prints one JSON object.
_CHILD = """
import hashlib, json, sys, tempfile
from pathlib import Path
import citeline.corpus.search_index as search_index
from citeline.corpus import Corpus
try:
    from citeline.text.index_terms import INDEX, query_terms
    terms = INDEX.terms
except ImportError:  # a revision before the text package (issue 31)
    from citeline.corpus.analysis import query_terms, terms
from citeline.corpus.headings import query_title_keys

corpus_file, queries_file, folder = (Path(a) for a in sys.argv[1:4])
rows = []

class Recording:
    def __init__(self, writer):
        self.writer = writer
    def add_document(self, document):
        fields = document.to_dict()
        if "terms" in fields:
            rows.append((fields["passage"][0], fields["document"][0],
                         tuple(fields.get("title_key", ())), tuple(fields["terms"][0].split())))
        return self.writer.add_document(document)
    def __getattr__(self, name):
        return getattr(self.writer, name)

real_writer = search_index.SearchIndex._writer
def writer(self):
    found = real_writer(self)
    return None if found is None else Recording(found)
search_index.SearchIndex._writer = writer

def digest(value):
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]

queries = [json.loads(line)["text"] for line in queries_file.open(encoding="utf-8")]
out = {}
for name, source in (("SciFact rows", corpus_file), ("folder rows", folder)):
    rows.clear()
    with tempfile.TemporaryDirectory() as scratch:
        corpus = Corpus.open(Path(scratch) / "index.sqlite")
        corpus.ingest(source)
        if name == "SciFact rows":
            hits = [[(h.doc_id, h.start, round(h.score, 5)) for h in corpus.search(q, 10)]
                    for q in queries]
        corpus.close()
    out[name] = f"{len(rows)} {digest(sorted(rows))}"
out["SciFact hits"] = f"{len(hits)} {digest(hits)}"
analysed = [(terms(q), query_terms(q), query_title_keys(terms(q))) for q in queries]
out["query analysis"] = f"{len(analysed)} {digest(analysed)}"
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="a git revision")
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = source_trees(Path(scratch), args.against)
        found = {name: _fingerprint(source, args.folder) for name, source in trees.items()}
    ours = found["this tree"]
    table = Table(title="What the search index is fed, and what search finds (count, digest)")
    table.add_column("revision")
    for column in ours:
        table.add_column(column, justify="right")
    table.add_column("same as this tree")
    for name, values in found.items():
        same = [column for column in ours if values.get(column) == ours[column]]
        verdict = "all" if len(same) == len(ours) else f"only {', '.join(same) or 'none'}"
        table.add_row(name, *(values.get(column, "") for column in ours), verdict)
    Console(width=170).print(table)


def _fingerprint(source: Path, folder: Path) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _CHILD,
            str(DATA / "corpus.jsonl"),
            str(DATA / "queries.jsonl"),
            str(folder),
        ],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the fingerprint of {source} failed:\n{done.stderr.strip()}")
    result: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


if __name__ == "__main__":
    main()
