"""The corpus store's contract, held by every backend: one store written over a dialect and
a runner must keep what each backend kept when it was written twice.

These talk to the store itself (``store``, each backend in turn); what the whole corpus does
over it is tested through ``corpus`` in the other files of this folder.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.store_batches import version

from citeline.corpus.passages import split_passages
from citeline.corpus.stores import sql
from citeline.corpus.stores.base import Candidate, CorpusStore
from citeline.corpus.stores.postgres import PostgresDialect
from citeline.corpus.stores.sqlite import SQLiteDialect, SQLiteStore

_VECTOR = bytes(range(8))


def _passages(store: CorpusStore, doc_id: str) -> list[int]:
    [document] = store.indexable([doc_id])
    return [passage for passage, _, _ in document.passages]


def test_a_replaced_document_takes_its_vectors_of_both_kinds_with_it(store: CorpusStore) -> None:
    store.put_many([version("a", "alpha one. alpha two. alpha three.")])
    passages = _passages(store, "a")
    store.put_vectors([(passage, _VECTOR) for passage in passages])
    store.put_meanings([(passages[0], b"key-a", _VECTOR)])
    before = store.vectors_version()
    assert sorted(passage for passage, _ in store.vectors()) == passages
    assert store.meanings([b"key-a"]) == {b"key-a": _VECTOR}
    assert (store.count_unembedded(), store.count_without_meaning()) == (0, 0)

    store.put_many([version("a", "alpha rewritten")])
    assert list(store.vectors()) == []
    assert store.meanings([b"key-a"]) == {}
    assert store.vectors_version() > before
    assert store.count_unembedded() == len(_passages(store, "a"))
    [unread] = store.without_meaning(10)
    [stored] = store.indexable(["a"])
    assert (unread.doc_id, unread.passages) == ("a", stored.passages)


def test_only_a_change_of_vectors_tells_the_vector_index_to_reload(store: CorpusStore) -> None:
    store.put_many([version("a", "alpha"), version("b", "beta")])
    [first] = _passages(store, "a")
    store.put_vectors([(first, _VECTOR)])
    loaded = store.vectors_version()
    # Replacing or removing a document that had no vectors leaves the version alone.
    store.put_many([version("b", "beta again")])
    store.delete("b")
    assert store.vectors_version() == loaded
    store.delete("a")
    assert store.vectors_version() > loaded
    cleared = store.vectors_version()
    store.clear_vectors()
    assert store.vectors_version() > cleared


def test_a_vector_for_a_passage_gone_since_is_skipped(store: CorpusStore) -> None:
    store.put_many([version("a", "alpha")])
    [passage] = _passages(store, "a")
    gone = passage + 1000
    store.put_vectors([(passage, _VECTOR), (gone, _VECTOR)])
    store.put_meanings([(gone, b"gone", _VECTOR)])
    assert list(store.vectors()) == [(passage, _VECTOR)]
    assert store.meanings([b"gone"]) == {}
    # Written again, a vector replaces the one before.
    store.put_vectors([(passage, _VECTOR[::-1])])
    store.put_meanings([(passage, b"k", _VECTOR), (passage, b"k", _VECTOR[::-1])])
    assert list(store.vectors()) == [(passage, _VECTOR[::-1])]
    assert store.meanings([b"k", b"unknown"]) == {b"k": _VECTOR[::-1]}


def test_every_document_and_vector_is_listed_across_pages(
    store: CorpusStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sql, "_DOCUMENTS_PAGE", 2)
    monkeypatch.setattr(sql, "_VECTORS_PAGE", 2)
    ids = [f"d{n}" for n in range(5)]
    store.put_many([version(doc_id, f"text of {doc_id}") for doc_id in ids])
    passages = [passage for doc_id in ids for passage in _passages(store, doc_id)]
    store.put_vectors([(passage, passage.to_bytes(8, "big")) for passage in passages])
    assert [document.id for document in store.documents()] == ids
    assert list(store.vectors()) == [(p, p.to_bytes(8, "big")) for p in passages]


def test_settings_and_the_release_label_are_kept_and_forgotten(store: CorpusStore) -> None:
    assert (store.setting("retrieval"), store.release_label()) == (None, None)
    store.set_setting("retrieval", "hybrid")
    store.set_setting("retrieval", "dense")
    store.set_release_label("2024-06")
    assert (store.setting("retrieval"), store.release_label()) == ("dense", "2024-06")
    store.put_many([version("a", "alpha")])
    assert store.release_label() is None
    store.set_setting("retrieval", None)
    assert store.setting("retrieval") is None


def test_a_store_keeps_its_name_and_another_has_another(store: CorpusStore, tmp_path: Path) -> None:
    name = store.identity()
    assert store.identity() == name
    other = SQLiteStore(tmp_path / "other.sqlite")
    try:
        assert other.identity() != name
    finally:
        other.close()


_TEXTS = ("alpha", "beta gamma delta epsilon zeta eta theta", "iota. kappa. lambda mu nu xi")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.one_of(
            st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=5),
            st.integers(0, 5),
        ),
        max_size=6,
    )
)
def test_any_sequence_of_batches_and_removals_leaves_what_it_says(
    store: CorpusStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    steps: list[list[tuple[int, int]] | int],
) -> None:
    # Lists of two values a statement, so every list a statement takes is cut in runs.
    for dialect in (SQLiteDialect, PostgresDialect):
        monkeypatch.setattr(dialect, "list_bound", 2)
    # The store outlives the examples: each starts it empty, under ids of its own.
    for doc_id in store.indexed():
        store.delete(doc_id)
    prefix = secrets.token_hex(4)
    start = store.generation()
    texts: dict[str, str] = {}
    removed: set[str] = set()
    for step in steps:
        if isinstance(step, int):
            doc_id = f"{prefix}-{step}"
            store.delete(doc_id)
            if texts.pop(doc_id, None) is not None:
                removed.add(doc_id)
            continue
        batch = [version(f"{prefix}-{n}", _TEXTS[t]) for n, t in step]
        store.put_many(batch)
        texts.update((each.document.id, each.document.text) for each in batch)
        removed.difference_update(each.document.id for each in batch)

    assert {d.id: d.text for d in store.documents()} == texts
    assert (store.count(), set(store.indexed())) == (len(texts), set(texts))
    changes = store.changes_since(start)
    assert (set(changes.changed), set(changes.removed)) == (set(texts), removed)
    assert changes.generation == store.generation()
    indexable = {d.doc_id: d for d in store.indexable([*texts, "absent"])}
    assert set(indexable) == set(texts)
    for doc_id, document in indexable.items():
        expected = split_passages(texts[doc_id], 20)
        assert [(a, b) for _, a, b in document.passages] == [(p.start, p.end) for p in expected]
        candidates = [Candidate(passage, 1.0) for passage, _, _ in document.passages]
        hits = store.hits(candidates)
        assert [hit.text for hit in hits] == [texts[doc_id][p.start : p.end] for p in expected]
    # The digest is of what is stored, not of how it got there: a store given only the
    # final documents, in one batch, has it too.
    final = SQLiteStore(tmp_path / f"{prefix}.sqlite")
    try:
        final.put_many([version(doc_id, text) for doc_id, text in texts.items()])
        assert store.content_digest() == final.content_digest()
    finally:
        final.close()
