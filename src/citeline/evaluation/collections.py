"""A development collection's manifest: ``collection.toml``, read once for everyone.

Each collection a question set is measured on is a folder holding its question files and a
``collection.toml`` in the agreed format (``benchmarks/questions/README.md``): the site to
ingest (or a ``prepare`` script that makes it), the base address its gold addresses start
with, and its three question files. The leave-one-collection-out command
(``benchmarks/questions/crossval.py``) and the tests that check each set's gold against its
site both read manifests here, so a key added to the format is read one way. A manifest of
``kind = "claims"`` (SciFact's claims over its abstracts) names its corpus and claims by
their paths under the shared data folder instead, which the caller resolves.

Paths in a manifest are relative to its folder, but ``site`` (an installed site, absolute).
This module reads and runs nothing else: it neither ingests nor scores.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from citeline.errors import CitelineError
from citeline.evaluation.questions import EvalQuestion, load_questions

__all__ = [
    "MANIFEST",
    "Collection",
    "ManifestError",
    "find_collections",
    "prepared_folder",
    "read_collection",
]

MANIFEST = "collection.toml"
# A manifest is a dozen lines; anything far larger is not one, and is not read whole.
MAX_MANIFEST_BYTES = 64_000

CollectionKind = Literal["site", "claims"]


class ManifestError(CitelineError, ValueError):
    """A ``collection.toml`` that cannot be read as the format says."""


@dataclass(frozen=True, slots=True)
class Collection:
    """One manifest, its paths resolved. ``kind`` is "site" (a documentation site: a row of
    the leave-one-out table) or "claims" (claims over a corpus of abstracts: part of every
    fold's training, every ``train_every``-th claim, reported apart); a claims collection's
    ``corpus`` and ``claims`` are paths under the shared data folder, its other paths absent.
    ``gold_relative``: the gold addresses are relative to ``base_url``; ``gold_within_page``:
    a gold anchor that is no section's names its page's section."""

    folder: Path
    name: str
    kind: CollectionKind = "site"
    generator: str = ""
    description: str = ""
    base_url: str = ""
    questions: Path | None = None
    followups: Path | None = None
    off_topic: Path | None = None
    site: Path | None = None
    prepare: Path | None = None
    debian_package: str | None = None
    gold_relative: bool = False
    gold_within_page: bool = False
    corpus: str | None = None
    claims: str | None = None
    train_every: int = 1

    @property
    def fetched(self) -> bool:
        """Whether its sources come from the network (no Debian package installs them)."""
        return self.kind == "site" and self.debian_package is None

    def answerable(self) -> list[EvalQuestion]:
        """The questions and the follow-ups: every line that has gold."""
        files = [path for path in (self.questions, self.followups) if path is not None]
        return [question for path in files for question in load_questions(path)]


def read_collection(folder: Path) -> Collection:
    """``folder/collection.toml``, read; raises ``ManifestError`` naming what is wrong."""
    manifest = folder / MANIFEST
    with manifest.open("rb") as handle:
        raw = handle.read(MAX_MANIFEST_BYTES + 1)
    if len(raw) > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{manifest} is over {MAX_MANIFEST_BYTES:,} bytes; is it a manifest?")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ManifestError(f"{manifest} is not TOML ({error}); fix the line it names.") from None
    name = _text(data, "name") or folder.name
    if data.get("kind", "site") == "claims":
        return Collection(
            folder=folder,
            name=name,
            kind="claims",
            description=_text(data, "description"),
            corpus=_required(data, "corpus", manifest),
            claims=_required(data, "claims", manifest),
            train_every=max(1, int(str(data.get("train_every", 1)))),
        )
    if data.get("kind", "site") != "site":
        raise ManifestError(f"{manifest} says kind = {data['kind']!r}; use site or claims.")

    def path(key: str) -> Path | None:
        value = _text(data, key)
        return (folder / value).resolve() if value else None

    return Collection(
        folder=folder,
        name=name,
        generator=_text(data, "generator"),
        description=_text(data, "description"),
        base_url=_required(data, "base_url", manifest),
        questions=(folder / _required(data, "questions", manifest)).resolve(),
        followups=path("followups"),
        off_topic=path("off_topic"),
        site=Path(_text(data, "site")) if _text(data, "site") else None,
        prepare=path("prepare"),
        debian_package=_text(data, "debian_package") or None,
        gold_relative=bool(data.get("gold_relative", False)),
        gold_within_page=bool(data.get("gold_within_page", False)),
    )


def find_collections(root: Path) -> dict[str, Collection]:
    """Every collection whose manifest is in a folder directly under ``root``, by name."""
    found = [read_collection(manifest.parent) for manifest in sorted(root.glob(f"*/{MANIFEST}"))]
    return {collection.name: collection for collection in found}


def prepared_folder(
    collection: Collection,
    *,
    cwd: Path,
    cache: Path | None = None,
    timeout_s: float | None = None,
) -> Path:
    """The folder ``collection`` is ingested from: the last line its ``prepare`` script
    prints, run from ``cwd`` (the repository root, as its ``run.sh`` runs it) with ``cache``
    as the collections' cache (``None``: the user's), else its ``site``. Raises
    ``subprocess.CalledProcessError`` or ``TimeoutExpired`` when the script fails, and
    ``ManifestError`` when it prints no folder or the manifest names neither."""
    if collection.prepare is None:
        if collection.site is None:
            raise ManifestError(f"{collection.name}'s manifest names no site and no prepare.")
        return collection.site
    environment: Mapping[str, str] = {
        **os.environ,
        "PIP": f"{sys.executable} -m pip",
        **({"CITELINE_COLLECTIONS_CACHE": str(cache)} if cache is not None else {}),
    }
    done = subprocess.run(
        [str(collection.prepare)],
        cwd=cwd,
        env=dict(environment),
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise ManifestError(f"{collection.prepare} printed no folder on its last line.")
    return Path(lines[-1])


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key)
    return "" if value is None else str(value)


def _required(data: Mapping[str, object], key: str, manifest: Path) -> str:
    value = _text(data, key)
    if not value:
        raise ManifestError(f"{manifest} has no {key}; add it (see the collection format).")
    return value
