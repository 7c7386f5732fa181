"""Meaning vectors: what an ingest with the extra stores of each document for the embedded
model's reading (``citeline.text.meaning``), kept in step with the documents, in each store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Corpus
from citeline.text.meaning import (
    MEANING_CHARS,
    MEANING_TITLE_CHARS,
    SectionRead,
    meaning_key,
    meaning_text,
    section_meanings,
)
from citeline.text.vector_bytes import MEANING_DTYPE

pytest.importorskip("onnxruntime", reason="meaning vectors need pip install 'citeline[dense]'")

from citeline.corpus.embedding import load_embedder
from citeline.corpus.minilm import MiniLM

pytestmark = pytest.mark.usefixtures("searched_as_built")


def _texts(corpus: Corpus) -> list[str]:
    """The meaning text of every stored passage, as an answer composes it from a search hit."""
    texts = []
    for document in corpus.documents():
        for hit in corpus.search(document.text[:60], k=20):
            texts.append(meaning_text(hit.title or hit.doc_id, hit.text))
    return texts


def _with_paragraphs(section: SectionRead) -> list[str]:
    """A reader that also reads each blank-line paragraph, as the embedded model's does."""
    paragraphs = (p.strip() for p in section.text.split("\n\n"))
    return [*section_meanings(section), *(p for p in paragraphs if p)]


@given(title=st.text(max_size=400), passage=st.text(max_size=200))
def test_a_meaning_text_is_the_bounded_title_then_the_passages_opening(
    title: str, passage: str
) -> None:
    text = meaning_text(title, passage)
    assert text == f"{title[:MEANING_TITLE_CHARS]}. {passage[:MEANING_CHARS]}"
    assert meaning_key(text) == meaning_key(meaning_text(title, passage))
    assert len(meaning_key(text)) == 16


def test_an_ingest_stores_for_each_text_read_the_vector_an_answer_would_compute(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection, reading=_with_paragraphs)
    embedder = load_embedder()
    assert corpus._store.count_without_meaning() == 0
    paragraphs = [p.strip() for d in corpus.documents() for p in d.text.split("\n\n") if p.strip()]
    texts = [*_texts(corpus), *paragraphs]
    stored = corpus.meaning_vectors(texts, embedder.model_id)
    assert set(stored) == set(texts)
    for text in texts[:3] + paragraphs[:3]:
        computed = np.asarray(embedder.embed([text])[0], dtype=MEANING_DTYPE)
        assert stored[text] == computed.tobytes()


def test_a_text_is_embedded_alone_whatever_it_is_embedded_beside() -> None:
    embedder = load_embedder()
    texts = ["Sorting HOW TO. Key functions", "pause my script briefly", "a", "x " * 300]
    together = embedder.embed(texts)
    for row, text in enumerate(texts):
        assert together[row].tobytes() == embedder.embed([text])[0].tobytes()
    assert embedder.embed_query(texts[1]).tobytes() == together[1].tobytes()


def test_vectors_another_model_made_are_not_handed_out(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection, reading=section_meanings)
    assert corpus.meaning_vectors(_texts(corpus), "another-model") == {}


def test_a_text_no_document_holds_has_no_vector(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection, reading=section_meanings)
    model = load_embedder().model_id
    assert corpus.meaning_vectors(["Nowhere. in this collection"], model) == {}
    assert corpus.meaning_vectors([], model) == {}


def test_every_mode_stores_them_but_an_ingest_told_nothing_to_read_stores_none(
    corpus: Corpus, collection: Path
) -> None:
    model = load_embedder().model_id
    corpus.ingest(collection, retrieval="lexical")
    assert corpus.meaning_vectors(_texts(corpus), model) == {}
    corpus.ingest(collection, retrieval="lexical", reading=section_meanings)
    assert set(corpus.meaning_vectors(_texts(corpus), model)) == set(_texts(corpus))
    assert corpus._store.count_without_meaning() == 0


def test_a_reader_that_reads_nothing_still_leaves_each_document_read(
    corpus: Corpus, collection: Path
) -> None:
    def nothing(section: SectionRead) -> Sequence[str]:
        return []

    corpus.ingest(collection, reading=nothing)
    assert corpus._store.count_without_meaning() == 0


