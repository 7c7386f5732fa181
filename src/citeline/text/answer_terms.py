"""The answerer's configuration of the analysis: the stemmed content terms the embedded
model compares a question and a text by.

Every choice the embedded model makes (which section, which passage, whether anything
answers at all) compares these terms, so they are made one way here. Words as a reader sees
them (``written_words``: "0.1", "floating-point" and "don't" are one word each), lower-cased,
each camel-case name followed by its parts (``find_or_insert`` splits at its underscores as
it is written), the English function words and one-letter words set aside. English only, as
the stemmer is; it knows nothing of any collection's wording, nor of sections, passages or
tools.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citeline.text.analysis import Analysis, Compounds
from citeline.text.identifiers import camel_parts
from citeline.text.stemming import Stems
from citeline.text.stop_words import ANSWER_STOP_WORDS, FRAME_WORDS
from citeline.text.words import WRITTEN_WORD, written_words

__all__ = [
    "ANSWER",
    "compounds",
    "content_terms",
    "content_words",
    "names",
    "subject_terms",
    "term_counts",
    "title_terms",
]


def _split(text: str) -> list[str]:
    # Written words are ASCII, where lower() is casefold().
    return [word.lower() for word in written_words(text)]


def _tokens(text: str) -> list[str]:
    found: list[str] = []
    for word in written_words(text):
        found.append(word.lower())
        parts = camel_parts(word)
        if parts:
            found.extend(part.lower() for part in parts)
    return found


ANSWER = Analysis(
    split=_split,
    tokens=_tokens,
    # Stemming dominates the cost of reading a section; documentation repeats its words.
    stems=Stems(ANSWER_STOP_WORDS, shortest=2, bound=65_536),
    # Stop words start names too (``isinstance``, ``endswith``); a joined stop word is none.
    compounds=Compounds(first_not=frozenset(), shortest=2),
)

# Texts whose terms are kept: an answer reads the same dozen results in each of its steps
# (ranking before the reads, ranking and choosing after, checking what it quotes), and a
# server answers about the same sections again and again. Profiled under 200 answers at
# once, reading texts into terms was 16 % of the server's CPU. 512 texts of at most 12,000
# characters (a read's bound) hold at most 6 MB of text, usually far less.
_TEXTS_KEPT = 512


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry content, lower-cased and unstemmed, in order; a
    camel-case name is followed by its parts."""
    # A content word is one whose term is not "": the memo's lookup filters in C.
    return list(filter(ANSWER.term, _tokens(text)))


def compounds(text: str) -> set[str]:
    """Each pair of neighbouring words of ``text`` written as one, stemmed ("starts with" →
    ``startswith``, "read lines" → ``readlin``): how an identifier without marks between its
    words is asked about. Stop words join too, since names hold them (``endswith``)."""
    return set(ANSWER.compound_terms(text))


def content_terms(text: str) -> set[str]:
    """The stemmed content terms of ``text``: what two texts must share to be about one thing."""
    return set(_content_terms(text))


@lru_cache(maxsize=_TEXTS_KEPT)
def _content_terms(text: str) -> frozenset[str]:
    return frozenset(ANSWER.terms(text))


def title_terms(text: str) -> set[str]:
    """The content terms of a title, a hyphenated name's parts among them: a manual page's
    title names its command as one word ("git-tag(1)"), which a reader asks about by its
    parts ("How do I tag a commit?"). Only a title's: split in prose, hyphenated words cost
    the development set gold citations (``WRITTEN_WORD``)."""
    return set(_title_terms(text))


@lru_cache(maxsize=_TEXTS_KEPT)
def _title_terms(text: str) -> frozenset[str]:
    found = set(content_words(text))
    parts = {part for word in found if "-" in word for part in word.split("-")}
    return frozenset(filter(None, map(ANSWER.term, found | parts)))


def subject_terms(text: str) -> set[str]:
    """The content terms of a question less its framing words: what it asks about."""
    return {ANSWER.term(word) for word in content_words(text) if word not in FRAME_WORDS}


# Where a sentence starts: a capital there says nothing of a name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)\W*$")


def names(text: str) -> set[str]:
    """The stemmed subject terms of ``text`` that it writes as names: a word with a capital
    letter anywhere but at a sentence's start ("Jekyll", "LaTeX", "baseURL", "GIL"), and not
    "I". A question names its product, language or tool so; one that the collection holds
    nowhere, or only in passing, is another product's (``answer_names``)."""
    found: set[str] = set()
    for match in WRITTEN_WORD.finditer(text):
        word = match.group()
        if word.islower() or word == "I" or not any(c.isupper() for c in word):
            continue
        if word[0].isupper() and _SENTENCE_START.search(text[: match.start()]):
            continue
        lowered = word.lower()
        if ANSWER.is_content(lowered) and lowered not in FRAME_WORDS:
            found.add(ANSWER.term(lowered))
    return found


def term_counts(text: str) -> dict[str, int]:
    """How often each content term occurs in ``text``."""
    return dict(_term_counts(text))


@lru_cache(maxsize=_TEXTS_KEPT)
def _term_counts(text: str) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for term in ANSWER.terms(text):
        counts[term] = counts.get(term, 0) + 1
    return tuple(counts.items())
