"""Ordinary English words: the whole words of the sentence model's WordPiece vocabulary.

An off-topic question most often names another product, tool or language ("firewalld",
"Gradle", "nginx"), and a name the collection never writes is seldom an ordinary word. An
answerable question's word that the collection never writes is most often an ordinary one
in other words than the site's ("reachable", "bulleted", "lifetimes"). Over the 32
development collections, a subject word no document holds and no ordinary word is in 60.8 %
of the 255 off-topic questions and 2.1 % of the 2,061 answerable ones (questions and
follow-ups); any subject word no document holds is in 81.6 % and 12.0 % (docs/benchmarks.md,
"Names no collection and no dictionary holds"). ``answer_unfamiliar`` counts them; it is
measured and not weighted: leave one collection out it refuses 0.069 more of the off-topic
questions, but typer-md cites gold 2.5 questions fewer and three collections lose more than
one answerable question to "nothing found", mostly to compounds the vocabulary splits
("placeholder", "subfolder", "stylesheet").

The vocabulary is the uncased one of all-MiniLM-L6-v2, which citeline vendors for the
``dense`` extra (``citeline/corpus/embedding_model/``): its 21,745 whole words of letters,
drawn from English books and Wikipedia, read as JSON so that a machine without the extra has
them too.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files

# The vendored tokenizer (``citeline.corpus.minilm.TOKENIZER_PATH``), found as the package's
# data: the models know no corpus module, and this reads only its vocabulary.
VOCABULARY = files("citeline").joinpath("corpus", "embedding_model", "tokenizer.json")
# Endings an ordinary word takes that the vocabulary, which holds few inflected forms, may
# not: "bulleted" is "bullet", "lifetimes" "lifetime", "reachable" "reach". Not "d" or "er",
# which make names of words ("httpd" of "http", "docker" of "dock").
_ENDINGS = ("s", "es", "ed", "ing", "able", "ly")
# A stem shorter than this is not a word found ("npm" less its "m" is not "np").
_MIN_STEM = 3


@functools.cache
def ordinary_words() -> frozenset[str]:
    """The vocabulary's whole words of letters alone (not its ``##`` word pieces)."""
    vocabulary = json.loads(VOCABULARY.read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(w for w in vocabulary if w.isascii() and w.isalpha())


def ordinary(word: str) -> bool:
    """Whether ``word`` (lower-cased) is an ordinary English word, or one with an ending."""
    words = ordinary_words()
    if word in words:
        return True
    return any(
        word.endswith(ending)
        and len(stem := word[: -len(ending)]) >= _MIN_STEM
        and (stem in words or stem + "e" in words)
        for ending in _ENDINGS
    )
