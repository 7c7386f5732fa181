"""The answerer's terms (the embedded model's words): the terms of a text are the same
however often it is read, and what one caller does with them never reaches the next (they
are kept per text)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citeline.text.answer_terms import content_terms, term_counts, title_terms

TEXT = "Sorting HOW TO: key functions sort lists by a key, and sorted() sorts any iterable."


def test_terms_changed_by_one_caller_are_not_what_the_next_one_gets() -> None:
    terms = content_terms(TEXT)
    terms.add("changed")
    counts = term_counts(TEXT)
    counts["sort"] = 99
    assert "changed" not in content_terms(TEXT)
    assert term_counts(TEXT)["sort"] != 99


@given(st.text(max_size=300))
def test_a_text_read_again_has_the_same_terms_and_counts(text: str) -> None:
    first_terms, first_counts = content_terms(text), term_counts(text)
    assert content_terms(text) == first_terms
    assert term_counts(text) == first_counts
    assert set(first_counts) == first_terms


def test_a_manual_pages_title_is_found_by_its_commands_parts() -> None:
    assert {"tag", "git-tag"} <= title_terms("git-tag(1) Manual Page \u203a DESCRIPTION")
    # In prose a hyphenated word stays whole.
    assert "tag" not in content_terms("Run git-tag to list them.")


@given(st.text(max_size=200))
def test_a_titles_terms_hold_all_its_content_terms(text: str) -> None:
    assert content_terms(text) <= title_terms(text)
