"""The search over every development collection with dense vectors over the whole passage:
each passage ranked by its best window's vector, not by its stored vector alone.

Run from the repository root (the dense extra installed; the indexes are the ones
``crossval.py`` builds, in ``CITELINE_COLLECTIONS_CACHE``), with ``search_fusion.py``'s own
options:

    .venv/bin/python benchmarks/questions/search_windows.py --weights 0.4,0.6
    .venv/bin/python benchmarks/questions/search_windows.py --weights 0.4,0.6 --collections scifact
    .venv/bin/python benchmarks/questions/search_windows.py --stored --weights 0.4,0.6
    .venv/bin/python benchmarks/questions/search_windows.py --first-window-share 0.3 --weights 0.4

A stored passage is up to 2,000 characters, and its vector is the sentence model's reading
of its title and first 128 word pieces (about 450 characters): the rest of a long passage is
found by its words alone. Here every passage is cut into windows of about ``WINDOW_CHARS``
characters at a space, each embedded as ingest embeds a passage (its title, a line break,
the window), and the dense ranking gives each passage its best window's dot product with
the question. The window vectors are kept beside each index (``site.sqlite.windows.npz``),
so a second run only searches. ``--first-window-share S`` scores a passage ``S`` of its first
window's dot product and the rest of its best window's: the best of several windows alone
favours a long passage for the number of draws it gets. ``--stored`` runs the same loop on
the stored vectors, the search as it ships, for a comparison in one place. Nothing in the
engine changes: this measures whether building it is worth about three vectors a passage
(docs/benchmarks.md, "What dense retrieval never reads").
"""

from __future__ import annotations

import argparse
import functools
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


def passage_scores(
    scores: npt.NDArray[np.float32], passages: npt.NDArray[np.int64], first_share: float
) -> dict[int, float]:
    """Each passage's score from its windows' ``scores`` (``passages`` lists a passage's
    windows together, in order): ``first_share`` of its first window's, the rest its best's."""
    if len(scores) == 0:
        return {}
    starts = np.flatnonzero(np.r_[True, passages[1:] != passages[:-1]])
    best = np.maximum.reduceat(scores, starts)
    mixed = first_share * scores[starts] + (1 - first_share) * best
    return dict(zip(passages[starts].tolist(), mixed.tolist(), strict=True))


def window_search(
    self: Any, query: npt.NDArray[np.float32], k: int, *, first_share: float
) -> list[Candidate]:
    """``VectorIndex.search`` by each passage's windows (``passage_scores``)."""
    # The benchmark reads the store's file directly; the engine's stores expose no path.
    found, passages = window_vectors(Path(self._store._runner._path))
    scores = found @ np.asarray(query, dtype=np.float32).reshape(-1)
    scored = passage_scores(scores, passages, first_share)
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:k]
    return [Candidate(passage, score, False) for passage, score in ranked]


def main(argv: list[str]) -> int:
    # This script's own options; the rest are search_fusion.py's.
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--stored", action="store_true")
    parser.add_argument("--first-window-share", type=float, default=0.0)
    options, rest = parser.parse_known_args(argv)
    if not 0 <= options.first_window_share <= 1:
        raise SystemExit("--first-window-share is a share from 0 to 1.")
    if not options.stored:
        search = functools.partialmethod(window_search, first_share=options.first_window_share)
        vectors.VectorIndex.search = search  # type: ignore[assignment,method-assign]
    return search_fusion.main(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
