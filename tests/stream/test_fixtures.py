"""The shared stream cases in contracts/fixtures/stream.json, held against this implementation.

A second implementation (a JavaScript client, say) reads the same file; contracts/stream.md
says what each field means.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citeline.stream import AnchorStripper, Pipeline, SourcesSectionStripper
from citeline.stream.sources_section import HeadingRule

FIXTURES = Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "stream.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURES.read_text(encoding="utf-8"))["cases"]


def fragmentations(case: dict[str, Any]) -> list[list[str]]:
    text: str = case["input"]
    result: list[list[str]] = []
    for fragmentation in case["fragmentations"]:
        if fragmentation == "whole":
            result.append([text])
        elif fragmentation == "each char":
            result.append(list(text))
        elif fragmentation == "every split":
            result.extend([text[:cut], text[cut:]] for cut in range(1, len(text)))
        else:
            assert "".join(fragmentation) == text, "a listed fragmentation must spell the input"
            result.append(fragmentation)
    return result


def run(
    transform: str, fragments: list[str], rule: HeadingRule = "strict"
) -> tuple[list[str], list[dict[str, Any]]]:
    """Per-call outputs (the last one is flush) and every anchor, in order."""
    outputs: list[str] = []
    anchors: list[dict[str, Any]] = []
    if transform == "pipeline":
        pipeline = Pipeline(heading_rule=rule)
        for chunk in [*(pipeline.feed(f) for f in fragments), pipeline.flush()]:
            outputs.append(chunk.text)
            anchors.extend(_as_dict(anchor) for anchor in chunk.anchors)
    elif transform == "anchors":
        stripper = AnchorStripper()
        for call in [*(lambda f=f: stripper.feed(f) for f in fragments), stripper.flush]:
            outputs.append(call())
            anchors.extend(_as_dict(anchor) for anchor in stripper.take_anchors())
    else:
        assert transform == "sources_section"
        sources = SourcesSectionStripper(rule)
        outputs = [*(sources.feed(f) for f in fragments), sources.flush()]
    return outputs, anchors


def _as_dict(anchor: Any) -> dict[str, Any]:
    return {"href": anchor.href, "text": anchor.text, "start": anchor.start, "end": anchor.end}


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_fragmentation_gives_the_expected_output_and_anchors(case: dict[str, Any]) -> None:
    for fragments in fragmentations(case):
        outputs, anchors = run(case["transform"], fragments, case.get("heading_rule", "strict"))
        assert "".join(outputs) == case["output"], fragments
        assert anchors == case.get("anchors", []), fragments


@pytest.mark.parametrize(
    "case", [c for c in CASES if "feeds" in c], ids=[c["name"] for c in CASES if "feeds" in c]
)
def test_each_feed_releases_exactly_what_the_case_says(case: dict[str, Any]) -> None:
    rule = case.get("heading_rule", "strict")
    outputs, _ = run(case["transform"], case["feeds"]["fragments"], rule)
    assert outputs == case["feeds"]["outputs"]


def test_the_fixtures_name_every_case_once() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))
