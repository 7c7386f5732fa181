"""The recorded real model (Qwen2.5-Coder-1.5B behind llama-cpp-python) replayed through a
scripted OpenAI-compatible server: every fault it showed ends as the contract says.

Each recorded reply is played back byte for byte to the request citeline sends now, over
the bundled Python-docs sample (the collection it was recorded against).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.openai_stub import ScriptedOpenAIServer
from tests.support.transcripts import answers, exchanges, tagged

from citeline.agent import answer
from citeline.corpus import Corpus
from citeline.events import Citation, Done, Event, Token
from citeline.models import resolve_model
from citeline.sample import sample_path

pytestmark = pytest.mark.skipif(
    not exchanges(), reason="the shared real-model transcripts are not beside the repo"
)

# What a tool call a server did not parse looks like in prose.
_CALL_TEXT = re.compile(r"<tools?>|</tools?>|<tool_call>|\"arguments\"\s*:", re.IGNORECASE)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    corpus = Corpus.open(tmp_path_factory.mktemp("sample") / "index.db")
    corpus.ingest(sample_path())
    try:
        yield corpus
    finally:
        corpus.close()


async def _replay(question: str, corpus: Corpus, spec: str = "openai:qwen") -> list[Event]:
    return [event async for event in answer(question, corpus=corpus, model=resolve_model(spec))]


def _text(events: list[Event]) -> str:
    return "".join(event.text for event in events if isinstance(event, Token))


def _returned_ids(server: ScriptedOpenAIServer) -> set[str]:
    """The ids of every source a tool result in the requests carried."""
    ids: set[str] = set()
    for body in server.requests():
        for message in body["messages"]:
            if message["role"] != "tool":
                continue
            for result in _results(json.loads(message["content"])):
                ids.add(result["id"])
    return ids


def _results(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        for part in value:
            yield from _results(part)
    elif isinstance(value, dict):
        yield from value.get("results", ())


async def test_every_recorded_answer_replayed_keeps_tool_call_text_out_and_cites_only_returned(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    replies = answers()
    assert len(replies) >= 40
    for exchange in replies:
        openai_server.bodies.clear()
        openai_server.script = [exchange.reply()]
        events = await _replay(exchange.question, sample)
        text = _text(events)
        done = events[-1]
        assert isinstance(done, Done), exchange.tag
        # A reply that was a tool call and nothing else leaves no answer.
        assert done.state == ("answered" if text.strip() else "nothing_found"), exchange.tag
        assert not _CALL_TEXT.search(text), (exchange.tag, text[:200])
        assert done.truncated == (exchange.finish_reason == "length"), exchange.tag
        citations = [event for event in events if isinstance(event, Citation)]
        assert {c.id for c in citations} <= _returned_ids(openai_server), exchange.tag
        # Sourced only when a citation stands behind it: never from the text alone.
        assert (done.provenance == "sourced") == bool(citations), exchange.tag


async def test_every_first_request_carries_the_questions_search_results(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    for exchange in answers()[:10]:
        openai_server.bodies.clear()
        openai_server.script = [exchange.reply()]
        await _replay(exchange.question, sample)
        first = openai_server.requests()[0]
        tool_messages = [m for m in first["messages"] if m["role"] == "tool"]
        assert len(tool_messages) == 1, exchange.tag
        assert list(_results(json.loads(tool_messages[0]["content"]))), exchange.tag
        assert first["messages"][-2]["content"] == ""  # never null beside a tool call


async def test_tool_calls_left_as_text_are_removed_and_counted(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    for tag, expected in (("C-probe", 1), ("G-probe", 1), ("E-q06", 1)):
        exchange = next(e for e in tagged(tag) if e.text)
        openai_server.script = [exchange.reply()]
        events = await _replay(exchange.question, sample)
        done = events[-1]
        assert isinstance(done, Done) and done.tool_call_text == expected, tag
        assert not _CALL_TEXT.search(_text(events)), tag


async def test_an_answer_cut_by_the_context_ends_flagged_as_cut(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    exchange = next(e for e in tagged("I-probe") if e.finish_reason == "length")
    openai_server.script = [exchange.reply()]
    events = await _replay(exchange.question, sample)
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.truncated, done.payload()["truncated"]) == ("answered", True, True)


async def test_a_tool_call_is_sent_back_with_empty_content_which_the_recorded_server_accepts(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    call, refusal = tagged("D-probe")[0], tagged("D-probe")[1]
    final = next(e for e in tagged("q01") if e.text)

    def llama_cpp_python(body: dict[str, Any]) -> dict[str, Any]:
        # As the recorded server did: HTTP 500 for an assistant message whose content is null.
        nulls = [m for m in body["messages"] if m["role"] == "assistant" and m["content"] is None]
        if nulls:
            return refusal.reply()
        tool_results = sum(m["role"] == "tool" for m in body["messages"])
        return call.reply() if tool_results < 2 else final.reply()

    openai_server.responder = llama_cpp_python
    events = await _replay(call.question, sample)
    assert refusal.status == 500
    bodies = openai_server.requests()
    assert len(bodies) == 2
    assistant = [m for m in bodies[1]["messages"] if m["role"] == "assistant"]
    assert [m["content"] for m in assistant] == ["", ""]
    done = events[-1]
    assert isinstance(done, Done) and done.state == "answered"


async def test_a_server_that_refuses_every_request_fails_in_one_sentence_after_one_retry(
    openai_server: ScriptedOpenAIServer, sample: Corpus, caplog: pytest.LogCaptureFixture
) -> None:
    refusal = tagged("D-probe")[1]
    openai_server.responder = lambda body: refusal.reply()
    events = await _replay("How do I sort a list of dictionaries by a key?", sample)
    done = events[-1]
    assert isinstance(done, Done) and done.state == "failed"
    assert done.failure is not None and done.failure.startswith(
        "The model server answered HTTP 500"
    )
    assert done.failure.count(". ") <= 1 and "\n" not in done.failure
    assert len(openai_server.bodies) == 2  # the request and one retry, not three
    assert "sending the request again (retry 1 of 1)" in caplog.text
    assert "Traceback" not in caplog.text


async def test_a_stream_the_server_broke_off_fails_with_a_sentence(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    # chatml-function-calling refused a streamed "auto" tool choice inside its stream: the
    # recorded body is one keep-alive comment and nothing else.
    broken = tagged("B-probe")[0]
    openai_server.script = [broken.reply()]
    events = await _replay(broken.question, sample)
    done = events[-1]
    assert isinstance(done, Done) and done.state == "failed" and done.failure


async def test_a_model_without_tools_is_sent_none_and_reads_the_search_in_its_message(
    openai_server: ScriptedOpenAIServer, sample: Corpus
) -> None:
    exchange = next(e for e in tagged("E-q02") if e.text)
    openai_server.script = [exchange.reply()]
    events = await _replay(exchange.question, sample, "openai:qwen?tools=none")
    body = openai_server.requests()[0]
    assert "tools" not in body and "tool_choice" not in body
    assert not [m for m in body["messages"] if m["role"] == "tool"]
    user = body["messages"][-1]["content"]
    assert user.startswith(exchange.question) and '"results"' in user
    assert isinstance(events[-1], Done) and events[-1].state == "answered"


def test_the_transcripts_are_the_recorded_ones() -> None:
    readme = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    assert (readme / "real-model-transcripts" / "README.md").exists()
    assert len(exchanges()) == 114
