"""Text analysis shared by indexing and querying: the one place that decides what a term is.

Case folding, diacritics removed, word tokens, a short stop list and the Snowball English
stemmer. Measured on SciFact's train split (809 queries, nDCG@10, title and body weighted
alike): stemming is worth +0.030 (0.669 without, 0.699 with); the stop list costs 0.002
(0.701 without it) and cuts query time from 17.9 ms to 7.0 ms p50, because the words it
drops match nearly every passage. It deliberately knows nothing about storage or ranking.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from itertools import pairwise

import Stemmer

# The analysis a store records and refuses to open under another (its collection is then
# ingested again). The stores keep no terms since the search index took them over, so a
# change to terms() that only the search index sees bumps ``search_index.INDEX_FORMAT``
# instead, and the index is built again from the store when a collection opens.
ANALYSIS_VERSION = "1"

# Lucene's English stop list: the words so common that matching them says nothing.
STOP_WORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into",
        "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
        "there", "these", "they", "this", "to", "was", "will", "with",
    }
)  # fmt: skip

# Words that make a query a question without saying what it is about: dropped from queries
# only (a title or passage keeps them), unless nothing else is left. Measured on the
# development questions (benchmarks/questions/python-docs.jsonl): "how do I ..." matched
# every FAQ title that starts so, and lexical document hit@3 rose from 0.805 to 0.878; on
# SciFact train, nDCG@10 0.7041 before and 0.7050 after.
QUESTION_WORDS = frozenset(
    {
        "can", "could", "did", "do", "does", "how", "i", "me", "my", "should", "we", "what",
        "when", "where", "which", "who", "would", "you", "your",
    }
)  # fmt: skip

# PyStemmer's Stemmer keeps a cache and is not safe to share between threads.
_local = threading.local()
# Each folded word's term ("" for a stop word), remembered per process: measured on SciFact's
# 5,183 abstracts (800,000 terms, 35,530 distinct words), analysis took 0.95 s of CPU
# stemming word by word and 0.68 s stemming each distinct word once, and it is most of an
# ingest's CPU. Bounded because hostile text can bring any number of distinct words: past
# this many the memo starts again (a SciFact-sized vocabulary is a twentieth of it).
_MEMO_WORDS = 500_000


class _Terms(dict[str, str]):
    """The memo: a word's term, stemmed the first time the word is met (``__missing__``).

    One pass of ``map(memo.__getitem__, words)`` then analyses any text: measured on
    SciFact's ingest, where most abstracts bring a word not seen before, trying the memo,
    collecting the missing words and trying again cost 0.44 s of CPU, and this 0.25 s. A
    thread that finds the memo cleared under it only stems that word again."""

    def __missing__(self, word: str) -> str:
        if len(self) >= _MEMO_WORDS:
            self.clear()
        term = "" if word in STOP_WORDS else _stemmer().stemWord(word)
        # One assignment: atomic under the GIL, so threads share the memo.
        self[word] = term
        return term


_memo = _Terms()


def _stemmer() -> Stemmer.Stemmer:
    stemmer: Stemmer.Stemmer | None = getattr(_local, "stemmer", None)
    if stemmer is None:
        # No cache of PyStemmer's own (size 0): ``_memo`` is the cache, and PyStemmer's
        # (10,000 words, evicting) made stemming SciFact's 35,931 distinct words cost 65 ms
        # of CPU instead of 17 ms.
        stemmer = Stemmer.Stemmer("english", 0)
        _local.stemmer = stemmer
    return stemmer


def _question_terms() -> frozenset[str]:
    return frozenset(_stemmer().stemWords(sorted(QUESTION_WORDS)))


class _CombiningMarks(dict[int, str | None]):
    """``str.translate``'s table that deletes combining marks, filled as characters are met:
    measured on SciFact, asking ``unicodedata.combining`` of every character of its 1,108
    non-ASCII abstracts cost more than the rest of folding."""

    def __missing__(self, code: int) -> str | None:
        character = chr(code)
        kept = None if unicodedata.combining(character) else character
        self[code] = kept
        return kept


_COMBINING_MARKS = _CombiningMarks()


def fold(text: str) -> str:
    """Case-fold and strip diacritics, so ``Naïve`` and ``naive`` are one word."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return unicodedata.normalize("NFKD", folded).translate(_COMBINING_MARKS)


# ASCII characters that are not word characters (letters, digits, underscore: the regular
# expression ``\w``), each turned into a space: for ASCII text, ``translate`` with this table
# (C's fast path for an ASCII-to-ASCII table) and ``split`` find the words
# ``re.findall(r"\w+")`` finds, in 0.10 s instead of 0.17 s on SciFact's 4,136 ASCII
# abstracts (1.1 M words).
_ASCII_NON_WORD = {
    code: " " for code in range(128) if not (chr(code).isalnum() or chr(code) == "_")
}


class _WordCharacters(dict[int, str | None]):
    """``str.translate``'s table for text outside ASCII, filled as characters are met: a
    combining mark deleted (as ``fold`` deletes it), a word character kept, anything else a
    space. One ``translate`` and ``split`` then do ``fold``'s deletion and the regular
    expression's word finding together: 64 ms instead of 109 ms on SciFact's 1,107
    abstracts outside ASCII, where ``translate`` looks up each character in this dict."""

    def __missing__(self, code: int) -> str | None:
        character = chr(code)
        if unicodedata.combining(character):
            kept = None
        elif character.isalnum() or character == "_":
            kept = character
        else:
            kept = " "
        self[code] = kept
        return kept


_WORD_CHARACTERS = _WordCharacters()

