"""Where the corpus tools call the corpus: on the event loop's own thread for the embedded
model over a local file (its answer is this process's CPU either way, and a worker-thread
hand-off cost more than the search), in a worker thread for a real model, so the loop stays
free while a provider streams to other readers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from citeline.agent import answer
from citeline.agent.corpus_tools import corpus_tools
from citeline.corpus import Corpus, Document, Hit
from citeline.events import Done, Event

ScriptedOpenAIServer = Any  # the conftest fixture's server


class ThreadRecordingCorpus(Corpus):
    """The real SQLite corpus, noting the thread each search and read ran on."""

    threads: list[int]

    def search(self, query: str, k: int = 10) -> list[Hit]:
        self.threads.append(threading.get_ident())
        return super().search(query, k)

    def get(self, doc_id: str) -> Document | None:
        self.threads.append(threading.get_ident())
        return super().get(doc_id)


def _recording(corpus: Corpus, tmp_path: Path) -> ThreadRecordingCorpus:
    # The fixture's index, reopened as the recording subclass.
    opened = ThreadRecordingCorpus.open(tmp_path / "index.db")
    opened.threads = []
    return opened


async def _collect(question: str, corpus: Corpus, model: str) -> list[Event]:
    return [event async for event in answer(question, corpus=corpus, model=model)]


def test_a_sqlite_corpus_says_it_is_local(corpus: Corpus) -> None:
    assert corpus.local is True


async def test_the_embedded_model_calls_a_local_corpus_on_the_loops_thread(
    corpus: Corpus, tmp_path: Path
) -> None:
    recording = _recording(corpus, tmp_path)
    try:
        events = await _collect("What do caspases cleave during apoptosis?", recording, "embedded")
    finally:
        recording.close()
    assert isinstance(events[-1], Done) and events[-1].state == "answered"
    assert len(recording.threads) >= 2  # a search and at least one read
    assert set(recording.threads) == {threading.get_ident()}


async def test_a_real_model_calls_the_corpus_in_a_worker_thread(
    openai_server: ScriptedOpenAIServer, corpus: Corpus, tmp_path: Path
) -> None:
    openai_server.script = [
        {"calls": [("search", {"query": "caspases"})]},
        {"calls": [("read", {"id": "R-HSA-109581"})]},
        {"text": ["Caspases cleave proteins."]},
    ]
    recording = _recording(corpus, tmp_path)
    try:
        await _collect("What do caspases cleave?", recording, "openai:scripted")
    finally:
        recording.close()
    assert len(recording.threads) == 3  # the server's own search first, then the model's two
    assert threading.get_ident() not in recording.threads


async def test_the_tools_run_in_place_only_when_asked(corpus: Corpus, tmp_path: Path) -> None:
    recording = _recording(corpus, tmp_path)
    try:
        for in_thread in (True, False):
            recording.threads.clear()
            search, read = corpus_tools(recording, in_thread=in_thread)
            found = await search.run({"query": "apoptosis", "k": 2})
            await read.run({"id": "R-HSA-109581"})
            assert found.value["results"]
            on_loop = [t == threading.get_ident() for t in recording.threads]
            assert on_loop == [not in_thread, not in_thread]
    finally:
        recording.close()
