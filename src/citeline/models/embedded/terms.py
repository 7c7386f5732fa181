"""The embedded model's words: the stemmed content terms of a question or a text.

Every choice the embedded model makes (which section, which passage, whether anything
answers at all) compares these terms, so they are made one way here. English only, as
the stemmer is; it knows nothing of any collection's wording, and nothing of sections,
passages or tools.

A name written as code is also its parts: ``HtmlResponse`` holds "html" and "response",
``find_or_insert`` "find" and "insert" (the word pattern splits at the underscore), so a
question that writes an API in words reaches the text that spells it as one identifier. The
other way round, ``compounds`` joins a question's neighbouring words ("starts with" →
``startswith``), for an identifier written without any mark between its words.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

import Stemmer

# A decimal such as "0.1" is one word: split, its digits are too short to count. A
# hyphenated word stays one: split into its parts (so "floating-point" would match
# "floating point"), the development set cited a gold source for 74.4 % against 75.6 %.
_WORD = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*")
# English function words (the usual stop list): they say nothing of what a text is about.
_STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    few for from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just may me might more most must my myself no nor not now of off
    on once only or other our ours ourselves out over own same shall she should so some such
    than that the their theirs them themselves then there these they this those through to too
    under until up upon us very was we were what when where which while who whom why will with
    would yet you your yours yourself""".split()  # noqa: SIM905 (a list literal is 70 lines)
)
# Words that frame a question rather than name its subject ("what is the difference
# between", "is there a way to", "which one"): a section using them is no closer to the
# answer, so they weigh nothing in choosing one. Kept in the search query all the same.
_FRAME_WORDS = frozenset(
    """best better compare comparison difference differences different differ example explain
    get give got just like mean meaning means need one ones other possible something thing
    things use used using want way ways work works""".split()  # noqa: SIM905
)
_stemmer = Stemmer.Stemmer("english")


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    # Stemming dominates the cost of reading a section; documentation repeats its words.
    return str(_stemmer.stemWord(word))


# A lower-case letter (or a digit) followed by a capital, or a run of capitals followed by a
# capitalised word: where an identifier written in camel case joins its words
# ("HtmlResponse", "parseHTTPHeader"). The whole name stays a word beside its parts; a name
# with digits ("IPv6", "OAuth2") is a name, not words.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def words(text: str) -> list[str]:
    """The words of ``text`` that carry content, lower-cased and unstemmed, in order; a
    camel-case name is followed by its parts."""
    found: list[str] = []
    for word in _WORD.findall(text):
        found.append(word.lower())
        if word.isalpha() and not word.islower() and not word.isupper() and _CAMEL.search(word):
            found.extend(part.lower() for part in _CAMEL.split(word))
    return [w for w in found if w not in _STOP_WORDS and len(w) > 1]


def compounds(text: str) -> set[str]:
    """Each pair of neighbouring words of ``text`` written as one, stemmed ("starts with" →
    ``startswith``, "read lines" → ``readlin``): how an identifier without marks between its
    words is asked about. Stop words join too, since names hold them (``endswith``)."""
    plain = [w.lower() for w in _WORD.findall(text)]
    joined = {a + b for a, b in pairwise(plain) if a.isalpha() and b.isalpha()}
    return {_stem(w) for w in joined if w not in _STOP_WORDS}


def content_terms(text: str) -> set[str]:
    """The stemmed content terms of ``text``: what two texts must share to be about one thing."""
    return set(_content_terms(text))


# Texts whose terms are kept: an answer reads the same dozen results in each of its steps
# (ranking before the reads, ranking and choosing after, checking what it quotes), and a
# server answers about the same sections again and again. Profiled under 200 answers at
# once, reading texts into terms was 16 % of the server's CPU. 512 texts of at most 12,000
# characters (a read's bound) hold at most 6 MB of text, usually far less.
_TEXTS_KEPT = 512


@lru_cache(maxsize=_TEXTS_KEPT)
def _content_terms(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in words(text))


def title_terms(text: str) -> set[str]:
    """The content terms of a title, a hyphenated name's parts among them: a manual page's
    title names its command as one word ("git-tag(1)"), which a reader asks about by its
    parts ("How do I tag a commit?"). Only a title's: split in prose, hyphenated words cost
    the development set gold citations (above)."""
    return set(_title_terms(text))


@lru_cache(maxsize=_TEXTS_KEPT)
def _title_terms(text: str) -> frozenset[str]:
    found = set(words(text))
    parts = {p for w in found if "-" in w for p in w.split("-")}
    return frozenset(_stem(w) for w in found | parts if w not in _STOP_WORDS and len(w) > 1)


def subject_terms(text: str) -> set[str]:
    """The content terms of a question less its framing words: what it asks about."""
    return {_stem(w) for w in words(text) if w not in _FRAME_WORDS}


# Where a sentence starts: a capital there says nothing of a name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)\W*$")


def names(text: str) -> set[str]:
    """The stemmed subject terms of ``text`` that it writes as names: a word with a capital
    letter anywhere but at a sentence's start ("Jekyll", "LaTeX", "baseURL", "GIL"), and not
    "I". A question names its product, language or tool so; one that the collection holds
    nowhere, or only in passing, is another product's (``answer_names``)."""
    found: set[str] = set()
    for match in _WORD.finditer(text):
        word = match.group()
        if word.islower() or word == "I" or not any(c.isupper() for c in word):
            continue
        if word[0].isupper() and _SENTENCE_START.search(text[: match.start()]):
            continue
        lowered = word.lower()
        if lowered not in _STOP_WORDS and lowered not in _FRAME_WORDS and len(lowered) > 1:
            found.add(_stem(lowered))
    return found


def term_counts(text: str) -> dict[str, int]:
    """How often each content term occurs in ``text``."""
    return dict(_term_counts(text))


@lru_cache(maxsize=_TEXTS_KEPT)
def _term_counts(text: str) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for word in words(text):
        term = _stem(word)
        counts[term] = counts.get(term, 0) + 1
    return tuple(counts.items())
