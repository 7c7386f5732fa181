"""The collections cache of the leave-one-out harness (``benchmarks/questions/dev_collections.py``):
an index is built once per version of the ingest code; where only the page readers changed,
an earlier index of the same site is reused if the site still reads into the same documents,
found by a lexical ingest, and embedded again if not; where only the search index's code
changed, the store is reused as it is and the index built from it on open. Embedding every
collection again cost hours on two cores for a change that most sites never see."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

import dev_collections

from citeline.corpus import Corpus
from citeline.corpus.embedding import dense_installed
from citeline.evaluation.collections import Collection

pytestmark = pytest.mark.skipif(not dense_installed(), reason="needs the dense extra")


@pytest.fixture
def ingests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The retrieval of every ingest the cache runs, in order."""
    monkeypatch.setenv(dev_collections.CACHE_ENV, str(tmp_path / "cache"))
    ran: list[str] = []
    run = dev_collections._run_ingest

    def counted(collection: Collection, folder: Path, into: Path, *, retrieval: str) -> None:
        ran.append(retrieval)
        run(collection, folder, into, retrieval=retrieval)

    monkeypatch.setattr(dev_collections, "_run_ingest", counted)
    return ran


def _collection(tmp_path: Path, text: str) -> Collection:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "index.md").write_text(f"# Jars\n\n{text}\n\n## Lids\n\nA lid screws on.\n")
    return Collection(folder=tmp_path, name="jars", site=site, base_url="https://example.org/")


def _readers(monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """As if the ingest code were at ``version``, its storing code unchanged."""
    monkeypatch.setattr(dev_collections, "ingest_version", lambda: version)
    monkeypatch.setattr(dev_collections, "readers_version", lambda: version)


def _search_index_code(monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """As if the search index's code (alone) were at ``version``."""
    monkeypatch.setattr(dev_collections, "ingest_version", lambda: version)
    monkeypatch.setattr(dev_collections, "builder_version", lambda: version)


def test_new_readers_that_read_the_same_documents_reuse_the_index_they_would_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ingests: list[str]
) -> None:
    collection = _collection(tmp_path, "A jar keeps jam.")
    _readers(monkeypatch, "readers-1")
    first = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    _readers(monkeypatch, "readers-2")
    second = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    assert first != second
    assert ingests == ["hybrid", "lexical"]
    assert dev_collections.documents_digest(second) == dev_collections.documents_digest(first)
    assert "the same documents" in (second.parent / "ingest.log").read_text()


def test_new_readers_that_read_other_documents_embed_the_site_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ingests: list[str]
) -> None:
    collection = _collection(tmp_path, "A jar keeps jam.")
    _readers(monkeypatch, "readers-1")
    dev_collections.built_index(collection, retrieval="hybrid", log=False)
    # As if the new readers kept a sentence the old ones lost.
    collection = _collection(tmp_path, "A jar keeps jam. A jar keeps honey too.")
    _readers(monkeypatch, "readers-2")
    dev_collections.built_index(collection, retrieval="hybrid", log=False)
    assert ingests == ["hybrid", "lexical", "hybrid"]


def test_an_index_of_other_storing_code_is_never_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ingests: list[str]
) -> None:
    collection = _collection(tmp_path, "A jar keeps jam.")
    _readers(monkeypatch, "readers-1")
    dev_collections.built_index(collection, retrieval="hybrid", log=False)
    monkeypatch.setattr(dev_collections, "store_version", lambda: "another store")
    _readers(monkeypatch, "readers-2")
    dev_collections.built_index(collection, retrieval="hybrid", log=False)
    assert ingests == ["hybrid", "hybrid"]


def test_a_change_to_the_search_index_alone_reuses_the_store_and_builds_the_index_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ingests: list[str]
) -> None:
    collection = _collection(tmp_path, "A jar keeps jam.")
    first = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    (first.parent / "features-0123456789abcdef.pickle.gz").write_bytes(b"read off the index")
    _search_index_code(monkeypatch, "search-index-2")
    second = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    assert first != second
    # Nothing read again, nothing embedded again; nothing derived from the old index kept.
    assert ingests == ["hybrid"]
    kept = {path.name for path in second.parent.iterdir()}
    assert "site.sqlite" in kept
    assert not [name for name in kept if "search-index" in name or name.startswith("features-")]
    with Corpus.open(second) as corpus:
        assert [hit.title for hit in corpus.search("lid", k=1)] == ["Jars › Lids"]
