"""A development collection's manifest (``benchmarks/questions/<name>/collection.toml``, in the
format /work/COLLECTION_FORMAT.md agrees), every manifest there is, and the folder a
collection is ingested from: its ``prepare.sh``'s, else its site.

Paths in a manifest are relative to its folder, except ``site`` (an installed site, absolute).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from citeline.evaluation.questions import EvalQuestion, load_questions

QUESTIONS = Path(__file__).parents[3] / "benchmarks" / "questions"
# A local prepare.sh copies pages only: a minute is ample for a few hundred and bounds a hang.
LOCAL_PREPARE_S = 60
# A fetching one downloads a sdist first: five minutes, or PyPI is out of reach.
FETCHING_PREPARE_S = 300


@dataclass(frozen=True, slots=True)
class Collection:
    """One manifest, its paths resolved; ``followups`` and ``off_topic`` may be absent."""

    folder: Path
    name: str
    generator: str
    base_url: str
    questions: Path
    followups: Path | None
    off_topic: Path | None
    site: Path | None
    debian_package: str | None
    prepare: Path | None

    @classmethod
    def load(cls, folder: Path) -> Collection:
        """``folder/collection.toml``, read."""
        manifest = tomllib.loads((folder / "collection.toml").read_text(encoding="utf-8"))

        def path(key: str) -> Path | None:
            return folder / str(manifest[key]) if manifest.get(key) else None

        return cls(
            folder=folder,
            name=str(manifest["name"]),
            generator=str(manifest.get("generator", "")),
            base_url=str(manifest["base_url"]),
            questions=folder / str(manifest["questions"]),
            followups=path("followups"),
            off_topic=path("off_topic"),
            site=Path(str(manifest["site"])) if manifest.get("site") else None,
            debian_package=str(manifest.get("debian_package") or "") or None,
            prepare=path("prepare"),
        )

    @property
    def fetched(self) -> bool:
        """Whether the sources come from the network (no Debian package installs them)."""
        return self.debian_package is None

    def answerable(self) -> list[EvalQuestion]:
        """The questions and the follow-ups: every line that has gold."""
        follow_ups = load_questions(self.followups) if self.followups else []
        return [*load_questions(self.questions), *follow_ups]


def every_collection() -> dict[str, Collection]:
    """Every collection whose manifest is under ``benchmarks/questions/``, by folder name."""
    return {
        manifest.parent.name: Collection.load(manifest.parent)
        for manifest in sorted(QUESTIONS.glob("*/collection.toml"))
    }


def prepared_folder(collection: Collection, cache: Path | None) -> Path:
    """The folder ``collection`` is ingested from: the last line its ``prepare.sh`` prints,
    run from the repository root as ``run.sh`` runs it with ``cache`` as the collections'
    cache (``None``: the user's, so a download is kept between runs), else its site. Raises
    ``subprocess.CalledProcessError`` or ``TimeoutExpired`` when the script fails."""
    if collection.prepare is None:
        assert collection.site is not None, f"{collection.name} names no site and no prepare"
        return collection.site
    environment = {**os.environ, "PIP": f"{sys.executable} -m pip"}
    if cache is not None:
        environment["CITELINE_COLLECTIONS_CACHE"] = str(cache)
    done = subprocess.run(
        [str(collection.prepare)],
        cwd=QUESTIONS.parents[1],
        env=environment,
        capture_output=True,
        text=True,
        timeout=FETCHING_PREPARE_S if collection.fetched else LOCAL_PREPARE_S,
        check=True,
    )
    return Path(done.stdout.strip().splitlines()[-1])
