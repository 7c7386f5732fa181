"""Text to words: how each analysis splits a text, before stop words and stemming.

The index folds (case, then diacritics: ``Naïve`` and ``naive`` are one word) and takes
every run of letters, digits and underscores (``folded_words``), in any script, fast,
since it reads every passage of a collection. The answerer reads a handful of sections in
English, so it keeps what a reader sees as one word together (``written_words``): a decimal
such as "0.1", a hyphenated or elided word ("floating-point", "don't"), and the case a
name is written in, which says where its parts join.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["WRITTEN_WORD", "fold", "folded_words", "written_words"]


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


def folded_words(text: str) -> list[str]:
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


# A decimal such as "0.1" is one word: split, its digits are too short to count. A
# hyphenated word stays one: split into its parts (so "floating-point" would match
# "floating point"), the development set cited a gold source for 74.4 % against 75.6 %.
WRITTEN_WORD = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*")


def written_words(text: str) -> list[str]:
    """The words of ``text`` as written (case kept), in order: ASCII letters and digits,
    with a decimal, a hyphenated and an elided word each one word."""
    return WRITTEN_WORD.findall(text)
