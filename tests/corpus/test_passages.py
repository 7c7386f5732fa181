"""Passages index back into their text exactly, whatever the text, and stay within bounds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.corpus.passages import split_passages

# Pieces rather than characters, so that sentence ends and paragraph breaks are common; an
# em space and an information separator are whitespace to ``str.isspace`` as well.
_TEXT = st.lists(
    st.sampled_from([*"abc xyz.!?\n\t\"')é\u2003\x1f", "\n\n", ". ", "word "]), max_size=300
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=_TEXT, max_chars=st.integers(min_value=1, max_value=120))
def test_passages_are_exact_ordered_bounded_spans_covering_every_visible_character(
    text: str, max_chars: int
) -> None:
    passages = split_passages(text, max_chars)
    covered = 0
    previous_end = 0
    for passage in passages:
        assert text[passage.start : passage.end] == passage.text
        assert 0 < len(passage.text) <= max_chars
        assert passage.start >= previous_end
        assert not passage.text[0].isspace() and not passage.text[-1].isspace()
        assert text[previous_end : passage.start].strip() == ""
        previous_end = passage.end
        covered += sum(not c.isspace() for c in passage.text)
    assert text[previous_end:].strip() == ""
    assert covered == sum(not c.isspace() for c in text)


def test_a_short_text_is_one_passage() -> None:
    [passage] = split_passages("  A short abstract.  ")
    assert (passage.start, passage.end, passage.text) == (2, 19, "A short abstract.")


def test_a_long_text_breaks_at_paragraphs_before_sentences() -> None:
    first = "First paragraph sentence one. Sentence two is here."
    second = "Second paragraph."
    passages = split_passages(f"{first}\n\n{second}", max_chars=60)
    assert [p.text for p in passages] == [first, second]


def test_a_long_paragraph_breaks_after_a_sentence_end() -> None:
    text = "Alpha beta gamma. Delta epsilon zeta eta theta."
    assert [p.text for p in split_passages(text, max_chars=30)] == [
        "Alpha beta gamma.",
        "Delta epsilon zeta eta theta.",
    ]


def test_whitespace_only_text_has_no_passages() -> None:
    assert split_passages(" \n\t ") == []
