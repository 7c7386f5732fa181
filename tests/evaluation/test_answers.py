"""An answer's record, however its text was split into token events."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.evaluation import AnswerCollector
from citeline.events import Citation, Done, Start, Token


@settings(max_examples=100)
@given(st.lists(st.text(max_size=6), max_size=12))
def test_the_text_is_the_tokens_joined_and_the_first_token_is_the_first_with_text(
    pieces: list[str],
) -> None:
    collector = AnswerCollector("q", started_at=10.0)
    collector.add(Start(), 10.5)
    for moment, piece in enumerate(pieces, start=11):
        collector.add(Token(piece), float(moment))
    collector.add(Done("answered"), 99.0)
    record = collector.finish(100.0)

    assert record.text == "".join(pieces)
    firsts = [moment for moment, piece in enumerate(pieces, start=11) if piece]
    assert record.first_token_seconds == (firsts[0] - 10.0 if firsts else None)
    assert record.total_seconds == 90.0
    assert record.state == "answered"


def test_citations_and_the_done_fields_are_kept() -> None:
    citation = Citation(n=1, display_name="A", id="a", start=0, end=1)
    collector = AnswerCollector("q", started_at=0.0)
    for event in (Start(), Token("A."), citation, Done("answered", dropped_anchors=2)):
        collector.add(event, 1.0)
    record = collector.finish(2.0)
    assert record.citations == (citation,)
    assert record.dropped_anchors == 2
    assert record.error is None


def test_a_stream_that_ends_without_done_is_a_failed_answer() -> None:
    collector = AnswerCollector("q", started_at=0.0)
    collector.add(Token("partial"), 1.0)
    record = collector.finish(2.0)
    assert record.state == "failed"
    assert record.error == "the answer stream ended without a done event"
