"""The embedded model's sense of meaning: the shipped sentence model, loaded once, cached, and
reading the vectors a dense or hybrid ingest stored instead of embedding sections again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("onnxruntime", reason="reading for meaning needs pip install 'citeline[dense]'")

from citeline import answer
from citeline.agent import meaning
from citeline.corpus import Corpus
from citeline.corpus.embedding import Embedder, load_embedder
from citeline.corpus.meaning import MEANING_DTYPE, meaning_text
from citeline.events import Done, Event, encode_sse

QUESTION = "How do I sort a list of dictionaries by a key?"
KEY_FUNCTIONS = meaning_text(
    "Sorting HOW TO: Key Functions",
    "Both list.sort() and sorted() have a key parameter to specify a function",
)
DICTIONARIES = meaning_text(
    "Data Structures: Dictionaries",
    "Another useful data type built into Python is the dictionary. Performing list(d) on a "
    "dictionary returns a list of all the keys",
)
COLLECTION = Path(__file__).parents[1] / "corpus" / "fixtures" / "collection"
# Words of the fixture collection's pages, from which the property test's questions are made.
WORDS = (
    "sample", "preparation", "flow", "cytometry", "lab", "notes", "protocol", "cells",
    "apoptosis", "pathway", "install", "guide", "export", "week", "run", "failed", "how",
    "what", "is", "the", "a", "do", "I",
)  # fmt: skip


class _Counting:
    """The real model, counting the texts it is asked to embed, by how."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self.questions: list[str] = []
        self.sections: list[str] = []
        self.paragraphs: list[str] = []

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def embed_passages(self, texts: list[str]) -> npt.NDArray[np.float32]:
        raise AssertionError("the embedded model's reading never embeds a batch")

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.questions.append(text)
        return np.asarray(self._embedder.embed_query(text), dtype=np.float32)

    def embed_exact(self, text: str) -> npt.NDArray[np.float32]:
        self.sections.append(text)
        return np.asarray(self._embedder.embed_exact(text), dtype=np.float32)

    def embed_quick(self, text: str) -> npt.NDArray[np.float32]:
        self.paragraphs.append(text)
        return np.asarray(self._embedder.embed_quick(text), dtype=np.float32)


@pytest.fixture(params=["sqlite", "postgres"])
def hybrid(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Corpus]:
    """The fixture collection ingested hybrid (passage and meaning vectors), in each store."""
    where = (
        str(tmp_path / "index.sqlite")
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with Corpus.open(where) as corpus:
        corpus.ingest(COLLECTION, retrieval="hybrid")
        yield corpus


def test_the_section_whose_point_is_the_question_is_nearer_than_one_sharing_its_words() -> None:
    similarity = meaning.embedded_similarity()
    assert similarity is not None
    near, far = similarity(QUESTION, [KEY_FUNCTIONS, DICTIONARIES])
    assert near > far


def test_a_section_seen_again_is_not_embedded_again() -> None:
    counting = _Counting(load_embedder())
    similarity = meaning._Meanings(counting).reading(None)
    first = similarity(QUESTION, [KEY_FUNCTIONS, DICTIONARIES])
    again = similarity(QUESTION, [DICTIONARIES, KEY_FUNCTIONS])
    assert counting.sections.count(KEY_FUNCTIONS) == 1
    assert counting.questions == [QUESTION]
    assert again == list(reversed(first))


def test_the_cache_keeps_only_the_most_recent_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning, "CACHED_TEXTS", 2)
    counting = _Counting(load_embedder())
    similarity = meaning._Meanings(counting).reading(None)
    similarity(QUESTION, [KEY_FUNCTIONS])
    similarity(QUESTION, [DICTIONARIES])  # the question and this one are the two kept
    similarity(QUESTION, [KEY_FUNCTIONS])
    assert counting.sections.count(KEY_FUNCTIONS) == 2
    assert counting.questions == [QUESTION]


