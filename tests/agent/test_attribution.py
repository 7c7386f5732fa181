"""Citations the server finds: a sentence the model left uncited is attributed to the returned
passage that supports it, through the real engine and a scripted OpenAI-compatible model."""

from __future__ import annotations

import asyncio
import json
import threading
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.openai_stub import ScriptedOpenAIServer

from citeline.agent import answer, load_prompt
from citeline.agent.attribution import Attributor, SentenceSplitter
from citeline.corpus import Corpus
from citeline.events import Citation, Done, Event, Token
from citeline.models import resolve_model
from citeline.stream.quotes import TrustedText

from .conftest import DOCUMENTS

NEVER_CALLS_TOOLS = "openai:scripted?tools=none"


async def _collect(question: str, corpus: Corpus, spec: str = NEVER_CALLS_TOOLS) -> list[Event]:
    return [e async for e in answer(question, corpus=corpus, model=resolve_model(spec))]


def _text(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, Token))


async def test_a_model_that_never_calls_tools_gets_the_search_first_and_is_cited_by_attribution(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    questions = {
        "What do caspases do?": "Caspases cleave hundreds of proteins during apoptosis.",
        "What does glycolysis yield?": "Glycolysis converts glucose into pyruvate and ATP.",
        "What induces autophagy?": "Starvation induces autophagy by inhibiting mTOR signalling.",
    }
    expected = {
        "What do caspases do?": "R-HSA-109581",
        "What does glycolysis yield?": "R-HSA-70171",
        "What induces autophagy?": "R-HSA-9612973",
    }
    for question, reply in questions.items():
        openai_server.bodies.clear()
        openai_server.script = [{"text": [reply[:10], reply[10:]]}]
        events = await _collect(question, corpus)
        first = openai_server.requests()[0]
        assert "tools" not in first
        assert '"results"' in first["messages"][-1]["content"]
        citations = [e for e in events if isinstance(e, Citation)]
        assert [(c.id, c.found_by) for c in citations] == [(expected[question], "server")]
        text = _text(events)
        assert citations[0].start == 0 and citations[0].end == len(text.rstrip())
        done = events[-1]
        assert isinstance(done, Done) and (done.state, done.provenance) == ("answered", "sourced")


async def test_a_sentence_no_passage_supports_is_not_cited(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [{"text": ["Paris is the capital of France and sits on the Seine."]}]
    events = await _collect("What do caspases do?", corpus)
    assert not [e for e in events if isinstance(e, Citation)]
    done = events[-1]
    assert isinstance(done, Done) and (done.state, done.provenance) == ("answered", "none")


async def test_the_models_own_link_counts_and_its_sentence_is_left_to_it(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    url = "https://reactome.org/content/detail/R-HSA-109581"
    openai_server.script = [
        {"text": [f"Caspases cleave hundreds of proteins during [apoptosis]({url})."]}
    ]
    events = await _collect("What do caspases do?", corpus)
    citations = [e for e in events if isinstance(e, Citation)]
    assert [(c.id, c.found_by) for c in citations] == [("R-HSA-109581", None)]


def test_code_headings_and_fence_lines_are_never_attributed() -> None:
    passages = [TrustedText("document", "a", "A", "Apoptosis removes damaged cells by caspases.")]
    attributor = Attributor("What is apoptosis?", lambda: passages)
    text = (
        "## Apoptosis removes damaged cells by caspases\n"
        "```\nApoptosis removes damaged cells by caspases.\n```\n"
        "Apoptosis removes damaged cells by caspases.\n"
    )
    sentences = [*attributor.feed(text), *attributor.flush()]
    assert [s.text for s in sentences] == ["Apoptosis removes damaged cells by caspases."]
    found = attributor.attribute(sentences[0])
    assert found is not None and found.source_id == "a"
    # A lone CR ends a line here as in the stream (issue 29): the heading is still none.
    lone_cr = Attributor("What is apoptosis?", lambda: passages)
    text = text.replace("\n", "\r")
    in_cr = [s.text for s in [*lone_cr.feed(text), *lone_cr.flush()]]
    assert in_cr == ["Apoptosis removes damaged cells by caspases."]


@given(st.lists(st.text(alphabet="ab .!?\n\r`#", max_size=12), max_size=12))
def test_a_sentence_is_where_the_splitter_says_however_the_text_arrives(
    fragments: list[str],
) -> None:
    text = "".join(fragments)
    whole = SentenceSplitter()
    pieces = SentenceSplitter()
    at_once = [*whole.feed(text), *whole.flush()]
    in_pieces = [s for f in fragments for s in pieces.feed(f)] + list(pieces.flush())
    assert at_once == in_pieces
    for sentence in at_once:
        assert text[sentence.start : sentence.end] == sentence.text


_WORDS = [
    "Caspases", "cleave", "hundreds", "of", "proteins", "during", "apoptosis", "Glycolysis",
    "converts", "glucose", "into", "pyruvate", "Starvation", "induces", "autophagy", "mTOR",
    "Paris", "is", "a", "city", "[x](https://evil.example/R-HSA-109581)", "`code`", "\n",
    "```", "## Sources", "<tool_call>", "</tool_call>",
]  # fmt: skip


@st.composite
def _answers(draw: st.DrawFn) -> tuple[str, list[str]]:
    sentences = draw(
        st.lists(
            st.one_of(
                st.sampled_from(
                    [line.split("\n\n", 1)[1] for text in DOCUMENTS.values() for line in [text]]
                ),
                st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12).map(" ".join),
            ),
            min_size=1,
            max_size=5,
        )
    )
    text = " ".join(s.strip() + "." for s in sentences)
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=8)))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in pairwise(bounds) if b > a]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_answers())
async def test_every_found_citation_lies_in_the_answer_and_names_a_source_returned_this_turn(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, case: tuple[str, list[str]]
) -> None:
    _, fragments = case
    openai_server.bodies.clear()
    openai_server.script = [{"text": fragments}]
    events = await _collect("What happens to proteins during apoptosis?", corpus)
    text = _text(events)
    returned = _returned(openai_server.requests()[0])
    for citation in (e for e in events if isinstance(e, Citation) and e.found_by == "server"):
        assert citation.id in returned
        assert citation.start is not None and citation.end is not None
        assert 0 <= citation.start < citation.end <= len(text)
        assert text[citation.start : citation.end].strip()


