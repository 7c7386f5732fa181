"""The embedded session joins the model's tiny fragments into pieces: same text, far fewer
events, still split where the pipeline must cope."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citeline.models.embedded.model import stream_fragments
from citeline.models.embedded.session import PIECE_CHARS, pieces


@given(st.lists(st.text(max_size=12)))
def test_pieces_keep_the_text_in_order(fragments: list[str]) -> None:
    assert "".join(pieces(fragments)) == "".join(fragments)


@given(st.lists(st.text(min_size=1, max_size=12)))
def test_every_piece_but_the_last_holds_at_least_the_bound_and_no_empty_piece_is_sent(
    fragments: list[str],
) -> None:
    joined = list(pieces(fragments))
    assert all(len(piece) >= PIECE_CHARS for piece in joined[:-1])
    assert all(piece for piece in joined)


def test_an_answer_of_six_hundred_characters_is_a_handful_of_events_not_a_hundred() -> None:
    text = "A generator returns an iterator that yields values lazily. " * 10
    fragments = list(stream_fragments(text, "What is a generator?"))
    joined = list(pieces(fragments))
    assert len(fragments) > 100
    assert len(joined) <= len(text) // PIECE_CHARS + 1
    assert "".join(joined) == text
