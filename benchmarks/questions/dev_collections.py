"""The development collections: their manifests, their cached indexes and their questions.

Every folder ``benchmarks/questions/<name>/`` with a ``collection.toml``
(``COLLECTION_FORMAT.md`` at the workspace root, and ``README.md`` beside this file) is a
collection. ``load_collections`` reads the manifests (with ``citeline.evaluation.collections``,
the one reader the tests use too); ``built_index`` ingests a collection's
site once per version of the ingest code (the ``citeline.corpus`` sources) and keeps the index
under the collections cache, reusing an earlier one where only the page readers changed and the
site reads into the same documents, and an earlier store (without its derived search index)
where only the search index's code changed; ``collection_questions`` turns each question file's gold
addresses into that index's ids (``gold_ids.py``) and loads them.

This module answers nothing and scores nothing.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parent
REPOSITORY = QUESTIONS.parents[1]
# Collections nobody fits or tunes on: only the answer engine as it ships is asked over them.
HELD_OUT = REPOSITORY / "benchmarks" / "held-out"
sys.path.insert(0, str(QUESTIONS))

import gold_ids  # noqa: E402  (the script beside this one, not a package)
from filelock import FileLock  # noqa: E402

from citeline.corpus import Corpus  # noqa: E402
from citeline.corpus.embedding import dense_installed  # noqa: E402
from citeline.evaluation.collections import (  # noqa: E402
    MANIFEST,
    Collection,
    ManifestError,
    find_collections,
    prepared_folder,
)
from citeline.evaluation.questions import EvalQuestion, load_questions  # noqa: E402

CACHE_ENV = "CITELINE_COLLECTIONS_CACHE"
# The text package: the index's terms and the meaning recipe (ingest's and the answerer's).
TEXT_SOURCES = REPOSITORY / "src" / "citeline" / "text"
# The sources whose change can change an index: every module of the corpus layer and of the
# text package it analyses with; a change to either builds the index again.
INGEST_SOURCES = (REPOSITORY / "src" / "citeline" / "corpus", TEXT_SOURCES)
# The page readers: what turns a site's files into documents. Every other module of the ingest
# stores, splits and embeds documents; where only the readers changed, a site they read into
# the same documents, in the same order, makes the same index.
READERS = REPOSITORY / "src" / "citeline" / "corpus" / "formats"
# The search index's own modules. The index is derived from the store and built again when a
# collection opens under another ``INDEX_FORMAT``; nothing the store or its vectors hold comes
# of these (only ``corpus.py`` and ``retrieval.py`` import ``search_index``, only it imports
# ``headings``), so where only they changed, an earlier store serves without its index. The
# text package is not among them: its analysis is also the recipe the vectors are made by.
DERIVED_INDEX = tuple(
    REPOSITORY / "src" / "citeline" / "corpus" / name for name in ("search_index.py", "headings.py")
)
# What of an earlier build is derived from its index, and is not copied with its store: the
# search index, the features extracted through it, the gold ids read off it.
DERIVED_FILES = ("*.search-index", "*.search-index.lock", "features-*.pickle.gz", "*.ids.jsonl")
# Beside each cached index: what built it, so a later ingest can tell whether it still holds.
BUILT_FROM = "built-from.json"


def cache_root() -> Path:
    """Where prepared folders, indexes and extracted features are kept."""
    chosen = os.environ.get(CACHE_ENV, "").strip()
    return Path(chosen) if chosen else Path.home() / ".cache" / "citeline-collections"


def load_collections(names: list[str] | None = None, *, held_out: bool = False) -> list[Collection]:
    """Every collection whose manifest is under ``benchmarks/questions/`` (``held_out``:
    ``benchmarks/held-out/``) (``citeline.evaluation.collections``, the reader the tests use
    too), in name order; only ``names`` when given (an unknown name stops the run). A claims
    collection's claims and corpus are made its ``questions`` and ``site``, under the shared
    data folder."""
    try:
        known = find_collections(HELD_OUT if held_out else QUESTIONS)
        if held_out and known.keys() & find_collections(QUESTIONS).keys():
            # Indexes are cached by name: one name for two sites would answer from the other.
            shared = ", ".join(sorted(known.keys() & find_collections(QUESTIONS).keys()))
            raise SystemExit(f"Held-out collections named as development ones: {shared}.")
    except ManifestError as error:
        raise SystemExit(str(error)) from None
    if names:
        unknown = [name for name in names if name not in known]
        if unknown:
            raise SystemExit(
                f"No collection named {', '.join(unknown)}; known: {', '.join(known)}."
            )
    chosen = [known[name] for name in names] if names else sorted(known.values(), key=_by_name)
    return [_with_shared_data(c) if c.kind == "claims" else c for c in chosen]


def _by_name(collection: Collection) -> str:
    return collection.name


def shared_data() -> Path:
    """The shared data folder: ``CITELINE_SHARED_DATA``, else ``../shared/data`` beside the
    checkout."""
    chosen = os.environ.get("CITELINE_SHARED_DATA", "").strip()
    return Path(chosen) if chosen else REPOSITORY.parent / "shared" / "data"


def _with_shared_data(collection: Collection) -> Collection:
    corpus = shared_data() / str(collection.corpus)
    claims = shared_data() / str(collection.claims)
    for needed in (corpus, claims):
        if not needed.is_file():
            raise SystemExit(
                f"{collection.folder / MANIFEST} needs {needed}; see ../shared/data/README.md."
            )
    return dataclasses.replace(collection, questions=claims, site=corpus)


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
    """A digest of the code that decides an index's contents: one built by other code is built
    again."""
    return code_digest(sorted(path for folder in INGEST_SOURCES for path in folder.rglob("*.py")))


def site_folder(collection: Collection) -> Path:
    """The folder to ingest: the one ``prepare`` prints on its last line, else ``site``."""
    if collection.kind == "claims" and collection.site is not None:
        return collection.site
    # Called under the collection's lock (``built_index``): two runs at once prepare one
    # folder, not two into one (a prepare script failed with its twin writing the same files).
    try:
        folder = prepared_folder(collection, cwd=REPOSITORY, cache=cache_root())
    except ManifestError as error:
        raise SystemExit(str(error)) from None
    if collection.prepare is None and not folder.is_dir():
        package = collection.debian_package or "its package"
        raise SystemExit(
            f"No site for {collection.name} at {folder}: install {package} (apt-get install ...)."
        )
    return folder


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
    # Named, so that an index built for ingest's default and one asked for by that name are
    # one index, not two built an hour apart.
    retrieval = retrieval or ("hybrid" if dense_installed() else "lexical")
    # Preparing and ingesting one collection are one step across processes: two runs at once,
    # a fit and a check, build one index, not two into one folder. (When a prepare script
    # copied its site afresh each time, another run's prepare while this one ingested left
    # Rust by Example's index with 175 of 326 documents; site_pages.sh now copies it once.)
    cache_root().mkdir(parents=True, exist_ok=True)
    with FileLock(str(cache_root() / f"{collection.name}.site.lock")):
        return _built_index(collection, site_folder(collection), retrieval, log)


def _built_index(collection: Collection, folder: Path, retrieval: str, log: bool) -> Path:
    site = _site_identity(collection, folder)
    key = hashlib.sha256(f"{ingest_version()}|{site}|{retrieval}".encode()).hexdigest()[:12]
    home = cache_root() / "indexes" / f"{collection.name}-{key}"
    index = home / "site.sqlite"
    built_from = {
        "collection": collection.name,
        "site": site,
        "retrieval": retrieval,
        "builder": builder_version(),
        "store": store_version(),
        "readers": readers_version(),
    }
    if (home / "complete").exists():
        _remember(home, built_from)
        return index
    home.parent.mkdir(parents=True, exist_ok=True)
    _ingest(collection, folder, home, retrieval=retrieval, log=log, built_from=built_from)
    return index


def builder_version() -> str:
    """A digest of the ingest code but the page readers (``READERS``)."""
    return code_digest(
        sorted(
            path
            for folder in INGEST_SOURCES
            for path in folder.rglob("*.py")
            if READERS not in path.parents
        )
    )


def readers_version() -> str:
    """A digest of the page readers (``READERS``)."""
    return code_digest(sorted(READERS.rglob("*.py")))


def store_version() -> str:
    """A digest of the ingest code but the page readers and the search index's modules
    (``DERIVED_INDEX``): what makes a store and its vectors of the documents read."""
    return code_digest(
        sorted(
            path
            for folder in INGEST_SOURCES
            for path in folder.rglob("*.py")
            if READERS not in path.parents and path not in DERIVED_INDEX
        )
    )


def documents_digest(index: Path) -> str:
    """A digest of the index's documents, in the order they were stored, and its site name:
    two indexes of one builder that agree on it agree on every row."""
    digest = hashlib.sha256()
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as connection:
        rows = connection.execute("SELECT id, content_hash FROM corpus_documents ORDER BY rowid")
        for doc_id, content in rows:
            digest.update(f"{doc_id}\0{content}\n".encode())
        name = connection.execute(
            "SELECT value FROM corpus_meta WHERE key = 'setting:site_name'"
        ).fetchone()
    connection.close()
    digest.update(repr(name).encode())
    return digest.hexdigest()


def _remember(home: Path, built_from: dict[str, str]) -> None:
    path = home / BUILT_FROM
    seen = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    # A record written before a field was (``store``) gains it: this index's key is a digest
    # of all the ingest code, so the code at hand is the code that built it.
    if not built_from.items() <= seen.items():
        record = {**built_from, **seen}
        record.setdefault("documents", documents_digest(home / "site.sqlite"))
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")


def _earlier_builds(built_from: dict[str, str]) -> list[tuple[bool, float, Path]]:
    """The cached indexes of the same site and store code, whatever readers made them: each
    with whether its builder is this one (else only its search index's code differs) and
    its time, best first (the same builder, then the newest)."""
    found = []
    for record in (cache_root() / "indexes").glob(f"*/{BUILT_FROM}"):
        seen = json.loads(record.read_text(encoding="utf-8"))
        if all(seen.get(k) == built_from[k] for k in ("collection", "site", "retrieval", "store")):
            same = seen.get("builder") == built_from["builder"]
            found.append((same, record.stat().st_mtime, record.parent))
    return sorted(found, reverse=True)


def _ingest(
    collection: Collection,
    folder: Path,
    home: Path,
    *,
    retrieval: str,
    log: bool,
    built_from: dict[str, str],
) -> None:
    if home.exists():
        shutil.rmtree(home)
    building = home.with_name(home.name + ".building")
    if building.exists():
        shutil.rmtree(building)
    building.mkdir(parents=True)
    earlier_builds = _earlier_builds(built_from)
    derived_only = [path for _, _, path in earlier_builds if _read_by_these(path, built_from)]
    if derived_only:
        # Only the search index's code changed since that build: its store and vectors hold,
        # and the index is built from them when the collection first opens.
        _copy_build(derived_only[0], building, DERIVED_FILES)
        _finish(building, home, built_from)
        return
    if earlier_builds and retrieval != "lexical":
        # Only the readers or the search index's code changed: a lexical ingest (seconds,
        # where embedding takes minutes) says whether the readers still read this site into
        # the same documents as one of them.
        if log:
            print(
                f"reading {collection.name} again to compare with {len(earlier_builds)} "
                "earlier builds ...",
                file=sys.stderr,
                flush=True,
            )
        _run_ingest(collection, folder, building / "probe", retrieval="lexical")
        documents = documents_digest(building / "probe" / "site.sqlite")
        shutil.rmtree(building / "probe")
        same = [
            (same_builder, path)
            for same_builder, _, path in earlier_builds
            if json.loads((path / BUILT_FROM).read_text(encoding="utf-8"))["documents"] == documents
        ]
        if same:
            same_builder, earlier = same[0]
            # The index and what was read off it (gold ids, extracted features): all hold,
            # but where the search index's code changed: then the store and its vectors do,
            # and the index is built from them when the collection first opens.
            _copy_build(earlier, building, () if same_builder else DERIVED_FILES)
            _finish(building, home, built_from)
            return
    if log:
        print(f"ingesting {collection.name} from {folder} ...", file=sys.stderr, flush=True)
    _run_ingest(collection, folder, building, retrieval=retrieval)
    _finish(building, home, built_from)


def _read_by_these(earlier: Path, built_from: dict[str, str]) -> bool:
    """Whether the build at ``earlier`` read its site with the readers at hand (a record
    written before its ``readers`` field was cannot say so)."""
    seen = json.loads((earlier / BUILT_FROM).read_text(encoding="utf-8"))
    return seen.get("readers") == built_from["readers"]


def _copy_build(earlier: Path, building: Path, derived: tuple[str, ...]) -> None:
    """An earlier build of the same documents, less what names the build and ``derived``."""
    shutil.copytree(
        earlier,
        building,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("complete", BUILT_FROM, "*.lock", "ingest.log", *derived),
    )
    (building / "ingest.log").write_text(f"the same documents as {earlier}\n", encoding="utf-8")


def _run_ingest(collection: Collection, folder: Path, into: Path, *, retrieval: str) -> None:
    into.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "citeline",
            "ingest",
            str(folder),
            "--db",
            str(into / "site.sqlite"),
            *(["--base-url", collection.base_url] if collection.base_url else []),
            *(["--retrieval", retrieval] if retrieval else []),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    (into / "ingest.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    # 1: some files were skipped (the log names them); the rest is indexed.
    if done.returncode > 1:
        raise SystemExit(f"Ingesting {collection.name} failed; see {into / 'ingest.log'}.")


def _finish(building: Path, home: Path, built_from: dict[str, str]) -> None:
    _remember(building, built_from)
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
    if collection.kind == "claims" and collection.questions is not None:
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
