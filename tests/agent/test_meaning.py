"""The embedded model's sense of meaning: the shipped sentence model, loaded once, cached, and
reading the vectors a dense or hybrid ingest stored instead of embedding sections again."""

from __future__ import annotations

import sqlite3
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
from citeline.corpus.passages import split_passages
from citeline.events import Done, Event, encode_sse
from citeline.models import quotable
from citeline.text.meaning import SectionRead, meaning_text
from citeline.text.vector_bytes import MEANING_DTYPE

pytestmark = pytest.mark.usefixtures("searched_as_built")

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
    """The real model, counting the texts it is asked to embed: questions, and the rest."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self.questions: list[str] = []
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        return np.asarray(self._embedder.embed(texts), dtype=np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.questions.append(text)
        return np.asarray(self._embedder.embed_query(text), dtype=np.float32)


@pytest.fixture(params=["sqlite", "postgres"])
def hybrid(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Corpus]:
    """The fixture collection ingested hybrid (passage and meaning vectors), in each store."""
    where = (
        str(tmp_path / "index.sqlite")
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with Corpus.open(where) as corpus:
        corpus.ingest(COLLECTION, retrieval="hybrid", reading=meaning.reading)
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
    assert counting.texts == [KEY_FUNCTIONS, DICTIONARIES]
    assert again == list(reversed(first))


def test_the_cache_keeps_only_the_most_recent_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning, "CACHED_TEXTS", 1)
    counting = _Counting(load_embedder())
    similarity = meaning._Meanings(counting).reading(None)
    similarity(QUESTION, [KEY_FUNCTIONS])
    similarity(QUESTION, [DICTIONARIES])  # the one kept
    similarity(QUESTION, [KEY_FUNCTIONS])
    assert counting.texts == [KEY_FUNCTIONS, DICTIONARIES, KEY_FUNCTIONS]


@settings(max_examples=20, deadline=None)
@given(
    texts=st.lists(
        st.sampled_from([KEY_FUNCTIONS, DICTIONARIES, "Lab notes, week 12", "x", "Apoptosis. A"]),
        min_size=1,
        max_size=5,
    ),
    exact=st.booleans(),
)
def test_a_text_scores_the_same_alone_as_beside_any_others(texts: list[str], exact: bool) -> None:
    # Each text is embedded alone and each score summed along its own row, so neither its
    # neighbours in the call nor the machine's BLAS kernel choice can move it (an AMD EPYC
    # with AVX-512 summed one row alone in another order than two, before).
    together = meaning._Meanings(load_embedder()).reading(None)(QUESTION, texts, exact=exact)
    for text, score in zip(texts, together, strict=True):
        [alone] = meaning._Meanings(load_embedder()).reading(None)(QUESTION, [text])
        assert alone == score


def test_paragraphs_and_sections_are_read_in_one_arithmetic() -> None:
    # The interface's ``exact`` asks for nothing else any more: one vector a text.
    counting = _Counting(load_embedder())
    similarity = meaning._Meanings(counting).reading(None)
    [quick] = similarity(QUESTION, [KEY_FUNCTIONS], exact=False)
    [exact] = similarity(QUESTION, [KEY_FUNCTIONS])
    assert quick == exact
    assert counting.texts == [KEY_FUNCTIONS]


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
    assert counting.texts == []
    assert counting.questions == ["How is a sample prepared?"]
    computed = meaning._Meanings(load_embedder()).reading(None)
    assert stored == computed("How is a sample prepared?", sections)


def test_a_section_is_as_near_as_its_likest_stored_passage_and_nothing_is_embedded(
    hybrid: Corpus,
) -> None:
    question = "How is a sample prepared?"
    hits = hybrid.search("flow cytometry sample preparation", k=6)
    ids = list(dict.fromkeys(hit.doc_id for hit in hits))
    counting = _Counting(load_embedder())
    likeness = meaning._Meanings(counting).reading(hybrid).passages(question, ids)
    assert counting.texts == []
    embedder = load_embedder()
    asked = np.asarray(embedder.embed_query(question), dtype=np.float64).reshape(-1)
    for doc_id, found in zip(ids, likeness, strict=True):
        document = hybrid.get(doc_id)
        assert document is not None and found is not None
        # Each passage as ingest embeds it (its title, a line, its text), stored in float16:
        # within a rounding of the likest passage's cosine computed afresh.
        texts = [f"{document.title}\n{p.text}" for p in split_passages(document.text)]
        expected = max(float(np.dot(embedder.embed([text])[0], asked)) for text in texts)
        assert found == pytest.approx(expected, abs=2e-3)


def test_a_section_with_no_stored_passage_has_no_likeness(hybrid: Corpus, tmp_path: Path) -> None:
    similarity = meaning._Meanings(load_embedder()).reading(hybrid)
    [hit] = hybrid.search("flow cytometry", k=1)
    assert similarity.passages("cytometry", ["no-such-section", None]) == [None, None]
    with Corpus.open(tmp_path / "lexical.sqlite") as lexical:
        lexical.ingest(COLLECTION, retrieval="lexical")
        words_only = meaning._Meanings(load_embedder()).reading(lexical)
        assert words_only.passages("cytometry", [hit.doc_id]) == [None]


def test_a_stored_vector_of_the_wrong_length_is_embedded_again_not_read(
    tmp_path: Path,
) -> None:
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        corpus.ingest(COLLECTION, retrieval="hybrid", reading=meaning.reading)
        [hit] = corpus.search("flow cytometry", k=1)
        with sqlite3.connect(tmp_path / "index.sqlite") as connection:
            connection.execute(
                "UPDATE corpus_meanings SET vector = ?", (np.zeros(7, MEANING_DTYPE).tobytes(),)
            )
        counting = _Counting(load_embedder())
        text = meaning_text(hit.title, hit.text)
        [score] = meaning._Meanings(counting).reading(corpus)("cytometry", [text])
        assert counting.texts == [text]
        assert -1.0 <= score <= 1.0


@pytest.mark.parametrize(
    "question",
    ["flow cytometry sample preparation", "apoptosis pathway", "How do I install the tool?"],
)
async def test_an_answer_over_an_ingested_collection_embeds_only_its_question(
    hybrid: Corpus, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The embedded model composes what it reads of a section itself (models cannot import
    # the corpus), its titles and openings and its paragraphs; ingest must have stored a
    # vector for exactly those texts, and the answer counts every text it embeds. Of a
    # section too small to quote ingest stores the title alone: what else of it an answer
    # reads, it embeds (the fixture's one such record, 39 characters, is in every answer's
    # search results).
    too_small = [d.text for d in hybrid.documents() if not quotable(d.text)]
    assert too_small
    counting = _Counting(load_embedder())
    monkeypatch.setattr(meaning, "_meanings", meaning._Meanings(counting))
    await _events(question, hybrid)
    assert all(any(section in text for section in too_small) for text in counting.texts)
    assert set(counting.questions) <= {question}


def test_a_section_too_small_to_quote_is_read_by_its_title_alone() -> None:
    pointer = SectionRead("glossary#gil", "Glossary: GIL", "See global interpreter lock.", ())
    assert meaning.reading(pointer) == ["Glossary: GIL"]
    prose = "The global interpreter lock lets one thread at a time run Python bytecode."
    section = SectionRead("glossary#gil", "Glossary: GIL", prose, (prose,))
    assert meaning.reading(section) == [
        meaning_text("Glossary: GIL", prose),
        "Glossary: GIL",
        prose,
    ]


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
