"""The search over every development collection with dense vectors over the whole passage:
each passage ranked by its best window's vector, not by its stored vector alone.

Run from the repository root (the dense extra installed; the indexes are the ones
``crossval.py`` builds, in ``CITELINE_COLLECTIONS_CACHE``), with ``search_fusion.py``'s own
options:

    .venv/bin/python benchmarks/questions/search_windows.py --weights 0.4,0.6
    .venv/bin/python benchmarks/questions/search_windows.py --weights 0.4,0.6 --collections scifact
    .venv/bin/python benchmarks/questions/search_windows.py --stored --weights 0.4,0.6

A stored passage is up to 2,000 characters, and its vector is the sentence model's reading
of its title and first 128 word pieces (about 450 characters): the rest of a long passage is
found by its words alone. Here every passage is cut into windows of about ``WINDOW_CHARS``
characters at a space, each embedded as ingest embeds a passage (its title, a line break,
the window), and the dense ranking gives each passage its best window's dot product with
the question. The window vectors are kept beside each index (``site.sqlite.windows.npz``),
so a second run only searches. ``--stored`` runs the same loop on the stored vectors, the
search as it ships, for a comparison in one place. Nothing in the engine changes: this
measures whether building it is worth about three vectors a passage (docs/benchmarks.md,
"What dense retrieval never reads").
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_fusion

from citeline.corpus import vectors
from citeline.corpus.embedding import load_embedder
from citeline.corpus.stores.base import Candidate

# About what 128 word pieces of English prose hold, the model's reading of one text.
WINDOW_CHARS = 450

_windows: dict[Path, tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]] = {}


def windows(text: str, width: int = WINDOW_CHARS) -> list[str]:
    """``text`` cut into pieces of at most ``width`` characters, each at the last space of
    its second half when it has one; the pieces joined give ``text`` back."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + width)
        if end < len(text):
            space = text.rfind(" ", start + width // 2, end)
            end = space if space > start else end
        pieces.append(text[start:end])
        start = end
    return pieces


def window_vectors(path: Path) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Every window's vector of the collection at ``path``, and its passage's id."""
    if path in _windows:
        return _windows[path]
    kept = path.with_name(path.name + ".windows.npz")
    if kept.exists():
        with np.load(kept) as stored:
            found = (stored["vectors"], stored["passages"])
    else:
        with closing(sqlite3.connect(path)) as db:
            documents = {
                row: (text, title)
                for row, text, title in db.execute(
                    "SELECT rowid, text, title FROM corpus_documents"
                )
            }
            texts: list[str] = []
            passages: list[int] = []
            for passage, document, start, end in db.execute(
                "SELECT rowid, document, start, end FROM corpus_passages"
            ):
                text, title = documents[document]
                for window in windows(text[start:end]):
                    texts.append(f"{title}\n{window}")
                    passages.append(passage)
        found = (
            np.asarray(load_embedder().embed(texts), dtype=np.float32),
            np.asarray(passages, dtype=np.int64),
        )
        np.savez(kept, vectors=found[0], passages=found[1])
    _windows[path] = found
    return found


def best_window_search(self: Any, query: npt.NDArray[np.float32], k: int) -> list[Candidate]:
    """``VectorIndex.search`` by each passage's best window."""
    # The benchmark reads the store's file directly; the engine's stores expose no path.
    found, passages = window_vectors(Path(self._store._runner._path))
    scores = found @ np.asarray(query, dtype=np.float32).reshape(-1)
    best: dict[int, float] = {}
    for passage, score in zip(passages.tolist(), scores.tolist(), strict=True):
        if score > best.get(passage, -2.0):
            best[passage] = score
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:k]
    return [Candidate(passage, score, False) for passage, score in ranked]


def main(argv: list[str]) -> int:
    if "--stored" in argv:
        argv = [a for a in argv if a != "--stored"]
    else:
        vectors.VectorIndex.search = best_window_search  # type: ignore[method-assign]
    return search_fusion.main(argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
