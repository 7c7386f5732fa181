"""What an answer's prose must contain: an expected term, and every expected figure.

Two pure checks over the answer text a reader saw (the concatenated ``token`` events):
:func:`contains_expected_term` and :func:`missing_figures`, with the comparison rules
``docs/eval.md`` gives. They judge the prose only; whether a source was cited is
:mod:`citeline.evaluation.metrics`, and neither reads the answer's citations.

The asymmetry that settles each rule: a rule too strict fails a right answer and sends
someone to tune against a correct engine; one too loose lets a wrong answer count as right
on the number this project is judged by. So the rules fold only what never changes what an
answer says (how a model spaces its words, whether it wraps code in backticks, curly or
straight quotes, thousands separators, decimals past the precision the file asks for), and
nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Final

# Backticks are Markdown code marks a model adds or drops at will; curly quotes are
# typography it changes at will (the sample's prose writes U+2019 where its code writes ').
# Emphasis marks are NOT folded, unlike a quote check: `*args`, `**kwargs` and `__main__`
# are answer terms whose stars and underscores are the answer.
_TERM_FOLDS: Final = str.maketrans(
    {
        "`": None,
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
    }
)
_WHITESPACE: Final = re.compile(r"\s+")

# A figure as a question file writes it: a plain decimal, no separators, no exponent.
FIGURE_FORMAT: Final = re.compile(r"-?\d+(?:\.\d+)?")

# A number in prose: digits with optional thousands groups and decimals. A thousands group is
# a comma or a no-break/thin space followed by exactly three digits, so "44, 124" (a list)
# stays two numbers while "5,076" and "5 076" are one. A minus sign counts only where no
# word character precedes it, so the range "2007-2009" reads as 2007 and 2009.
_PROSE_NUMBER: Final = re.compile(
    r"(?<![\w.])(?P<sign>[-\u2212])?(?P<digits>\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+|\d+)"
    r"(?P<decimals>\.\d+)?(?!\d)|(?P<bare>\d+(?:\.\d+)?)"
)
_SEPARATORS: Final = str.maketrans({",": None, "\u00a0": None, "\u202f": None, "\u2009": None})


def normalise_for_terms(text: str) -> str:
    """``text`` as terms are compared: backticks removed, quotes straightened, whitespace
    runs made one space, trimmed and case-folded."""
    return _WHITESPACE.sub(" ", text.translate(_TERM_FOLDS)).strip().casefold()


def contains_expected_term(text: str, terms: Sequence[str]) -> bool:
    """Whether at least one of ``terms`` occurs in ``text``, both normalised alike."""
    prose = normalise_for_terms(text)
    return any(
        normalised and normalised in prose
        for normalised in (normalise_for_terms(term) for term in terms)
    )


def prose_numbers(text: str) -> tuple[Decimal, ...]:
    """Every number written in ``text``, in order, thousands separators removed."""
    numbers: list[Decimal] = []
    for match in _PROSE_NUMBER.finditer(text):
        if match.group("bare") is not None:
            written = match.group("bare")
        else:
            sign = "-" if match.group("sign") else ""
            written = sign + match.group("digits").translate(_SEPARATORS)
            written += match.group("decimals") or ""
        numbers.append(Decimal(written))
    return tuple(numbers)


def figure_matches(written: Decimal, figure: str) -> bool:
    """Whether the prose number ``written``, rounded half-up to ``figure``'s own number of
    decimals, equals ``figure``: "5,076.0" and "5,075.6" match "5076"; "217" does not match
    "217.2"."""
    try:
        expected = Decimal(figure)
    except InvalidOperation as error:
        raise ValueError(f"{figure!r} is not a figure; write it as a plain decimal") from error
    exponent = expected.as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"{figure!r} is not a finite figure")
    step = Decimal(1).scaleb(exponent)
    try:
        return written.quantize(step, rounding=ROUND_HALF_UP) == expected
    except InvalidOperation:
        # A prose number longer than the decimal context's 28 digits cannot be rounded to
        # the figure's precision (hypothesis found "1" followed by 30 zeros); it is no match.
        return False


def missing_figures(text: str, figures: Sequence[str]) -> tuple[str, ...]:
    """The ``figures`` that no number in ``text`` matches (see :func:`figure_matches`)."""
    numbers = prose_numbers(text)
    return tuple(
        figure for figure in figures if not any(figure_matches(n, figure) for n in numbers)
    )
