"""Fold a line to the form in which source-list headings are compared.

A model (or a document it copies) can write ``## Sources`` with Cyrillic letters for
the Latin ones, put zero-width spaces inside it or use a full-width number sign: each
renders as the heading a reader knows, and each slipped past a plain ASCII comparison
(issue 13, item 14). Folding
removes invisible format characters, applies NFKC, case-folds, and maps every character
that Unicode's confusables data (UTS #39, via ``confusable_homoglyphs``) lists as a
look-alike of an ASCII character onto that character.

It folds for comparison only: nothing it returns is ever shown to a reader. It does not
decide what a heading is (``sources_section`` does).
"""

from __future__ import annotations

import unicodedata
from typing import Final

import regex
from confusable_homoglyphs import utils as confusables_files

# Format characters (zero-width spaces and joiners, word joiner, BOM, soft hyphen, bidi
# marks), variation selectors and the Hangul fillers: all render as nothing.
_INVISIBLE: Final = regex.compile(
    r"[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)


def _ascii_lookalikes() -> dict[int, str]:
    """Each non-ASCII character whose look-alikes include one ASCII character: that
    character, a letter when there is a choice (Cyrillic "\u0456" looks like "i", "l" and "1").

    The library's data file is read here and let go: its module ``confusables`` keeps all
    of it (9,600 characters as dicts and lists) for life, 10.6 MB of every server process
    (measured by resident memory on import) for the 1,500 entries kept here."""
    table: dict[int, str] = {}
    for char, glyphs in confusables_files.load("confusables.json").items():
        if len(char) != 1 or char.isascii():
            continue
        ascii_glyphs = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii()]
        if ascii_glyphs:
            letters = [glyph for glyph in ascii_glyphs if glyph.isalpha()]
            table[ord(char)] = (letters or ascii_glyphs)[0].lower()
    return table


# Built once at import: about 1,500 entries from the library's 9,600.
_LOOKALIKES: Final = _ascii_lookalikes()


def fold_lookalikes(text: str) -> str:
    """``text`` without invisible characters, NFKC-normalised, case-folded, look-alikes
    mapped to ASCII: Cyrillic "\u0405\u043e" with a zero-width space inside "Sources"
    still folds to "sources"."""
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    return _INVISIBLE.sub("", text.casefold().translate(_LOOKALIKES))
