"""The sources-section stripper's interface: where the list began, and what was released."""

from __future__ import annotations

from citeline.stream import SourcesSectionStripper


def test_dropped_at_marks_where_the_source_list_began() -> None:
    stripper = SourcesSectionStripper()
    assert stripper.feed("Answer.\n\n## Sources\n- a\n") == "Answer.\n\n"
    assert stripper.dropped_at == len("Answer.\n\n")
    assert stripper.released == len("Answer.\n\n")


def test_an_answer_without_a_list_never_reports_one() -> None:
    stripper = SourcesSectionStripper()
    stripper.feed("Answer.\n## Sources of reactive oxygen species\n")
    stripper.flush()
    assert stripper.dropped_at is None
    assert stripper.released == len("Answer.\n## Sources of reactive oxygen species\n")


def test_held_chars_counts_a_line_that_could_still_be_a_heading() -> None:
    stripper = SourcesSectionStripper()
    assert stripper.feed("Answer.\n**Most relevant") == "Answer.\n"
    assert stripper.held_chars == len("**Most relevant")
    assert stripper.feed(" genes**\n") == "**Most relevant genes**\n"
    assert stripper.held_chars == 0
