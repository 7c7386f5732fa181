"""contracts/fixtures/citation-scan.json held against QuoteBlockScanner, and the property that
its output does not depend on how the stream was split."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.stream.quotes import (
    QuoteBlockScanner,
    QuoteOutcome,
    TrustedText,
    TrustedTexts,
)

FIXTURES = Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "citation-scan.json"
DATA: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))
DEFAULT_SPLITS = ["whole", "each char", "every split"]


def spell(value: str | list[Any]) -> str:
    if isinstance(value, str):
        return value
    return "".join(
        part if isinstance(part, str) else part["repeat"] * part["times"] for part in value
    )


def fragmentations(text: str, specs: list[Any]) -> list[list[str]]:
    result: list[list[str]] = []
    for spec in specs:
        if spec == "whole":
            result.append([text])
        elif spec == "each char":
            result.append(list(text))
        elif spec == "every split":
            result.extend([text[:cut], text[cut:]] for cut in range(1, len(text)))
        elif "chunk" in spec:
            size = spec["chunk"]
            result.append([text[at : at + size] for at in range(0, len(text), size)])
        else:
            cuts = [0, *spec["cuts"], len(text)]
            result.append([text[a:b] for a, b in itertools.pairwise(cuts)])
    return result


def scan(fragments: list[str], trusted: TrustedTexts) -> tuple[str, list[QuoteOutcome]]:
    scanner = QuoteBlockScanner(trusted)
    texts: list[str] = []
    outcomes: list[QuoteOutcome] = []
    for result in [*(scanner.feed(fragment) for fragment in fragments), scanner.flush()]:
        texts.append(result.text)
        outcomes.extend(result.outcomes)
    return "".join(texts), outcomes


def pinned(outcome: QuoteOutcome, keys: set[str]) -> dict[str, Any]:
    match = outcome.match
    known = {
        "status": outcome.status,
        "reason": outcome.reason,
        "quote": outcome.quote,
        "explanation": outcome.explanation,
        "kind": match and match.kind,
        "id": match and match.id,
        "display_name": match and match.display_name,
        "text": match and match.text,
    }
    return {key: known[key] for key in keys}


def trusted_of(case: dict[str, Any]) -> TrustedTexts:
    entries = case.get("trusted", DATA["trusted"])
    return TrustedTexts(TrustedText(**entry) for entry in entries)


@pytest.mark.parametrize("case", DATA["cases"], ids=[case["name"] for case in DATA["cases"]])
def test_every_split_gives_the_fixture_text_and_outcomes(case: dict[str, Any]) -> None:
    text = spell(case["input"])
    trusted = trusted_of(case)
    expected = case["expected"]
    for fragments in fragmentations(text, case.get("splits", DEFAULT_SPLITS)):
        released, outcomes = scan(fragments, trusted)
        assert released == expected["text"], fragments if len(fragments) < 4 else len(fragments)
        assert [
            pinned(outcome, set(want))
            for outcome, want in zip(outcomes, expected["quotes"], strict=False)
        ] == expected["quotes"]
        assert len(outcomes) == len(expected["quotes"])


def test_a_verified_quote_never_reaches_the_prose() -> None:
    text = "Mass.\n<citation>\n> Body mass in grams.\nwhy\n</citation>\nEnd."
    released, outcomes = scan([text], trusted_of({}))
    assert "Body mass in grams" not in released and "why" not in released
    assert [outcome.status for outcome in outcomes] == ["verified"]


# Streams built from the pieces that matter to the scanner, so that hypothesis spends its
# examples on tags, line starts and quote lines rather than on random letters.
PIECES = st.sampled_from(
    [
        "<citation>",
        "</citation>",
        "<citation>\n> Body mass in grams.\n</citation>\n",
        "<cit",
        "</cita",
        "\n",
        "> ",
        ">",
        "Body mass in grams.",
        "Flipper length in millimetres.",
        "prose ",
        "x",
        " <citation> ",
        "\r\n",
        "\u201cquoted\u201d \u2014 ",
        "<Citation>",
        "</CITATION>",
        "<CIT",
        # Two of these overflow a body, so oversized bodies and their discarding are drawn.
        "x" * 9000,
    ]
)


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(PIECES, max_size=24), cuts=st.lists(st.integers(min_value=0), max_size=12))
def test_the_output_does_not_depend_on_how_the_stream_was_split(
    pieces: list[str], cuts: list[int]
) -> None:
    text = "".join(pieces)
    trusted = trusted_of({})
    offsets = sorted({cut % (len(text) + 1) for cut in cuts})
    bounds = [0, *offsets, len(text)]
    fragments = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert scan(fragments, trusted) == scan([text], trusted)
    assert scan(list(text), trusted) == scan([text], trusted)


@settings(max_examples=150, deadline=None)
@given(
    fragments=st.lists(
        st.text(alphabet=st.characters(blacklist_characters="<"), max_size=12), max_size=12
    )
)
def test_prose_without_a_tag_is_released_by_the_same_feed(fragments: list[str]) -> None:
    scanner = QuoteBlockScanner(trusted_of({}))
    assert [scanner.feed(fragment).text for fragment in fragments] == fragments
    assert scanner.flush().text == ""


def test_a_partial_tag_at_a_line_start_is_held_then_released_when_it_diverges() -> None:
    scanner = QuoteBlockScanner(trusted_of({}))
    assert scanner.feed("A.\n</citatio").text == "A.\n"
    assert scanner.feed("ns are tags.").text == "</citations are tags."


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(
        alphabet=st.sampled_from(list("ab *_`\u2018\u2019\u201c\u201d\u2013\u2014\n\t\u00a0x")),
        max_size=60,
    )
)
def test_a_passage_is_found_for_every_quote_taken_from_trusted_text(text: str) -> None:
    from citeline.stream.quotes import QuoteMatch, normalise_quote

    trusted = TrustedTexts([TrustedText("document", "d", "D", text)])
    needle = normalise_quote(text)
    verdict = trusted.verify(text)
    if len(needle) < 10:
        assert verdict == "too_short"
    else:
        assert isinstance(verdict, QuoteMatch)
        assert normalise_quote(verdict.text) == needle
