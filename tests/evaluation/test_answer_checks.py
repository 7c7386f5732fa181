"""Expected terms and figures in an answer's prose: what is folded, and what is not.

The cases are the forms the development set's answers take: code tokens a model wraps in
backticks or breaks across lines, grams written with thousands separators, averages written
with more decimals than the question asks for, and the lists and ranges that must not fuse
into one number.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.evaluation.answer_checks import (
    contains_expected_term,
    figure_matches,
    missing_figures,
    prose_numbers,
)


def test_a_term_wrapped_in_backticks_is_found() -> None:
    assert contains_expected_term("Pass `key=str.lower` to `sorted()`.", ["key="])


def test_a_term_broken_across_lines_is_found() -> None:
    text = "Use the *reverse* parameter:\n    sorted(data,\n        reverse=True)"
    assert contains_expected_term(text, ["data, reverse=True"])


def test_case_does_not_hide_a_term() -> None:
    assert contains_expected_term("Tuples are IMMUTABLE.", ["immutable"])


def test_curly_quotes_in_the_prose_match_straight_quotes_in_the_term() -> None:
    assert contains_expected_term("open it with mode \u2018a\u2019 to append", ["'a'"])


def test_any_one_term_is_enough() -> None:
    assert contains_expected_term("from operator import itemgetter", ["key=", "itemgetter"])


def test_an_answer_without_any_term_fails() -> None:
    assert not contains_expected_term("Dictionaries are written with braces.", ["key=", "sorted("])


def test_stars_and_underscores_are_part_of_a_term() -> None:
    # Folding them as a quote check does would let "args" pass for "*args".
    assert not contains_expected_term("The function takes args.", ["*args"])
    assert not contains_expected_term("if name == main:", ["__main__"])
    assert contains_expected_term("def f(*args, **kwargs):", ["**kwargs"])


def test_a_blank_term_never_matches() -> None:
    assert not contains_expected_term("anything", ["  "])


@pytest.mark.parametrize(
    "prose",
    [
        "Gentoo penguins weigh 5,076 g on average.",
        "Gentoo penguins weigh 5076 g on average.",
        "Gentoo penguins weigh 5,076.0 g on average.",
        "The average is 5,076.02 grams.",
        "The average is 5\u00a0076 grams.",
        "| Gentoo | 5076.0 | 123 |",
    ],
)
def test_a_whole_figure_matches_however_its_thousands_and_decimals_are_written(prose: str) -> None:
    assert missing_figures(prose, ["5076"]) == ()


def test_a_figure_with_a_decimal_asks_for_that_decimal() -> None:
    assert missing_figures("Flippers average 217.2 mm.", ["217.2"]) == ()
    assert missing_figures("Flippers average 217.19 mm.", ["217.2"]) == ()
    assert missing_figures("Flippers average 217 mm.", ["217.2"]) == ("217.2",)


def test_every_figure_must_be_there() -> None:
    prose = "Adelie 152, Chinstrap 68."
    assert missing_figures(prose, ["152", "68", "124"]) == ("124",)


def test_a_list_separated_by_comma_and_space_stays_separate_numbers() -> None:
    assert prose_numbers("44, 124 and 1,234") == (Decimal(44), Decimal(124), Decimal(1234))


def test_a_range_of_years_is_two_numbers_not_a_negative_one() -> None:
    assert prose_numbers("from 2007-2009") == (Decimal(2007), Decimal(2009))


def test_a_minus_sign_before_a_number_is_kept() -> None:
    assert prose_numbers("it returns -3, or \u22123") == (Decimal(-3), Decimal(-3))
    assert missing_figures("-22 // 10 is -3", ["-3"]) == ()


def test_a_number_inside_a_word_still_counts() -> None:
    assert missing_figures("It weighs 3701g.", ["3701"]) == ()


def test_a_nearby_number_is_not_the_figure() -> None:
    assert missing_figures("Gentoo penguins weigh about 5,100 g.", ["5076"]) == ("5076",)


def test_rounding_is_half_up_at_the_figures_precision() -> None:
    assert figure_matches(Decimal("3700.5"), "3701")
    assert not figure_matches(Decimal("3700.49"), "3701")


def test_a_figure_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(ValueError, match="plain decimal"):
        figure_matches(Decimal(1), "five")


@given(st.integers(min_value=0, max_value=10**12))
def test_an_integer_written_with_thousands_separators_matches_its_figure(value: int) -> None:
    assert missing_figures(f"The count is {value:,} penguins.", [str(value)]) == ()


@given(
    st.decimals(min_value=0, max_value=10**6, places=3, allow_nan=False, allow_infinity=False),
    st.integers(min_value=0, max_value=2),
)
def test_a_value_written_at_more_precision_matches_its_rounded_figure(
    value: Decimal, places: int
) -> None:
    figure = str(value.quantize(Decimal(1).scaleb(-places), rounding="ROUND_HALF_UP"))
    assert missing_figures(f"The average is {value:,} mm.", [figure]) == ()


@given(st.text(max_size=200))
def test_any_text_can_be_searched_for_figures(text: str) -> None:
    assert set(missing_figures(text, ["1", "2.5"])) <= {"1", "2.5"}


def test_a_number_longer_than_the_decimal_context_matches_no_figure() -> None:
    assert missing_figures("It holds 1" + "0" * 30 + " items.", ["1"]) == ("1",)