def _returned(body: dict[str, Any]) -> set[str]:
    """The source ids the server's own search sent the model (in its message, tools=none)."""
    content = body["messages"][-1]["content"]
    value = json.loads(content.split(load_prompt("first-search"), 1)[1])
    results = value[0]["results"] if isinstance(value, list) else value["results"]
    return {result["id"] for result in results}


async def test_a_quote_block_from_a_returned_document_is_verified_evidence(
    openai_server: ScriptedOpenAIServer, corpus: Corpus
) -> None:
    openai_server.script = [
        {
            "text": [
                "They cut proteins.\n\n<citation>\n> Caspases cleave hundreds of proteins",
                " during apoptosis.\nThe passage says so.\n</citation>\n",
            ]
        }
    ]
    events = await _collect("What do caspases do?", corpus)
    quotes = [e for e in events if isinstance(e, Citation) and e.quote is not None]
    assert [(q.id, q.kind, q.verified) for q in quotes] == [("R-HSA-109581", "document", True)]
    assert "<citation>" not in _text(events)


async def test_one_answers_attribution_holds_no_other_answers_events(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Scoring a sentence is tens of milliseconds of the sentence model; run on the event
    # loop, one answer's attribution held every other answer's events. Here the first
    # answer's scoring is held open (the real scoring runs once it is let go) while a second
    # answer runs from start to done: it can only if the first scores off the loop. A
    # regression holds the loop until the hold's bound, and the order below says so.
    replies = {
        "What do caspases do?": "Caspases cleave hundreds of proteins during apoptosis.",
        "What does glycolysis yield?": "Glycolysis converts glucose into pyruvate and ATP.",
    }
    openai_server.responder = lambda body: {
        "text": [next(r for q, r in replies.items() if q in json.dumps(body["messages"]))]
    }
    entered, let_go = threading.Event(), threading.Event()
    order: list[str] = []
    score = Attributor.candidates

    def held(self: Attributor, text: str, passages: Any = None) -> list[Any]:
        if "Caspases" in text:
            entered.set()
            let_go.wait(10)
            order.append("caspases scored")
        return score(self, text, passages)

    monkeypatch.setattr(Attributor, "candidates", held)

    async def collect(question: str) -> list[Event]:
        events = await _collect(question, corpus)
        order.append(f"{question} done")
        return events

    first = asyncio.create_task(collect("What do caspases do?"))
    assert await asyncio.to_thread(entered.wait, 10)
    second = await collect("What does glycolysis yield?")
    let_go.set()
    caspases = await first
    assert order == [
        "What does glycolysis yield? done",
        "caspases scored",
        "What do caspases do? done",
    ]
    # Both answers whole, each cited by the server for its own sentence.
    for events, source in ((second, "R-HSA-70171"), (caspases, "R-HSA-109581")):
        assert [(c.id, c.found_by) for c in events if isinstance(c, Citation)] == [
            (source, "server")
        ]
        done = events[-1]
        assert isinstance(done, Done) and done.state == "answered"
