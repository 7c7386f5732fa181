"""One analysis in two configurations: each configuration's terms are its plain definition,
written out word by word here, however the words were found and whatever the memo holds."""

from __future__ import annotations

import re

import Stemmer
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.text import ANSWER, INDEX
from citeline.text.answer_terms import compounds, content_terms, content_words
from citeline.text.stop_words import ANSWER_STOP_WORDS

_STEMMER = Stemmer.Stemmer("english")
# The answerer's words by definition: a decimal, or letters and digits joined by hyphens or
# apostrophes; a camel-case name (letters only, mixed case) followed by its parts.
_WRITTEN = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*")
_JOIN = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _answer_words(text: str) -> list[str]:
    found: list[str] = []
    for word in _WRITTEN.findall(text):
        found.append(word.lower())
        if word.isalpha() and not word.islower() and not word.isupper() and _JOIN.search(word):
            found.extend(part.lower() for part in _JOIN.split(word))
    return [w for w in found if w not in ANSWER_STOP_WORDS and len(w) > 1]


# Pieces of names and prose: camel joins, stop words, decimals, hyphens, characters outside
# ASCII.
_TEXT = st.lists(
    st.sampled_from(
        [*"abcXYZ019 _-.,;:'\"!?()#\n", "HTTP", "Html", "Response", "the ", "with", "é", "ß"]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300)
@given(_TEXT)
def test_the_answerers_terms_are_its_defined_words_stemmed(text: str) -> None:
    ANSWER.stems.clear()
    assert content_words(text) == _answer_words(text)
    assert ANSWER.terms(text) == [_STEMMER.stemWord(w) for w in _answer_words(text)]
    assert content_terms(text) == set(ANSWER.terms(text))


def test_a_name_written_in_camel_case_is_its_parts_in_both_configurations() -> None:
    assert ANSWER.terms("parseHTTPHeader") == ["parsehttphead", "pars", "http", "header"]
    assert INDEX.terms("parseHTTPHeader") == ["parsehttphead", "pars", "http", "header"]


def test_each_configuration_sets_aside_its_own_stop_words() -> None:
    # "about" says nothing to the answerer; the index keeps it (BM25 discounts it).
    assert ANSWER.terms("about sorting") == ["sort"]
    assert INDEX.terms("about sorting") == ["about", "sort"]


def test_a_compound_starts_with_a_stop_word_for_the_answerer_only() -> None:
    assert "isinst" in compounds("is instance")
    assert INDEX.compound_terms("is instance") == []
    assert INDEX.compound_terms("starts with") == ["startswith"]


@given(_TEXT)
def test_terms_of_a_texts_tokens_are_its_terms(text: str) -> None:
    for analysis in (INDEX, ANSWER):
        assert analysis.terms_of(analysis.tokens(text)) == analysis.terms(text)
