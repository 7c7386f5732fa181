"""``answer`` with the embedded model over a real index: the whole path, offline."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from typing import Any

import pytest

from citeline import answer
from citeline.agent import ChatMessage
from citeline.corpus import Corpus
from citeline.events import Citation, Done, Event, Start, Token
from citeline.models.embedded import model as embedded_model
from citeline.models.embedded.model import NOTHING_FOUND, TOOLS_FAILED


async def _collect(question: str, corpus: Any, **kwargs: Any) -> list[Event]:
    return [event async for event in answer(question, corpus=corpus, **kwargs)]


def _text(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, Token))


def _without_timing(events: list[Event]) -> list[Event]:
    return [replace(e, seconds=0.0) if isinstance(e, Done) else e for e in events]


async def test_an_embedded_answer_cites_the_documents_it_read_and_no_markup_reaches_the_prose(
    corpus: Corpus,
) -> None:
    events = await _collect("What do caspases cleave during apoptosis?", corpus)
    assert isinstance(events[0], Start)
    text = _text(events)
    for markup in ("<a", "](", "## Sources", "</a>"):
        assert all(markup not in e.text for e in events if isinstance(e, Token))
    assert "Caspases cleave hundreds of proteins during apoptosis" in text
    assert "(Apoptosis)" not in text
    citations = [e for e in events if isinstance(e, Citation)]
    assert citations and citations[0].id == "R-HSA-109581"
    assert [c.n for c in citations] == list(range(1, len(citations) + 1))
    returned = {hit.doc_id for hit in corpus.search("What do caspases cleave during apoptosis?", 8)}
    for citation in citations:
        assert citation.id in returned and citation.url is None
        # The chip carries the title; the cited span is the answer's own opening words.
        assert citation.display_name == "Apoptosis"
        assert citation.start == 0 and citation.end is not None
        opening = "Apoptosis is a form of programmed cell death that removes damaged cells"
        assert text[: citation.end] == opening
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.provenance, done.dropped_anchors) == ("answered", "sourced", 0)


async def test_a_source_without_a_url_is_cited_by_its_id(corpus: Corpus) -> None:
    events = await _collect("What does hexokinase do to glucose in glycolysis?", corpus)
    citations = [e for e in events if isinstance(e, Citation)]
    assert ("R-HSA-70171", None) in {(c.id, c.url) for c in citations}


async def test_a_question_the_collection_cannot_answer_is_nothing_found(corpus: Corpus) -> None:
    events = await _collect("zebra xylophone quasar", corpus)
    assert _text(events) == NOTHING_FOUND
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.provenance) == ("nothing_found", "none")
    assert not any(isinstance(e, Citation) for e in events)


async def test_concurrent_answers_give_exactly_what_they_give_alone(corpus: Corpus) -> None:
    questions = [
        "What do caspases cleave?",
        "What induces autophagy?",
        "What does glycolysis yield?",
    ]
    alone = [await _collect(q, corpus) for q in questions]
    together = await asyncio.gather(*(_collect(q, corpus) for q in questions))
    assert [_without_timing(e) for e in together] == [_without_timing(e) for e in alone]
    assert len({_text(e) for e in together}) == 3


async def test_release_comes_from_the_corpus_unless_given(corpus: Corpus) -> None:
    default = await _collect("What induces autophagy?", corpus)
    given = await _collect("What induces autophagy?", corpus, release="2026-11")
    assert default[0] == Start(release=corpus.release)
    assert given[0] == Start(release="2026-11")


async def test_a_chat_follow_up_is_answered_in_the_context_of_the_earlier_question(
    corpus: Corpus,
) -> None:
    history = [
        ChatMessage("user", "What induces autophagy?"),
        ChatMessage("assistant", "Starvation induces autophagy."),
    ]
    events = await _collect("Through what?", corpus, profile="chat", history=history)
    assert "mTOR" in _text(events)
    assert any(isinstance(e, Citation) and e.id == "R-HSA-9612973" for e in events)


async def test_the_words_no_document_holds_reach_the_embedded_models_choice(
    corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[frozenset[str]] = []
    choose = embedded_model.answer_choice

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("unheld", frozenset()))
        return choose(*args, **kwargs)

    monkeypatch.setattr(embedded_model, "answer_choice", spy)
    await _collect("What induces autophagy in Kubernetes?", corpus)
    assert seen == [frozenset({"kubernetes"})]


class _BrokenCorpus:
    """An index whose search fails, as a locked or corrupted file does."""

    release = "broken"

    def search(self, query: str, k: int = 10) -> list[Any]:
        raise OSError("database disk image is malformed")

    def get(self, doc_id: str) -> None:
        raise OSError("database disk image is malformed")


async def test_a_failing_search_reaches_the_model_as_an_error_and_the_answer_ends_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    events = await _collect("What induces autophagy?", _BrokenCorpus())
    assert _text(events) == TOOLS_FAILED
    done = events[-1]
    assert isinstance(done, Done) and done.state == "nothing_found"
    assert "database disk image is malformed" in caplog.text


class _SlowCorpus:
    release = None

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release_search = threading.Event()

    def search(self, query: str, k: int = 10) -> list[Any]:
        self.entered.set()
        self.release_search.wait(timeout=10)
        return []

    def unheld_words(self, query: str) -> list[str]:
        return []

    def get(self, doc_id: str) -> None:
        return None


async def test_cancelling_an_answer_propagates_the_cancellation() -> None:
    slow = _SlowCorpus()
    seen: list[Event] = []

    async def consume() -> None:
        async for event in answer("What induces autophagy?", corpus=slow):  # type: ignore[arg-type]
            seen.append(event)

    task = asyncio.create_task(consume())
    try:
        while not slow.entered.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        slow.release_search.set()
    assert seen == [Start(release=None)]


async def test_a_bad_model_setting_is_refused_before_any_event(corpus: Corpus) -> None:
    with pytest.raises(ValueError, match="embedded"):
        await _collect("What induces autophagy?", corpus, model="gpt-4o")


async def test_results_that_do_not_answer_end_nothing_found_with_a_one_line_pointer(
    corpus: Corpus,
) -> None:
    # "cells" matches the apoptosis page's words; nothing there is about blood cell counts.
    events = await _collect("How many red blood cells does an adult human have?", corpus)
    text = _text(events)
    assert text.startswith(NOTHING_FOUND) and "\n" not in text
    assert "“Apoptosis”" in text
    assert not any(isinstance(e, Citation) for e in events)
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.state, done.provenance, done.dropped_anchors) == ("nothing_found", "none", 0)


class _RecordingCorpus:
    """The real index, remembering each search query the model asked for."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self.release = corpus.release
        self.queries: list[str] = []

    def search(self, query: str, k: int = 10) -> list[Any]:
        self.queries.append(query)
        return self._corpus.search(query, k)

    def unheld_words(self, query: str) -> list[str]:
        return self._corpus.unheld_words(query)

    def get(self, doc_id: str) -> Any:
        return self._corpus.get(doc_id)


async def test_a_follow_ups_search_carries_the_earlier_questions_key_terms(
    corpus: Corpus,
) -> None:
    recording = _RecordingCorpus(corpus)
    history = [
        ChatMessage("user", "What does hexokinase do in glycolysis?"),
        ChatMessage("assistant", "Hexokinase phosphorylates glucose."),
    ]
    events = await _collect("And what does it yield?", recording, profile="chat", history=history)
    (query,) = recording.queries
    assert query.startswith("And what does it yield?")
    assert {"hexokinase", "glycolysis"} <= set(query.lower().split())
    assert "two molecules of ATP" in _text(events)
    assert any(isinstance(e, Citation) and e.id == "R-HSA-70171" for e in events)
