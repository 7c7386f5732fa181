"""One text analysis, in named configurations: text to words, words to terms.

Every configuration runs the same steps: split a text into folded words, add the parts of
the names it writes as code, set aside its stop words and words too short to count, and stem
the rest with the Snowball English stemmer, each distinct word once (``Stems``). What
differs is a configuration's data: its splitter, where identifier parts go, its stop list,
its shortest word, which words may start a compound and how long one must be, and how many
words its memo keeps. The configurations are ``INDEX`` (``index_terms``: what the search
index holds and a search asks for) and ``ANSWER`` (``answer_terms``: what the embedded
model compares).

It knows nothing of storage, ranking or models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from citeline.text.stemming import Stems

__all__ = ["Analysis", "Compounds"]


@dataclass(frozen=True, slots=True)
class Compounds:
    """Which neighbouring words are also read as one word written without a mark between
    them ("starts with" → ``startswith``), as a name is."""

    # Words that cannot start a compound ("how do", "is instance" are not names).
    first_not: frozenset[str]
    # The shortest joined word that counts.
    shortest: int


@dataclass(frozen=True, eq=False)
class Analysis:
    """A configuration of the analysis, named where it is defined (``INDEX``, ``ANSWER``)."""

    # The words of a text, folded, in order: what compounds are made of.
    split: Callable[[str], list[str]]
    # The words of a text with the parts of its code names, in order: what terms come from.
    tokens: Callable[[str], list[str]]
    # Each folded word's term: its stop words and words too short are none.
    stems: Stems
    compounds: Compounds

    @property
    def term(self) -> Callable[[str], str]:
        """A folded word's term, "" for a stop word or a word too short: the memo's lookup
        itself, for ``map`` in C."""
        return self.stems.__getitem__

    def is_content(self, word: str) -> bool:
        """Whether a folded word is a term's word: not a stop word, and long enough."""
        return word not in self.stems.stop_words and len(word) >= self.stems.shortest

    def terms(self, text: str) -> list[str]:
        """The terms of ``text``, in order, repeats kept (term frequency matters)."""
        return self.terms_of(self.tokens(text))

    def terms_of(self, words: list[str]) -> list[str]:
        """The terms of folded words: stop words and short words dropped, the rest stemmed."""
        # map and filter loop in C: half the CPU of the same list comprehension.
        return list(filter(None, map(self.stems.__getitem__, words)))

    def compound_terms(self, text: str) -> list[str]:
        """Each pair of ``text``'s neighbouring words written as one, as its term, distinct,
        in first-seen order ("starts with" → ``startswith``, "read lines" → ``readlin``): how
        a name with no mark between its words is asked about. The second word may be a stop
        word (``endswith``); the joined word may not."""
        first_not, shortest = self.compounds.first_not, self.compounds.shortest
        joined = (
            first + second
            for first, second in pairwise(self.split(text))
            if first.isalpha() and second.isalpha() and first not in first_not
        )
        stems = self.stems
        kept = (stems[word] for word in joined if len(word) >= shortest and stems[word])
        return list(dict.fromkeys(kept))
