"""The corpus text a real model is given is bounded: passages nearest-first, whole, in budget."""

from __future__ import annotations

import json

from tests.support.openai_stub import ScriptedOpenAIServer

from citeline.agent import answer
from citeline.agent.context_budget import CHARS_PER_TOKEN, ContextBudget, estimated_tokens
from citeline.agent.corpus_tools import corpus_tools
from citeline.corpus import Corpus
from citeline.models import resolve_model


async def test_a_search_keeps_its_nearest_passages_whole_while_they_fit(corpus: Corpus) -> None:
    unbounded = await corpus_tools(corpus, in_thread=False)[0].run(
        {"query": "apoptosis autophagy glycolysis"}
    )
    hits = unbounded.value["results"]  # type: ignore[index]
    assert len(hits) == 3
    room = estimated_tokens(hits[0]["passage"]) + estimated_tokens(hits[1]["passage"]) + 80
    budget = ContextBudget(room)
    bounded = await corpus_tools(corpus, in_thread=False, budget=budget)[0].run(
        {"query": "apoptosis autophagy glycolysis"}
    )
    value = bounded.value
    assert isinstance(value, dict)
    assert [r["id"] for r in value["results"]] == [h["id"] for h in hits[:2]]
    assert [r["passage"] for r in value["results"]] == [h["passage"] for h in hits[:2]]
    assert value["note"] == "1 further results left out to fit the context."
    # Only what the model was given can be cited or quoted.
    assert [s.id for s in bounded.sources] == [h["id"] for h in hits[:2]]


async def test_a_read_gets_what_is_left_of_the_budget(corpus: Corpus) -> None:
    budget = ContextBudget(60)
    read = corpus_tools(corpus, in_thread=False, budget=budget)[1]
    output = await read.run({"id": "R-HSA-109581"})
    value = output.value
    assert isinstance(value, dict)
    assert len(value["text"]) == (60 - 40) * CHARS_PER_TOKEN
    assert value["truncated"] is True
    assert budget.left == 0


async def test_the_budget_set_on_the_model_bounds_what_the_first_request_carries(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [{"text": ["Caspases cleave proteins."]}]
    handle = resolve_model("openai:scripted", context_tokens=200)
    [e async for e in answer("apoptosis autophagy glycolysis", corpus=corpus, model=handle)]
    tool = next(m for m in openai_server.requests()[0]["messages"] if m["role"] == "tool")
    content = json.loads(tool["content"])
    value = content[0] if isinstance(content, list) else content
    passages = "".join(r["passage"] for r in value["results"])
    assert estimated_tokens(passages) <= 200
    assert len(value["results"]) < 3