def test_a_section_is_read_the_same_alone_as_beside_others() -> None:
    similarity = meaning._Meanings(load_embedder()).reading(None)
    [alone] = similarity(QUESTION, [KEY_FUNCTIONS])
    fresh = meaning._Meanings(load_embedder()).reading(None)
    beside, _ = fresh(QUESTION, [KEY_FUNCTIONS, DICTIONARIES])
    assert alone == beside


def test_paragraphs_read_quickly_are_their_own_and_never_stand_for_exact_readings() -> None:
    counting = _Counting(load_embedder())
    similarity = meaning._Meanings(counting).reading(None)
    [quick] = similarity(QUESTION, [KEY_FUNCTIONS], exact=False)
    [beside, _] = similarity(QUESTION, [KEY_FUNCTIONS, DICTIONARIES], exact=False)
    [exact] = similarity(QUESTION, [KEY_FUNCTIONS])
    assert quick == beside  # the same text alone or beside others
    assert counting.paragraphs == [KEY_FUNCTIONS, DICTIONARIES]  # each read once
    assert counting.sections == [KEY_FUNCTIONS]  # the exact reading is its own
    assert abs(quick - exact) < 0.05


def test_meaning_is_off_when_the_setting_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(meaning.MEANING_ENV, "0")
    assert meaning.embedded_similarity() is None


def test_sections_a_hybrid_collection_stored_are_read_and_only_the_question_embedded(
    hybrid: Corpus,
) -> None:
    hits = hybrid.search("flow cytometry sample preparation", k=6)
    sections = [meaning_text(hit.title or hit.doc_id, hit.text) for hit in hits]
    counting = _Counting(load_embedder())
    stored = meaning._Meanings(counting).reading(hybrid)("How is a sample prepared?", sections)
    assert counting.sections == []
    assert counting.questions == ["How is a sample prepared?"]
    computed = meaning._Meanings(load_embedder()).reading(None)
    assert stored == computed("How is a sample prepared?", sections)


def test_a_stored_vector_of_the_wrong_length_is_embedded_again_not_read(
    tmp_path: Path,
) -> None:
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(COLLECTION, retrieval="hybrid")
        [hit] = corpus.search("flow cytometry", k=1)
        corpus._store._connection().execute(
            "UPDATE corpus_meanings SET vector = ?", (np.zeros(7, MEANING_DTYPE).tobytes(),)
        )
        counting = _Counting(load_embedder())
        text = meaning_text(hit.title, hit.text)
        [score] = meaning._Meanings(counting).reading(corpus)("cytometry", [text])
        assert counting.sections == [text]
        assert -1.0 <= score <= 1.0


@pytest.mark.parametrize("question", ["flow cytometry sample preparation", "apoptosis pathway"])
async def test_an_answer_over_a_hybrid_collection_embeds_none_of_the_sections_it_ranks(
    hybrid: Corpus, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The embedded model composes what it reads of a section itself (models cannot import
    # the corpus); ingest must have stored a vector for exactly that text.
    counting = _Counting(load_embedder())
    monkeypatch.setattr(meaning, "_meanings", meaning._Meanings(counting))
    hits = hybrid.search(question, k=12)
    sections = {meaning_text(hit.title or hit.doc_id, hit.text) for hit in hits}
    await _events(question, hybrid)
    assert sections and not sections & set(counting.sections)


async def _events(question: str, corpus: Corpus) -> list[str]:
    found: list[Event] = []
    async for event in answer(question, corpus=corpus):
        found.append(Done(state=event.state, seconds=0.0) if isinstance(event, Done) else event)
    return [encode_sse(event) for event in found]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(question=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join))
async def test_an_answer_over_stored_vectors_equals_the_answer_over_vectors_computed_on_demand(
    hybrid: Corpus, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meaning, "_meanings", None)
    over_stored = await _events(question, hybrid)
    # The same collection and retrieval, with nothing stored: every section embedded here.
    model = hybrid._store.setting("meaning_model")
    monkeypatch.setattr(meaning, "_meanings", None)
    hybrid._store.set_setting("meaning_model", "another model")
    try:
        on_demand = await _events(question, hybrid)
    finally:
        hybrid._store.set_setting("meaning_model", model)
    assert over_stored == on_demand
