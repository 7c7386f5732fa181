"""Other revisions' source trees, to run beside this one (``ingest_cpu.py``,
``ingest_fingerprint.py``): each is ``git archive``d into a scratch folder, never checked out,
so the working tree and its index stay as they are. It runs nothing of what it unpacks."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def source_trees(scratch: Path, revisions: Sequence[str]) -> dict[str, Path]:
    """``src`` of this tree (as "this tree") and of each of ``revisions``, unpacked in
    ``scratch``, by name."""
    trees = {"this tree": ROOT / "src"}
    for revision in revisions:
        folder = scratch / revision.replace("/", "_")
        folder.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        trees[revision] = folder / "src"
    return trees
