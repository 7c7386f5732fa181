"""The index's terms: what a term is does not depend on how the words were found: the ASCII
fast path, the regular expression and the memo all give the terms of the plain definition."""

from __future__ import annotations

import dataclasses
import re

import Stemmer
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.corpus.headings import query_title_keys, title_key
from citeline.text.index_terms import INDEX
from citeline.text.stemming import Stems
from citeline.text.stop_words import INDEX_STOP_WORDS as STOP_WORDS
from citeline.text.words import fold
from citeline.text.words import folded_words as words

terms = INDEX.terms

_DEFINITION = re.compile(r"\w+")
_STEMMER = Stemmer.Stemmer("english")


# A name in camel case: ASCII letters, a lower-case letter before a capital (or a capital
# run before a capitalised word), split at those joins.
_CAMEL_NAME = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b|\b[A-Z]+[A-Z][a-z][A-Za-z]*\b")
_CAMEL_JOIN = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _camel_words(name: str) -> list[str]:
    """A camel-case name's words, an acronym's plural ("RNAs") kept whole, when every one has
    three letters or more."""
    found = _CAMEL_JOIN.split(name)
    if len(found) > 1 and re.fullmatch("[A-Z]s", found[-1]):
        found = [*found[:-2], found[-2] + found[-1]]
    return found if len(found) > 1 and min(map(len, found)) >= 3 else []


def _defined_terms(text: str) -> list[str]:
    """The definition, word by word: \\w runs of the folded text, then the parts of its names
    (an underscored word's of two characters or more, a camel-case name's words), stop words
    out, stemmed."""
    found = _DEFINITION.findall(fold(text))
    found += [
        part for word in list(found) if "_" in word for part in word.split("_") if len(part) > 1
    ]
    found += [fold(part) for name in _CAMEL_NAME.findall(text) for part in _camel_words(name)]
    return [_STEMMER.stemWord(word) for word in found if word not in STOP_WORDS]


def test_a_name_written_as_code_is_also_its_words() -> None:
    assert terms("find_or_insert") == ["find_or_insert", "find", "insert"]
    assert terms("HtmlResponse") == ["htmlrespons", "html", "respons"]
    assert terms("parseHTTPHeader") == ["parsehttphead", "pars", "http", "header"]


def test_a_name_prose_writes_in_camel_case_is_one_word() -> None:
    # A prefix on an acronym, an acronym's plural, a digit: names, not words.
    assert terms("IPv6, mRNA, siRNAs and URLs") == ["ipv6", "mrna", "sirna", "url"]
    assert terms("getURLs") == ["geturl", "get", "url"]
    # The cost, for a code name with a two-letter word: only its whole.
    assert terms("toString") == ["tostr"]


# ASCII punctuation and digits beside letters, and characters that decompose or are words
# outside ASCII (accents, ligatures, Greek, CJK, superscripts, combining marks).
_TEXT = st.text(
    alphabet=st.sampled_from(
        [
            *"abcXYZ019 _-.,;:'\"!?()[]{}#@\t\n\x0b\x1c/\\",
            *("é", "Ü", "ß", "ﬁ", "Σ", "ς", "漢", "²", "\u0301", "\u00a0", "İ", "ǅ"),
        ]
    ),
    max_size=80,
)


@settings(max_examples=500)
@given(_TEXT)
def test_words_are_the_runs_of_word_characters_of_the_folded_text(text: str) -> None:
    assert words(text) == _DEFINITION.findall(fold(text))


@given(_TEXT)
def test_terms_are_the_defined_terms_with_the_memo_cold_or_warm(text: str) -> None:
    INDEX.stems.clear()
    assert terms(text) == _defined_terms(text)
    assert terms(text) == _defined_terms(text)


def test_a_stop_word_leaves_and_the_rest_is_stemmed() -> None:
    assert terms("The Running of the BULLS, naïvely.") == ["run", "bull", "naiv"]


def test_a_query_analysed_once_gives_the_keys_of_its_text() -> None:
    query = "How do I sort a list of dictionaries by a key?"
    every, asked = query_title_keys(terms(query))
    assert every == title_key(query)
    assert asked == title_key("sort list dictionaries key")


def test_the_memo_starts_again_past_its_bound_and_the_terms_stay_right() -> None:
    small = dataclasses.replace(INDEX, stems=Stems(STOP_WORDS, shortest=1, bound=3))
    text = "Hostile text brings ever more distinct words: alpha beta gamma delta epsilon."
    assert small.terms(text) == _defined_terms(text)
    assert len(small.stems) <= 3


# Mostly ASCII with a few characters from anywhere in Unicode (the byte path), and text
# from anywhere (many distinct characters: the table path).
_MOSTLY_ASCII = st.lists(
    st.one_of(st.sampled_from(["protein", " ", "-", "cell.", "x_1", "\n"]), st.characters()),
    max_size=120,
).map("".join)


@settings(max_examples=300)
@given(st.one_of(_MOSTLY_ASCII, st.text(max_size=300)))
def test_words_of_text_from_anywhere_are_the_defined_words(text: str) -> None:
    assert words(text) == _DEFINITION.findall(fold(text))
