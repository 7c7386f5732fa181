"""citeline's tool loop against a real local OpenAI-protocol server: what a model that calls
tools wrongly is sent back, and a model that never stops calling tools."""

from __future__ import annotations

import json
from typing import Any

import pytest

from citeline.models import ToolReply, ToolSpec, resolve_model, stream_turn
from citeline.models.tool_loop import MAX_CALLS_PER_RESPONSE, MAX_MODEL_REQUESTS, TurnLimitError

ScriptedOpenAIServer = Any  # the conftest fixture's server
SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}}}


def _tools(calls: list[dict[str, Any]]) -> list[ToolSpec]:
    async def search(args: dict[str, Any]) -> ToolReply:
        calls.append(args)
        return ToolReply({"results": []}, metadata={"provenance": "corpus"})

    return [ToolSpec("search", "Search the collection.", SCHEMA, search)]


async def _text(tools: list[ToolSpec]) -> str:
    fragments = stream_turn(
        resolve_model("openai:scripted"), instructions="Answer.", question="Q?", tools=tools
    )
    return "".join([fragment async for fragment in fragments])


def _tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "tool"]


async def test_a_call_to_a_tool_not_offered_is_answered_with_the_tools_that_are(
    openai_server: ScriptedOpenAIServer,
) -> None:
    openai_server.script = [
        {"calls": [("browse", {"url": "https://example.org"})]},
        {"text": ["Done."]},
    ]
    calls: list[dict[str, Any]] = []
    assert await _text(_tools(calls)) == "Done."
    [sent] = _tool_messages(openai_server.requests()[1])
    assert "no tool named 'browse'" in sent["content"] and "search" in sent["content"]
    assert calls == []


async def test_arguments_that_are_not_a_json_object_fail_the_call_and_the_turn_goes_on(
    openai_server: ScriptedOpenAIServer,
) -> None:
    openai_server.script = [
        {"calls": [("search", ["not", "an", "object"])]},
        {"calls": [("search", {"query": "apoptosis"})]},
        {"text": ["Found ", "nothing."]},
    ]
    calls: list[dict[str, Any]] = []
    assert await _text(_tools(calls)) == "Found nothing."
    requests = openai_server.requests()
    assert "not a JSON object" in _tool_messages(requests[1])[0]["content"]
    assert calls == [{"query": "apoptosis"}]
    assert json.loads(_tool_messages(requests[2])[1]["content"]) == {"results": []}


async def test_a_model_that_never_stops_calling_tools_is_stopped(
    openai_server: ScriptedOpenAIServer,
) -> None:
    openai_server.responder = lambda body: {"calls": [("search", {"query": "again"})]}
    calls: list[dict[str, Any]] = []
    with pytest.raises(TurnLimitError):
        await _text(_tools(calls))
    assert len(openai_server.bodies) == MAX_MODEL_REQUESTS
    assert len(calls) == MAX_MODEL_REQUESTS


async def test_one_response_runs_only_its_first_calls_and_the_rest_are_refused_to_the_model(
    openai_server: ScriptedOpenAIServer,
) -> None:
    # Issue 29: one response's 40 slow queries, all run at once, starved every other answer.
    openai_server.script = [
        {"calls": [("search", {"query": f"q{number}"}) for number in range(40)]},
        {"text": ["Done."]},
    ]
    calls: list[dict[str, Any]] = []
    assert await _text(_tools(calls)) == "Done."
    assert calls == [{"query": f"q{number}"} for number in range(MAX_CALLS_PER_RESPONSE)]
    sent = _tool_messages(openai_server.requests()[1])
    assert len(sent) == 40
    refused = sent[MAX_CALLS_PER_RESPONSE:]
    assert all("was not run" in message["content"] for message in refused)
    assert all("next response" in message["content"] for message in refused)
