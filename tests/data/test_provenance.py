"""contracts/fixtures/provenance.json held against ``answer_provenance``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citeline.agent import ProvenanceTag, answer_provenance
from citeline.agent.provenance import backs_figures
from citeline.stream.quotes import QuoteMatch, TrustedKind

FIXTURES = Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "provenance.json"
DATA: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))


def test_the_fixture_names_every_tag_and_only_those() -> None:
    assert set(DATA["tags"]) == {tag.value for tag in ProvenanceTag}


@pytest.mark.parametrize("case", DATA["cases"], ids=[case["name"] for case in DATA["cases"]])
def test_the_label_follows_the_rule(case: dict[str, Any]) -> None:
    label = answer_provenance(
        [ProvenanceTag(tag) for tag in case["tags"]],
        cited_sources=case["cited_sources"],
        quote_verified=case["quote_verified"],
    )
    assert label == case["expected"]


def test_only_ad_hoc_and_corpus_results_need_citing() -> None:
    assert {tag for tag in ProvenanceTag if tag.needs_citation} == {
        ProvenanceTag.CORPUS,
        ProvenanceTag.AD_HOC,
    }


@pytest.mark.parametrize(
    ("kinds", "backs"),
    [
        ((), False),
        (("definition",), False),
        (("table",), False),
        (("definition", "table"), False),
        (("result",), True),
        (("document",), True),
        (("table", "result"), True),
    ],
)
def test_only_a_quote_of_values_backs_an_ad_hoc_figure(
    kinds: tuple[TrustedKind, ...], backs: bool
) -> None:
    quotes = [QuoteMatch(kind, f"{kind}:x", kind, "ten or more characters") for kind in kinds]
    assert backs_figures(quotes) is backs
