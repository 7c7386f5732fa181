"""The development collections as the tests read them: every documentation site's manifest
(``benchmarks/questions/<name>/collection.toml``, read by ``citeline.evaluation.collections``,
the one reader the leave-one-collection-out command uses too) and the folder a collection is
ingested from: its ``prepare.sh``'s, else its site.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from citeline.evaluation.collections import Collection, find_collections
from citeline.evaluation.collections import prepared_folder as _prepared_folder

__all__ = ["QUESTIONS", "Collection", "every_collection", "folder_or_reason", "prepared_folder"]

QUESTIONS = Path(__file__).parents[3] / "benchmarks" / "questions"
# A local prepare.sh copies pages only: a minute is ample for a few hundred and bounds a hang.
LOCAL_PREPARE_S = 60
# A fetching one downloads a sdist first: five minutes, or PyPI is out of reach.
FETCHING_PREPARE_S = 300


def every_collection() -> dict[str, Collection]:
    """Every documentation site whose manifest is under ``benchmarks/questions/``, by name
    (a claims collection, SciFact's, has no site pages to check)."""
    return {
        name: collection
        for name, collection in find_collections(QUESTIONS).items()
        if collection.kind == "site"
    }


def prepared_folder(collection: Collection, cache: Path | None) -> Path:
    """The folder ``collection`` is ingested from (``citeline.evaluation.collections``),
    its ``prepare.sh`` given a minute, or five when it fetches."""
    return _prepared_folder(
        collection,
        cwd=QUESTIONS.parents[1],
        cache=cache,
        timeout_s=FETCHING_PREPARE_S if collection.fetched else LOCAL_PREPARE_S,
    )


def folder_or_reason(collection: Collection, cache: Path) -> Path | str:
    """The folder to ingest ``collection`` from (a local prepare.sh's into ``cache``, a
    fetching one's into the user's, where the download is kept), else the sentence a test
    skips with: its Debian package is not installed, or PyPI cannot be reached."""
    if collection.site is not None and not collection.site.is_dir():
        return f"Debian's {collection.debian_package} is not installed"
    if not collection.fetched:
        return prepared_folder(collection, cache)
    try:
        return prepared_folder(collection, None)
    except subprocess.TimeoutExpired:
        return f"{collection.prepare} took too long: PyPI is out of reach"
    except subprocess.CalledProcessError as error:
        return f"{collection.prepare} could not fetch the sources: {error.stderr.strip()}"
