"""The development collections: their manifests, their cached indexes and their questions.

Every folder ``benchmarks/questions/<name>/`` with a ``collection.toml``
(``COLLECTION_FORMAT.md`` at the workspace root, and ``README.md`` beside this file) is a
collection. ``load_collections`` reads the manifests; ``built_index`` ingests a collection's
site once per version of the ingest code (the ``citeline.corpus`` sources) and keeps the index
under the collections cache; ``collection_questions`` turns each question file's gold
addresses into that index's ids (``gold_ids.py``) and loads them.

The manifest's optional keys beyond the agreed format: ``gold_relative`` (the gold addresses
are relative to ``base_url``, as the Python sample's are) and ``gold_within_page`` (a gold
anchor that is no section's names its page's section). Paths in a manifest are relative to
its folder. This module answers nothing and scores nothing.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parent
REPOSITORY = QUESTIONS.parents[1]
sys.path.insert(0, str(QUESTIONS))

import gold_ids  # noqa: E402  (the script beside this one, not a package)
from filelock import FileLock  # noqa: E402

from citeline.corpus import Corpus  # noqa: E402
from citeline.evaluation.questions import EvalQuestion, load_questions  # noqa: E402

CACHE_ENV = "CITELINE_COLLECTIONS_CACHE"
# The sources whose change can change an index: every module of the corpus layer.
INGEST_SOURCES = REPOSITORY / "src" / "citeline" / "corpus"


@dataclass(frozen=True, slots=True)
class Collection:
    """One manifest, its paths made absolute. ``kind`` is "site" (a documentation site,
    a row of the leave-one-out table) or "claims" (SciFact's claims over its abstracts: in
    every fold's training, every ``train_every``-th claim, and reported apart)."""

    name: str
    folder: Path
    generator: str
    description: str
    base_url: str
    questions: Path
    followups: Path | None
    off_topic: Path | None
    site: Path | None
    prepare: Path | None
    debian_package: str | None
    gold_relative: bool
    gold_within_page: bool
    kind: str = "site"
    train_every: int = 1


def cache_root() -> Path:
    """Where prepared folders, indexes and extracted features are kept."""
    chosen = os.environ.get(CACHE_ENV, "").strip()
    return Path(chosen) if chosen else Path.home() / ".cache" / "citeline-collections"


def load_collections(names: list[str] | None = None) -> list[Collection]:
    """Every collection whose manifest is under ``benchmarks/questions/``, by name; only
    ``names`` when given (an unknown name stops the run)."""
    found: list[Collection] = []
    for manifest in sorted(QUESTIONS.glob("*/collection.toml")):
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        folder = manifest.parent

        def path(key: str, data: dict[str, object] = data, folder: Path = folder) -> Path | None:
            value = data.get(key)
            return (folder / str(value)).resolve() if value else None

        if data.get("kind") == "claims":
            found.append(_claims_collection(manifest, data))
            continue
        questions = path("questions")
        if questions is None:
            raise SystemExit(f"{manifest} names no questions file.")
        found.append(
            Collection(
                name=str(data.get("name") or folder.name),
                folder=folder,
                generator=str(data.get("generator", "")),
                description=str(data.get("description", "")),
                base_url=str(data["base_url"]),
                questions=questions,
                followups=path("followups"),
                off_topic=path("off_topic"),
                site=Path(str(data["site"])) if data.get("site") else None,
                prepare=path("prepare"),
                debian_package=str(data["debian_package"]) if data.get("debian_package") else None,
                gold_relative=bool(data.get("gold_relative", False)),
                gold_within_page=bool(data.get("gold_within_page", False)),
            )
        )
    if names:
        known = {c.name: c for c in found}
        unknown = [name for name in names if name not in known]
        if unknown:
            raise SystemExit(
                f"No collection named {', '.join(unknown)}; known: {', '.join(known)}."
            )
        found = [known[name] for name in names]
    return found


def shared_data() -> Path:
    """The shared data folder: ``CITELINE_SHARED_DATA``, else ``../shared/data`` beside the
    checkout."""
    chosen = os.environ.get("CITELINE_SHARED_DATA", "").strip()
    return Path(chosen) if chosen else REPOSITORY.parent / "shared" / "data"


def _claims_collection(manifest: Path, data: dict[str, object]) -> Collection:
    corpus = shared_data() / str(data["corpus"])
    claims = shared_data() / str(data["claims"])
    for needed in (corpus, claims):
        if not needed.is_file():
            raise SystemExit(f"{manifest} needs {needed}; see ../shared/data/README.md.")
    return Collection(
        name=str(data.get("name") or manifest.parent.name),
        folder=manifest.parent,
        generator="",
        description=str(data.get("description", "")),
        base_url="",
        questions=claims,
        followups=None,
        off_topic=None,
        site=corpus,
        prepare=None,
        debian_package=None,
        gold_relative=False,
        gold_within_page=False,
        kind="claims",
        train_every=int(str(data.get("train_every", 1))),
    )


def code_digest(sources: list[Path]) -> str:
    """A digest of what ``sources`` do, not of how they are commented: each module's syntax
    tree without its docstrings, so a comment or a docstring edited costs no rebuild."""
    digest = hashlib.sha256()
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (
                isinstance(body, list)
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                body[0] = ast.Pass()
        digest.update(source.name.encode())
        digest.update(ast.dump(tree).encode())
    return digest.hexdigest()[:12]


def ingest_version() -> str:
    """A digest of the corpus layer's code: an index built by other code is built again."""
    return code_digest(sorted(INGEST_SOURCES.rglob("*.py")))


def site_folder(collection: Collection) -> Path:
    """The folder to ingest: the one ``prepare`` prints on its last line, else ``site``."""
    if collection.prepare is not None:
        env = {**os.environ, CACHE_ENV: str(cache_root())}
        done = subprocess.run(
            [str(collection.prepare)],
            cwd=REPOSITORY,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        lines = done.stdout.strip().splitlines()
        if not lines:
            raise SystemExit(f"{collection.prepare} printed no folder.")
        return Path(lines[-1])
    if collection.kind == "claims" and collection.site is not None:
        return collection.site
    if collection.site is None or not collection.site.is_dir():
        package = collection.debian_package or "its package"
        raise SystemExit(
            f"No site for {collection.name} at {collection.site}: install {package} "
            "(apt-get install ...)."
        )
    return collection.site


def _site_identity(collection: Collection, folder: Path) -> str:
    version = ""
    if collection.debian_package:
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", collection.debian_package],
            capture_output=True,
            text=True,
            check=False,
        )
        version = done.stdout.strip()
    return f"{folder}|{collection.base_url}|{version}"


def built_index(collection: Collection, *, retrieval: str = "", log: bool = True) -> Path:
    """The collection's index, ingested now unless this version of the ingest code built it;
    ``retrieval`` is ingest's ``--retrieval`` (its default when empty)."""
    folder = site_folder(collection)
    identity = f"{ingest_version()}|{_site_identity(collection, folder)}|{retrieval}"
    key = hashlib.sha256(identity.encode()).hexdigest()[:12]
    home = cache_root() / "indexes" / f"{collection.name}-{key}"
    index = home / "site.sqlite"
    if (home / "complete").exists():
        return index
    home.parent.mkdir(parents=True, exist_ok=True)
    # Two runs at once (a fit and a check) build one index, not two into one folder.
    with FileLock(str(home.with_name(home.name + ".lock"))):
        if (home / "complete").exists():
            return index
        _ingest(collection, folder, home, retrieval=retrieval, log=log)
    return index


def _ingest(collection: Collection, folder: Path, home: Path, *, retrieval: str, log: bool) -> None:
    if home.exists():
        shutil.rmtree(home)
    building = home.with_name(home.name + ".building")
    if building.exists():
        shutil.rmtree(building)
    building.mkdir(parents=True)
    if log:
        print(f"ingesting {collection.name} from {folder} ...", file=sys.stderr, flush=True)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "citeline",
            "ingest",
            str(folder),
            "--db",
            str(building / "site.sqlite"),
            *(["--base-url", collection.base_url] if collection.base_url else []),
            *(["--retrieval", retrieval] if retrieval else []),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    (building / "ingest.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    # 1: some files were skipped (the log names them); the rest is indexed.
    if done.returncode > 1:
        raise SystemExit(f"Ingesting {collection.name} failed; see {building / 'ingest.log'}.")
    (building / "complete").touch()
    building.rename(home)


@dataclass(frozen=True, slots=True)
class QuestionSets:
    """A collection's questions with gold as its index's ids."""

    questions: list[EvalQuestion]
    followups: list[EvalQuestion]
    off_topic: list[EvalQuestion]


def collection_questions(collection: Collection, index: Path) -> QuestionSets:
    """The collection's three files with gold addresses made ``index``'s ids; a gold address
    the index does not hold stops the run, naming it. Claims name their abstracts by id."""
    if collection.kind == "claims":
        return QuestionSets(load_questions(collection.questions), [], [])
    with Corpus.open(index) as corpus:
        by_url = gold_ids.sections_by_url(
            gold_ids.IndexedSection(document.id, document.url, document.text)
            for document in corpus.documents()
        )
    prefix = collection.base_url if collection.gold_relative else ""
    loaded: list[list[EvalQuestion]] = []
    for path in (collection.questions, collection.followups, collection.off_topic):
        if path is None:
            loaded.append([])
            continue
        records = [record for _, record in gold_ids.read_jsonl(path)]
        rewritten = [
            gold_ids.rewrite(record, by_url, prefix=prefix, within_page=collection.gold_within_page)
            for record in records
        ]
        missing = sorted({url for r in rewritten for url in r.missing_urls})
        if missing:
            raise SystemExit(
                f"{len(missing)} gold addresses of {path} are not in {collection.name}'s index "
                f"({index}): " + ", ".join(missing[:5])
            )
        target = index.parent / f"{path.stem}.ids.jsonl"
        text = "".join(json.dumps(r.record, ensure_ascii=False) + "\n" for r in rewritten)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        loaded.append(load_questions(target))
    return QuestionSets(*loaded)
