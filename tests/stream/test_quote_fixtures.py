"""contracts/fixtures/citations.json held against citeline.stream.quotes: normalising a quote,
parsing a ``<citation>`` body, and matching a quote against trusted text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citeline.stream.quotes import (
    KIND_ORDER,
    MAX_BODY_CHARS,
    MIN_QUOTE_CHARS,
    QuoteMatch,
    TrustedText,
    TrustedTexts,
    normalise_quote,
    parse_quote_body,
)

FIXTURES = Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "citations.json"
DATA: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))


def _named(section: str) -> Any:
    cases = DATA[section]["cases"]
    return pytest.mark.parametrize("case", cases, ids=[case["name"] for case in cases])


def test_the_fixture_pins_the_bounds_and_order_this_implementation_uses() -> None:
    assert DATA["min_quote_chars"] == MIN_QUOTE_CHARS
    assert DATA["max_body_chars"] == MAX_BODY_CHARS
    assert tuple(DATA["kind_order"]) == KIND_ORDER


@_named("normalise")
def test_normalising_gives_the_fixture_text(case: dict[str, Any]) -> None:
    assert normalise_quote(case["input"]) == case["expected"]


@_named("parse")
def test_parsing_a_body_gives_the_fixture_quote_or_reason(case: dict[str, Any]) -> None:
    parsed = parse_quote_body(case["body"])
    expected = case["expected"]
    if "malformed" in expected:
        assert parsed == expected["malformed"]
    else:
        assert not isinstance(parsed, str)
        assert {"quote": parsed.quote, "explanation": parsed.explanation} == expected


def trusted_texts(entries: list[dict[str, str]]) -> TrustedTexts:
    return TrustedTexts(TrustedText(**entry) for entry in entries)  # type: ignore[arg-type]


@_named("match")
def test_matching_gives_the_fixture_source_or_reason(case: dict[str, Any]) -> None:
    verdict = trusted_texts(case["trusted"]).verify(case["quote"])
    expected = case["expected"]
    if "rejected" in expected:
        assert verdict == expected["rejected"]
    else:
        assert isinstance(verdict, QuoteMatch)
        assert {
            "kind": verdict.kind,
            "id": verdict.id,
            "display_name": verdict.display_name,
            "text": verdict.text,
        } == expected


@_named("match")
def test_a_matched_passage_normalises_to_the_quote(case: dict[str, Any]) -> None:
    verdict = trusted_texts(case["trusted"]).verify(case["quote"])
    if isinstance(verdict, QuoteMatch):
        assert normalise_quote(verdict.text) == normalise_quote(case["quote"])
