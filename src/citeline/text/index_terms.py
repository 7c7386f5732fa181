"""The index's configuration of the analysis: what the search index holds of a passage and
what a search asks it for.

Case and diacritics folded, every run of letters, digits and underscores a word, the parts
of code names after a text's words, Lucene's stop list, the Snowball English stemmer.
Measured on SciFact's train split (809 queries, nDCG@10, title and body weighted alike):
stemming is worth +0.030 (0.669 without, 0.699 with).
"""

from __future__ import annotations

from citeline.text.analysis import Analysis, Compounds
from citeline.text.identifiers import identifier_parts
from citeline.text.stemming import Stems, stem
from citeline.text.stop_words import INDEX_STOP_WORDS, QUESTION_WORDS
from citeline.text.words import folded_words

__all__ = [
    "ANALYSIS_VERSION",
    "INDEX",
    "asked_terms",
    "indexed_text",
    "query_terms",
]

# The analysis a store records and refuses to open under another (its collection is then
# ingested again). The stores keep no terms since the search index took them over, so a
# change to the index's terms that only the search index sees bumps
# ``search_index.INDEX_FORMAT`` instead, and the index is built again from the store when a
# collection opens.
ANALYSIS_VERSION = "1"


def _tokens(text: str) -> list[str]:
    found = folded_words(text)
    parts = identifier_parts(text)
    if parts:
        found += parts
    return found


INDEX = Analysis(
    split=folded_words,
    tokens=_tokens,
    # A SciFact-sized vocabulary (35,530 distinct words) is a fourteenth of the memo.
    stems=Stems(INDEX_STOP_WORDS, shortest=1, bound=500_000),
    # Shorter joins ("isa", "ofa") are words of their own.
    compounds=Compounds(first_not=INDEX_STOP_WORDS | QUESTION_WORDS, shortest=6),
)

_QUESTION_TERMS = frozenset(map(stem, sorted(QUESTION_WORDS)))


def indexed_text(text: str) -> str:
    """``INDEX.terms(text)`` as one string for a whitespace tokenizer (the search index's):
    the same terms in the same order, a stop word leaving only an extra space behind.

    Measured on SciFact's 5,183 abstracts (1.1 M words): mapping each word through the memo
    straight into ``str.join`` cost 0.08 s of CPU, where ``terms`` (which drops the stop
    words into a list first) and a join of that list cost 0.17 s, the largest share of the
    ingest's analysis. A whitespace tokenizer skips the empty terms, so the index holds
    exactly what it held from the joined list."""
    return " ".join(map(INDEX.term, _tokens(text)))


def query_terms(query: str) -> list[str]:
    """The distinct terms of a query, in first-seen order, question words left out."""
    return asked_terms(INDEX.terms(query))


def asked_terms(found: list[str]) -> list[str]:
    """``query_terms`` of a query whose terms (``INDEX.terms``) are ``found``: a search
    analyses its query once and reads both these and its title keys from the one list."""
    every = list(dict.fromkeys(found))
    asked = [term for term in every if term not in _QUESTION_TERMS]
    return asked or every
