"""The question's neighbouring subject words, and where a text writes them together.

A question about sizing a connection pool asks about ``{size, connect}`` and ``{connect,
pool}``. A section that writes the two words of a pair near each other ("Connection
pools", "a pool of open connections") is about what they name together; one that holds
them apart ("pool" in one sentence, "connection" in the next) may only use each word, and
term coverage cannot tell the two apart. The features ``pairs``, ``run_pairs`` and
``read_pairs`` read a text's share of the pairs; measured on leave-one-collection-out, they
are not weighted as shipped (docs/benchmarks.md, "The question's words written together").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from functools import lru_cache
from itertools import pairwise

from citeline.text.answer_terms import ANSWER, content_words
from citeline.text.stop_words import FRAME_WORDS

__all__ = ["near_pairs", "pairs_share", "subject_pairs"]

# Texts whose ordered terms are kept, as ``answer_terms`` keeps its texts' terms: an answer
# reads the same results' passages and units in each of its steps.
_TEXTS_KEPT = 512


def subject_pairs(question: str) -> frozenset[frozenset[str]]:
    """Each pair of neighbouring subject terms of ``question``, unordered; none for a
    question of one subject word."""
    terms = [ANSWER.term(word) for word in content_words(question) if word not in FRAME_WORDS]
    return frozenset(frozenset(pair) for pair in pairwise(terms) if pair[0] != pair[1])


def near_pairs(text: str, pairs: Set[frozenset[str]], window: int) -> set[frozenset[str]]:
    """Those of ``pairs`` that ``text`` writes near each other: both terms at most ``window``
    content terms apart, in either order ("virtual environments", "an environment that is
    virtual"). Each term looks back only at its own partners' last places, so a question of
    hundreds of words (2,000 characters) costs a section a few lookups a word, not one per
    question word."""
    partners: dict[str, list[str]] = {}
    for pair in pairs:
        first, second = pair
        partners.setdefault(first, []).append(second)
        partners.setdefault(second, []).append(first)
    last: dict[str, int] = {}
    found: set[frozenset[str]] = set()
    if not partners:
        return found
    for at, term in enumerate(_ordered_terms(text)):
        near = partners.get(term)
        if near is None:
            continue
        for other in near:
            seen = last.get(other)
            if seen is not None and at - seen <= window:
                found.add(frozenset((term, other)))
        last[term] = at
    return found


def pairs_share(
    pairs: Set[frozenset[str]], weights: Mapping[str, float], found: Set[frozenset[str]]
) -> float:
    """The share of the pairs' weight (each pair the sum of its two terms' ``weights``) that
    ``found`` holds; 0 without pairs."""
    total = held = 0.0
    for pair in pairs:
        weight = sum(weights.get(term, 0.0) for term in pair)
        total += weight
        if pair in found:
            held += weight
    return held / total if total else 0.0


@lru_cache(maxsize=_TEXTS_KEPT)
def _ordered_terms(text: str) -> Sequence[str]:
    return tuple(ANSWER.terms(text))
