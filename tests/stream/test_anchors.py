"""The anchor stripper's interface: what take_anchors returns, and when."""

from __future__ import annotations

from citeline.stream import Anchor, AnchorStripper

REACTOME = "https://example.org/R-HSA-109581"


def test_take_anchors_returns_each_anchor_once() -> None:
    stripper = AnchorStripper()
    assert stripper.feed(f"[Apoptosis]({REACTOME}) and more") == "Apoptosis and more"
    assert stripper.take_anchors() == [Anchor(REACTOME, "Apoptosis", 0, 9)]
    assert stripper.take_anchors() == []


def test_an_html_anchor_is_reported_when_its_closing_tag_arrives() -> None:
    stripper = AnchorStripper()
    assert stripper.feed(f'See <a href="{REACTOME}">Apopto') == "See Apopto"
    assert stripper.take_anchors() == []
    assert stripper.feed("sis</a>.") == "sis."
    assert stripper.take_anchors() == [Anchor(REACTOME, "Apoptosis", 4, 13)]


def test_a_link_inside_an_open_html_anchor_waits_so_the_order_is_kept() -> None:
    stripper = AnchorStripper()
    stripper.feed(f'<a href="{REACTOME}">see [b](https://e.org/b)')
    assert stripper.take_anchors() == []
    stripper.feed("</a>")
    assert stripper.take_anchors() == [
        Anchor(REACTOME, "see b", 0, 5),
        Anchor("https://e.org/b", "b", 4, 5),
    ]


def test_held_chars_counts_an_unfinished_tag() -> None:
    stripper = AnchorStripper()
    assert stripper.feed('x <a href="') == "x "
    assert stripper.held_chars == len('<a href="')
    assert stripper.flush() == '<a href="'
    assert stripper.held_chars == 0