# The same for ASCII bytes, every other byte kept: applied to a text's UTF-8 bytes, it
# spaces out ASCII punctuation at C speed and leaves every character outside ASCII whole.
_UTF8_ASCII_NON_WORD = bytes(
    0x20 if code < 0x80 and not (chr(code).isalnum() or chr(code) == "_") else code
    for code in range(256)
)
_OUTSIDE_ASCII = re.compile(r"[^\x00-\x7f]")
# A text outside ASCII takes the byte path when its UTF-8 bytes outnumber its characters by
# at most a sixteenth (few characters lie outside ASCII) and at most this many distinct
# characters do: each distinct one is a pass of ``str.replace`` over the text, so a text of
# many distinct symbols (hostile, or in another script) takes ``translate`` instead (1 MB
# of 32 symbols among ASCII letters: 60 ms). SciFact's abstracts outside ASCII have a few
# such characters each (Greek letters, dashes, ±): 57 ms instead of 81 to 92 ms for 1,107.
_BYTE_PATH_SHARE = 16
_BYTE_PATH_DISTINCT = 32


def words(text: str) -> list[str]:
    """The words of ``fold(text)`` (runs of letters, digits and underscores), in order,
    before stop words and stemming."""
    folded = text.casefold()
    if folded.isascii():
        return folded.translate(_ASCII_NON_WORD).split()
    decomposed = unicodedata.normalize("NFKD", folded)
    encoded = decomposed.encode("utf-8", "surrogatepass")
    if len(encoded) - len(decomposed) <= len(decomposed) // _BYTE_PATH_SHARE:
        outside = set(_OUTSIDE_ASCII.findall(decomposed))
        if len(outside) <= _BYTE_PATH_DISTINCT:
            spaced = encoded.translate(_UTF8_ASCII_NON_WORD).decode("utf-8", "surrogatepass")
            for character in outside:
                kept = _WORD_CHARACTERS[ord(character)]
                if kept != character:
                    spaced = spaced.replace(character, kept or "")
            return spaced.split()
    return decomposed.translate(_WORD_CHARACTERS).split()


# A name written in camel case ("HtmlResponse", "parseHTTPHeader", "mRNA"), and where it
# joins its words: after a lower-case letter before a capital, and before the last capital
# of a run that a lower-case letter follows. A name with digits is left whole ("IPv6").
_CAMEL_NAME = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b|\b[A-Z]+[A-Z][a-z][A-Za-z]*\b")
_CAMEL_JOIN = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def identifier_parts(text: str) -> list[str]:
    """The words inside the names ``text`` writes as code, folded: ``find_or_insert`` holds
    find, or, insert, ``HtmlResponse`` html and response. Indexed beside the whole name, so
    a question that writes an API in words ("find or insert", "HTML response") finds the
    section that spells it as one identifier (issue #25). Most prose has no such name: two
    quick scans decide it (measured on SciFact's 5,183 abstracts: 0.03 s of CPU)."""
    parts: list[str] = []
    if "_" in text:
        for word in words(text):
            if "_" in word:
                parts.extend(part for part in word.split("_") if len(part) > 1)
    if _CAMEL_JOIN.search(text):
        for name in _CAMEL_NAME.findall(text):
            parts.extend(fold(part) for part in _CAMEL_JOIN.split(name) if len(part) > 1)
    return parts


def terms(text: str) -> list[str]:
    """The index terms of ``text``, in order, repeats kept (term frequency matters); the
    parts of the names it writes as code follow its words."""
    return terms_of_words(words(text) + identifier_parts(text))


def indexed_text(text: str) -> str:
    """``terms(text)`` as one string for a whitespace tokenizer (the search index's): the
    same terms in the same order, a stop word leaving only an extra space behind.

    Measured on SciFact's 5,183 abstracts (1.1 M words): mapping each word through the memo
    straight into ``str.join`` cost 0.08 s of CPU, where ``terms`` (which drops the stop
    words into a list first) and a join of that list cost 0.17 s, the largest share of the
    ingest's analysis. A whitespace tokenizer skips the empty terms, so the index holds
    exactly what it held from the joined list."""
    found = words(text)
    parts = identifier_parts(text)
    if parts:
        found += parts
    return " ".join(map(_memo.__getitem__, found))


def terms_of_words(found: list[str]) -> list[str]:
    """The index terms of folded words (``words``): stop words dropped, the rest stemmed."""
    # map and filter loop in C: half the CPU of the same list comprehension.
    return list(filter(None, map(_memo.__getitem__, found)))


_QUESTION_TERMS = _question_terms()


def query_terms(query: str) -> list[str]:
    """The distinct terms of a query, in first-seen order, question words left out."""
    return asked_terms(terms(query))


# The shortest word two written as one make that a search looks for: shorter joins ("isa",
# "ofa") are words of their own.
COMPOUND_CHARS = 6


def compound_terms(query: str) -> list[str]:
    """Each pair of the query's neighbouring words written as one, as its term ("starts
    with" → ``startswith``, "read lines" → ``readlin``): how a name with no mark between its
    words is asked about. The first word is never a stop or question word ("how do", "is
    instance" are not names); the second may be (``endswith``). A search adds those the
    index holds."""
    found = words(query)
    joined = (
        first + second
        for first, second in pairwise(found)
        if first.isalpha()
        and second.isalpha()
        and first not in STOP_WORDS
        and first not in QUESTION_WORDS
    )
    return list(
        dict.fromkeys(_memo[word] for word in joined if len(word) >= COMPOUND_CHARS and _memo[word])
    )


def asked_terms(found: list[str]) -> list[str]:
    """``query_terms`` of a query whose terms (``terms``) are ``found``: a search analyses
    its query once and reads both these and its title keys from the one list."""
    every = list(dict.fromkeys(found))
    asked = [term for term in every if term not in _QUESTION_TERMS]
    return asked or every