def test_a_changed_document_gets_new_vectors_and_a_removed_one_loses_its_own(
    open_corpus: Callable[[], Corpus], collection: Path
) -> None:
    corpus = open_corpus()
    corpus.ingest(collection, reading=_with_paragraphs)
    model = load_embedder().model_id
    note = collection / "notes" / "lab-notes.txt"
    old = [t for t in _texts(corpus) if t.startswith("Lab notes")]
    assert old and corpus.meaning_vectors(old, model)

    note.write_text("Lab notes, week 13\n\nThe flow cytometry run failed.\n", encoding="utf-8")
    corpus.ingest(collection, reading=_with_paragraphs)
    assert corpus._store.count_without_meaning() == 0
    new = [t for t in _texts(corpus) if "flow cytometry run failed" in t]
    assert new and set(corpus.meaning_vectors(new, model)) == set(new)
    assert corpus.meaning_vectors(["The flow cytometry run failed."], model)
    assert corpus.meaning_vectors([t for t in old if t not in new], model) == {}

    note.unlink()
    corpus.ingest(collection, prune=True, reading=_with_paragraphs)
    assert corpus.meaning_vectors([*new, "The flow cytometry run failed."], model) == {}


@pytest.mark.parametrize("schema", ["3", "4"])
def test_an_older_file_gains_the_new_table_and_its_next_ingest_fills_it(
    tmp_path: Path, collection: Path, schema: str
) -> None:
    path = tmp_path / "index.sqlite"
    with Corpus.open(path) as corpus:
        corpus.ingest(collection, reading=section_meanings)
        count = len(corpus)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE corpus_meanings")
        if schema == "4":
            # Schema 4 held one float vector a passage, keyed by passage alone.
            connection.execute(
                "CREATE TABLE corpus_meanings (passage INTEGER PRIMARY KEY, key BLOB NOT NULL, "
                "vector BLOB NOT NULL)"
            )
            connection.execute("INSERT INTO corpus_meanings VALUES (1, x'00', x'00')")
        connection.execute(
            "UPDATE corpus_meta SET value = ? WHERE key = 'schema_version'", (schema,)
        )
    with Corpus.open(path) as corpus:
        assert len(corpus) == count
        assert corpus._store.count_without_meaning() == count
        corpus.ingest(collection, reading=section_meanings)
        assert corpus.meaning_vectors(_texts(corpus), load_embedder().model_id)
        assert corpus._store.count_without_meaning() == 0
    with sqlite3.connect(path) as connection:
        version = connection.execute(
            "SELECT value FROM corpus_meta WHERE key = 'schema_version'"
        ).fetchone()
    assert version == ("5",)


def _stored(path: Path) -> tuple[dict[tuple[str, int, int], bytes], dict[tuple[str, bytes], bytes]]:
    """Every passage vector by (document, start, end), every meaning vector by (document,
    key), as an SQLite collection holds them."""
    with sqlite3.connect(path) as connection:
        passages = connection.execute(
            "SELECT d.id, p.start, p.end, v.vector FROM corpus_vectors AS v "
            "JOIN corpus_passages AS p ON p.rowid = v.passage "
            "JOIN corpus_documents AS d ON d.rowid = p.document"
        ).fetchall()
        meanings = connection.execute(
            "SELECT d.id, m.key, m.vector FROM corpus_meanings AS m "
            "JOIN corpus_passages AS p ON p.rowid = m.passage "
            "JOIN corpus_documents AS d ON d.rowid = p.document"
        ).fetchall()
    return (
        {(doc, start, end): bytes(vector) for doc, start, end, vector in passages},
        {(doc, bytes(key)): bytes(vector) for doc, key, vector in meanings},
    )


def test_a_collection_stores_the_same_vector_bytes_embedded_in_batches_or_one_text_a_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two copies of one abstract under two ids, and two titles SciFact writes in two cases
    # ("Corresponding author:", "Corresponding Author:"): texts of the same word pieces in
    # one batch, beside texts of other lengths.
    abstract = "Apoptosis was measured in cultured cells.\n\nCaspase activity rose twofold."
    rows = [
        ("a1", "Cell death in culture", abstract),
        ("a2", "Cell death in culture", abstract),
        ("b1", "Corresponding author:", "Over the years the lab measured the flow."),
        ("b2", "Corresponding Author:", "Over the years the lab measured the flow."),
        ("c", "A section of its own", "Nothing here is written twice."),
    ]
    source = tmp_path / "corpus.jsonl"
    source.write_text(
        "".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in rows),
        encoding="utf-8",
    )
    model = load_embedder()
    assert isinstance(model, MiniLM)
    one_call = model.embed
    with Corpus.open(tmp_path / "shipped.sqlite") as corpus:
        corpus.ingest(source, retrieval="hybrid", reading=_with_paragraphs)

    def one_text_a_call(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.concatenate([one_call([text]) for text in texts]) if texts else one_call([])

    monkeypatch.setattr(model, "embed", one_text_a_call)
    with Corpus.open(tmp_path / "alone.sqlite") as corpus:
        corpus.ingest(source, retrieval="hybrid", reading=_with_paragraphs)

    assert _stored(tmp_path / "shipped.sqlite") == _stored(tmp_path / "alone.sqlite")
    passages, meanings = _stored(tmp_path / "shipped.sqlite")
    assert len(passages) == 5 and len(meanings) == 3 + 3 + 2 + 2 + 2
