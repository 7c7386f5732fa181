"""The citation request held to ``contracts/fixtures/citation-request.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citeline.agent import CitationRequest, load_prompt, turn_has_user_message
from citeline.models import ToolReply

FIXTURE = Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "citation-request.json"
CONTRACT = json.loads(FIXTURE.read_text(encoding="utf-8"))


def _decode(value: dict[str, Any]) -> ToolReply:
    if value["kind"] == "error":
        return ToolReply(value=None, error=value["error"])
    return ToolReply(value=_decode_value(value))


def _decode_value(value: dict[str, Any]) -> object:
    kind = value["kind"]
    if kind == "text":
        return value["text"]
    if kind == "parts":
        return [_decode_value(part) for part in value["parts"]]
    if kind == "data":
        return value["data"]
    raise ValueError(f"unknown value kind {kind!r}")


@pytest.mark.parametrize("case", CONTRACT["requests"]["cases"], ids=lambda c: c["name"])
def test_the_reminder_joins_results_as_the_contract_says(case: dict[str, Any]) -> None:
    request = CitationRequest(CONTRACT["reminder"])
    for step in case["steps"]:
        if step["action"] == "reset":
            request.reset()
            continue
        assert step["action"] == "add"
        reply = request.add(_decode(step["value"]), eligible=step.get("eligible", True))
        assert reply == _decode(step["expected"])
        assert request.spent is step["spent"]


@pytest.mark.parametrize("case", CONTRACT["resets"]["cases"], ids=lambda c: c["name"])
def test_only_a_turn_with_a_user_message_starts_a_new_request(case: dict[str, Any]) -> None:
    assert turn_has_user_message(tuple(case["contents"])) is case["resets"]


def test_the_reminder_words_come_from_the_prompt_file() -> None:
    request = CitationRequest.from_prompt()
    assert request.reminder == load_prompt("citation-request")
    assert "href" in request.reminder


def test_the_metadata_of_a_result_survives_the_reminder() -> None:
    reply = ToolReply(value="x", metadata={"provenance": "corpus"})
    joined = CitationRequest("R").add(reply, eligible=True)
    assert joined.metadata == {"provenance": "corpus"}
    assert joined.value == "x\n\nR"
