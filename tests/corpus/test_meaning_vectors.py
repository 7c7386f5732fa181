"""Meaning vectors: what a dense or hybrid ingest stores of each passage for the embedded
model's reading (``citeline.corpus.meaning``), kept in step with the passages, in each store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Corpus
from citeline.corpus.meaning import (
    MEANING_CHARS,
    MEANING_DTYPE,
    MEANING_TITLE_CHARS,
    meaning_key,
    meaning_text,
)

pytest.importorskip("onnxruntime", reason="meaning vectors need pip install 'citeline[dense]'")

from citeline.corpus.embedding import load_embedder


def _texts(corpus: Corpus) -> list[str]:
    """The meaning text of every stored passage, as an answer composes it from a search hit."""
    texts = []
    for document in corpus.documents():
        for hit in corpus.search(document.text[:60], k=20):
            texts.append(meaning_text(hit.title or hit.doc_id, hit.text))
    return texts


@given(title=st.text(max_size=400), passage=st.text(max_size=200))
def test_a_meaning_text_is_the_bounded_title_then_the_passages_opening(
    title: str, passage: str
) -> None:
    text = meaning_text(title, passage)
    assert text == f"{title[:MEANING_TITLE_CHARS]}. {passage[:MEANING_CHARS]}"
    assert meaning_key(text) == meaning_key(meaning_text(title, passage))
    assert len(meaning_key(text)) == 16


def test_a_hybrid_ingest_stores_for_each_passage_the_vector_an_answer_would_compute(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection, retrieval="hybrid")
    embedder = load_embedder()
    assert corpus._store.count_without_meaning() == 0
    texts = _texts(corpus)
    stored = corpus.meaning_vectors(texts, embedder.model_id)
    assert set(stored) == set(texts)
    for text in texts[:5]:
        computed = np.asarray(embedder.embed_exact(text), dtype=MEANING_DTYPE)
        assert stored[text] == computed.tobytes()


def test_vectors_another_model_made_are_not_handed_out(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection, retrieval="hybrid")
    assert corpus.meaning_vectors(_texts(corpus), "another-model") == {}


def test_a_text_no_passage_holds_has_no_vector(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection, retrieval="hybrid")
    model = load_embedder().model_id
    assert corpus.meaning_vectors(["Nowhere. in this collection"], model) == {}
    assert corpus.meaning_vectors([], model) == {}


def test_a_lexical_collection_stores_none_and_a_lexical_ingest_drops_them(
    corpus: Corpus, collection: Path
) -> None:
    model = load_embedder().model_id
    corpus.ingest(collection)
    assert corpus.meaning_vectors(_texts(corpus), model) == {}
    corpus.ingest(collection, retrieval="hybrid")
    assert corpus.meaning_vectors(_texts(corpus), model)
    corpus.ingest(collection, retrieval="lexical")
    assert corpus._store.setting("meaning_model") is None
    assert corpus._store.meanings([meaning_key(t) for t in _texts(corpus)]) == {}


def test_a_changed_passage_gets_a_new_vector_and_a_removed_one_loses_its_own(
    open_corpus: Callable[[], Corpus], collection: Path
) -> None:
    corpus = open_corpus()
    corpus.ingest(collection, retrieval="hybrid")
    model = load_embedder().model_id
    note = collection / "notes" / "lab-notes.txt"
    old = [t for t in _texts(corpus) if t.startswith("Lab notes")]
    assert old and corpus.meaning_vectors(old, model)

    note.write_text("Lab notes, week 13\n\nThe flow cytometry run failed.\n", encoding="utf-8")
    corpus.ingest(collection)
    assert corpus._store.count_without_meaning() == 0
    new = [t for t in _texts(corpus) if "flow cytometry run failed" in t]
    assert new and set(corpus.meaning_vectors(new, model)) == set(new)
    assert corpus.meaning_vectors([t for t in old if t not in new], model) == {}

    note.unlink()
    corpus.ingest(collection, prune=True)
    assert corpus.meaning_vectors(new, model) == {}


def test_a_schema_3_file_gains_the_meaning_table_and_keeps_its_documents(
    tmp_path: Path, collection: Path
) -> None:
    path = tmp_path / "index.sqlite"
    with Corpus.open(path) as corpus:
        corpus.ingest(collection)
        count = len(corpus)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE corpus_meanings")
        connection.execute("UPDATE corpus_meta SET value = '3' WHERE key = 'schema_version'")
    with Corpus.open(path) as corpus:
        assert len(corpus) == count
        corpus.ingest(collection, retrieval="hybrid")
        assert corpus.meaning_vectors(_texts(corpus), load_embedder().model_id)
    with sqlite3.connect(path) as connection:
        version = connection.execute(
            "SELECT value FROM corpus_meta WHERE key = 'schema_version'"
        ).fetchone()
    assert version == ("4",)
