"""The embedded model's sense of meaning: the shipped sentence model, loaded once, cached."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("onnxruntime", reason="reading for meaning needs pip install 'citeline[dense]'")

from citeline.agent import meaning
from citeline.corpus.embedding import Embedder, load_embedder

QUESTION = "How do I sort a list of dictionaries by a key?"
KEY_FUNCTIONS = (
    "Sorting HOW TO: Key Functions. Both list.sort() and sorted() have a key parameter to "
    "specify a function"
)
DICTIONARIES = (
    "Data Structures: Dictionaries. Another useful data type built into Python is the "
    "dictionary. Performing list(d) on a dictionary returns a list of all the keys"
)


class _Counting:
    """The real model, counting the texts it is asked to embed."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self.embedded: list[str] = []

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.embedded.extend(texts)
        return np.asarray(self._embedder.embed_passages(texts), dtype=np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.embedded.append(text)
        return np.asarray(self._embedder.embed_query(text), dtype=np.float32)


def test_the_section_whose_point_is_the_question_is_nearer_than_one_sharing_its_words() -> None:
    similarity = meaning.embedded_similarity()
    assert similarity is not None
    near, far = similarity(QUESTION, [KEY_FUNCTIONS, DICTIONARIES])
    assert near > far


def test_a_text_seen_again_is_not_embedded_again() -> None:
    counting = _Counting(load_embedder())
    similarity = meaning._CachedSimilarity(counting)
    first = similarity(QUESTION, [KEY_FUNCTIONS, DICTIONARIES])
    again = similarity(QUESTION, [DICTIONARIES, KEY_FUNCTIONS])
    assert counting.embedded.count(KEY_FUNCTIONS) == 1
    assert counting.embedded.count(QUESTION) == 1
    assert again == pytest.approx(list(reversed(first)))


def test_the_cache_keeps_only_the_most_recent_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning, "CACHED_TEXTS", 2)
    counting = _Counting(load_embedder())
    similarity = meaning._CachedSimilarity(counting)
    similarity(QUESTION, [KEY_FUNCTIONS])
    similarity(QUESTION, [DICTIONARIES])  # the question and this one are the two kept
    similarity(QUESTION, [KEY_FUNCTIONS])
    assert counting.embedded.count(KEY_FUNCTIONS) == 2
    assert counting.embedded.count(QUESTION) == 1


def test_meaning_is_off_when_the_setting_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(meaning.MEANING_ENV, "0")
    assert meaning.embedded_similarity() is None
