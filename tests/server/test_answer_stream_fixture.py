"""``contracts/fixtures/answer-stream.json`` holds the server to what its clients read.

The Ask box's reader is held to the same cases under Node (``tests/js/``); here each case
must be exactly what the server writes: its events round-trip through the contract's own
types unchanged, and served through ``POST /v1/answer`` they reach a client as listed
(but for ``seconds`` and ``answer_id``, which are each server's own).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_servers import Served
from tests.support.event_streams import post_stream
from tests.support.scripted_engine import ScriptedEngine

from citeline.events import from_json, to_json

FIXTURE = json.loads(
    (Path(__file__).parents[2] / "contracts" / "fixtures" / "answer-stream.json").read_text()
)
CASES = {case["name"]: case for case in FIXTURE["cases"]}
Serve = Callable[..., Served]


def payload(item: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in item.items() if key != "event"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_is_written_exactly_as_the_contracts_types_write_it(name: str) -> None:
    for item in CASES[name]["events"]:
        assert to_json(from_json(item["event"], payload(item))) == item


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_reads_back_as_its_text_and_sources(name: str) -> None:
    case = CASES[name]
    tokens = [item["text"] for item in case["events"] if item["event"] == "token"]
    citations = [item for item in case["events"] if item["event"] == "citation"]
    reads = case["reads"]
    assert reads["text"] == "".join(tokens)
    assert [(s["n"], s["name"], s["start"], s["end"]) for s in reads["sources"]] == [
        (c["n"], c["display_name"], c["start"], c["end"]) for c in citations
    ]
    for source, citation in zip(reads["sources"], citations, strict=True):
        if "href" in citation:
            assert source["link"] == citation["href"]


ANSWERED_HERE = sorted(
    name
    for name, case in CASES.items()
    if case["events"][0] == {"event": "start", "release": case["events"][0].get("release")}
)


@pytest.mark.parametrize("name", ANSWERED_HERE)
def test_the_server_streams_each_case_as_the_fixture_lists_it(serve: Serve, name: str) -> None:
    case = CASES[name]
    events = [from_json(item["event"], payload(item)) for item in case["events"]]
    release = case["events"][0]["release"]
    server = serve(ScriptedEngine(events), open=True, release=release)
    streamed = post_stream(server.client, "/v1/answer", {"question": "When are spring tides?"})
    expected = [(item["event"], payload(item)) for item in case["events"]]
    *body, (_, done) = streamed.events
    assert body == expected[:-1]
    listed = expected[-1][1]
    assert done.keys() == listed.keys()
    assert {k: v for k, v in done.items() if k not in ("seconds", "answer_id")} == {
        k: v for k, v in listed.items() if k not in ("seconds", "answer_id")
    }
    if "answer_id" in done:
        assert re.fullmatch(r"[A-Za-z0-9_-]{24}", done["answer_id"])


def test_the_refusal_case_is_the_guards_own_refusal(serve: Serve) -> None:
    server = serve(ScriptedEngine([]))
    streamed = post_stream(server.client, "/v1/answer", {"question": "Tides?", "caller_token": ""})
    refusal = CASES["a refusal is the single event done, and shows no text"]["events"]
    assert [{"event": name, **data} for name, data in streamed.events] == refusal
