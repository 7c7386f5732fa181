"""The words inside names written as code: ``find_or_insert`` holds find, or, insert;
``HtmlResponse`` html and response; ``parseHTTPHeader`` parse, http, header.

Added to a text's words beside the whole name, so a question that writes an API in words
("find or insert", "HTML response") reaches the text that spells it as one identifier
(issue #25). A name with digits ("IPv6", "OAuth2") is a name, not words. The join rule is
written once here; the two analyses differ in where they look for names (the index scans the
whole text, the answerer each written word), where the parts go, and which names they split:
the index only those whose every part has ``SHORTEST_PART`` letters, since it reads prose of
any subject, where "mRNA" is a name; the answerer every one, matched against one question.
"""

from __future__ import annotations

import re

from citeline.text.words import fold, folded_words

__all__ = ["CAMEL_JOIN", "camel_parts", "identifier_parts", "may_write_names"]

# Where a name written in camel case joins its words: after a lower-case letter before a
# capital, and before the last capital of a run that a lower-case letter follows.
CAMEL_JOIN = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# Whether a text has such a join at all: the same places without look-arounds, which the
# regular expression engine tries at each character. Over the Python 3.11 docs' 7,426
# passages (9.2 MB, 2,870 without a join, read to their end) 0.23 s of CPU against 0.42 s.
_HAS_CAMEL_JOIN = re.compile(r"[a-z][A-Z]|[A-Z][A-Z][a-z]")
# A whole name written in camel case, among other text: letters only ("HtmlResponse",
# "parseHTTPHeader", "mRNA").
_CAMEL_NAME = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b|\b[A-Z]+[A-Z][a-z][A-Za-z]*\b")
# An acronym's plural ("RNAs", "URLs"): one name, not a name and a word "As".
_ACRONYM_PLURAL = re.compile(r"[A-Z]s")
# The shortest part a name in the index's text is split into. Prose writes names in camel
# case too, a prefix of a letter or two on an acronym ("mRNA", "siRNA", "IgG", "pH"), and
# their parts are no words: SciFact's abstracts hold 10,766 such names, and with their parts
# indexed its train nDCG@10 fell from 0.7306 to 0.7268; with parts of three letters or more
# (and acronym plurals whole) it is 0.7319, and the ten development collections' gold
# sections are among the search's results as often or once more (docs/benchmarks.md). The
# cost: a code name with a two-letter word ("toString", "isEmpty") keeps only its whole.
SHORTEST_PART = 3


def camel_parts(word: str) -> list[str]:
    """The parts of one written word when it is a name in camel case, as written (case
    kept); none for any other word (lower or upper case, or with a digit or a mark)."""
    if word.isalpha() and not word.islower() and not word.isupper() and CAMEL_JOIN.search(word):
        return CAMEL_JOIN.split(word)
    return []


def may_write_names(text: str) -> bool:
    """Whether ``identifier_parts`` may find a part in ``text``: it has an underscore or a
    camel-case join. Where it has neither, the tokens of a text are its words alone."""
    return "_" in text or _HAS_CAMEL_JOIN.search(text) is not None


def identifier_parts(text: str) -> list[str]:
    """The parts, folded, of every name ``text`` writes as code, in order: an underscored
    name's longer than one character, a camel-case name's as ``_name_parts`` says. Most
    prose has no such name: two quick scans decide it (measured on SciFact's 5,183
    abstracts: 0.03 s of CPU)."""
    parts: list[str] = []
    if "_" in text:
        for word in folded_words(text):
            if "_" in word:
                parts.extend(part for part in word.split("_") if len(part) > 1)
    if _HAS_CAMEL_JOIN.search(text):
        for name in _CAMEL_NAME.findall(text):
            parts.extend(fold(part) for part in _name_parts(name))
    return parts


def _name_parts(name: str) -> list[str]:
    """The words of a camel-case name, when each is ``SHORTEST_PART`` letters or more."""
    found = CAMEL_JOIN.split(name)
    if len(found) > 1 and _ACRONYM_PLURAL.fullmatch(found[-1]):
        found[-2:] = [found[-2] + found[-1]]
    if len(found) < 2 or any(len(part) < SHORTEST_PART for part in found):
        return []
    return found
