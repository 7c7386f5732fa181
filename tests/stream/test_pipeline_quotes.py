"""The stream pipeline with a quote verifier: quote blocks go first, before anchors and the
sources section, and their outcomes ride on the chunks."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.stream import Pipeline
from citeline.stream.quotes import QuoteOutcome, TrustedText, TrustedTexts

TABLE_TEXT = "- body_mass_g (BIGINT): Body mass in grams."
TRUSTED = TrustedTexts([TrustedText("table", "table:penguins", "penguins", TABLE_TEXT)])


def run(fragments: list[str]) -> tuple[str, list[tuple[str, str]], list[QuoteOutcome]]:
    pipeline = Pipeline(quotes=TRUSTED)
    text: list[str] = []
    anchors: list[tuple[str, str]] = []
    quotes: list[QuoteOutcome] = []
    for chunk in [*(pipeline.feed(fragment) for fragment in fragments), pipeline.flush()]:
        text.append(chunk.text)
        anchors.extend((anchor.href, anchor.text) for anchor in chunk.anchors)
        quotes.extend(chunk.quotes)
    return "".join(text), anchors, quotes


ANSWER = (
    "Gentoo penguins average 5076 g ([penguins](cite:table)).\n"
    "<citation>\n> Body mass in grams.\nSee [the table](https://example.org/t).\n</citation>\n"
    "\n## Sources\n- [penguins](cite:table)\n"
)


def test_a_quote_block_is_removed_before_anchors_so_its_links_never_count() -> None:
    text, anchors, quotes = run([ANSWER])
    assert text == "Gentoo penguins average 5076 g (penguins).\n\n"
    assert ("https://example.org/t", "the table") not in anchors
    assert [(quote.status, quote.match and quote.match.id) for quote in quotes] == [
        ("verified", "table:penguins")
    ]


def test_without_a_verifier_the_pipeline_leaves_quote_blocks_alone() -> None:
    pipeline = Pipeline()
    chunk = pipeline.feed("<citation>\n> Body mass in grams.\n</citation>\n")
    assert chunk.quotes == ()
    assert "<citation>" in chunk.text + pipeline.flush().text


@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(ANSWER)), max_size=10))
def test_the_pipeline_with_quotes_does_not_depend_on_the_split(cuts: list[int]) -> None:
    bounds = [0, *sorted(set(cuts)), len(ANSWER)]
    fragments = [ANSWER[a:b] for a, b in itertools.pairwise(bounds) if a < b]
    assert run(fragments) == run([ANSWER])
