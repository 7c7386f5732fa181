"""The citation cap and the quote verdicts, through ``answer`` against the scripted
OpenAI-protocol server: twenty real sources read and cited, a cap, and every quote block's
verdict on ``done`` and in the answer's log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citeline.agent import answer
from citeline.corpus import Corpus
from citeline.events import Citation, Done, Event, QuoteVerdict, Token

ScriptedOpenAIServer = Any  # tests/support/openai_stub.py, as the openai_server fixture gives it
IDS = [f"DOC-{n}" for n in range(1, 21)]


@pytest.fixture
def twenty(tmp_path: Path) -> Iterator[Corpus]:
    """A real index of twenty documents, each its own source."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for n, doc_id in enumerate(IDS, start=1):
        (folder / f"doc{n}.md").write_text(
            f"---\nid: {doc_id}\ntitle: Document {n}\n---\n# Document {n}\n\n"
            f"Document {n} describes pathway number {n} of the collection in one sentence.\n",
            encoding="utf-8",
        )
    index = Corpus.open(tmp_path / "index.db")
    index.ingest(folder)
    try:
        yield index
    finally:
        index.close()


def script_citing_all(server: ScriptedOpenAIServer, tail: str = "") -> None:
    # Read in two responses: one may make 16 tool calls (models/tool_loop.py).
    server.script = [
        {"calls": [("read", {"id": doc_id}) for doc_id in IDS[:10]]},
        {"calls": [("read", {"id": doc_id}) for doc_id in IDS[10:]]},
        {"text": [" ".join(f"[Document {n}](cite:{d})" for n, d in enumerate(IDS, 1)) + tail]},
    ]


async def collect(corpus: Corpus, **kwargs: Any) -> list[Event]:
    return [
        event
        async for event in answer("What do the documents say?", corpus=corpus,
                                  model="openai:scripted", **kwargs)
    ]  # fmt: skip


def citations(events: list[Event]) -> list[Citation]:
    return [event for event in events if isinstance(event, Citation)]


def done(events: list[Event]) -> Done:
    last = events[-1]
    assert isinstance(last, Done)
    return last


async def test_an_answer_citing_twenty_sources_carries_twelve_citations_and_counts_eight(
    openai_server: ScriptedOpenAIServer, twenty: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITELINE_MAX_CITATIONS", raising=False)
    script_citing_all(openai_server)
    events = await collect(twenty)

    cited = citations(events)
    assert [citation.id for citation in cited] == IDS[:12]
    assert [citation.n for citation in cited] == list(range(1, 13))
    assert done(events).dropped_anchors == 8
    # The text of every link stays in the prose, cited or not.
    text = "".join(event.text for event in events if isinstance(event, Token))
    assert text == " ".join(f"Document {n}" for n in range(1, 21))


async def test_citeline_max_citations_sets_the_cap(
    openai_server: ScriptedOpenAIServer, twenty: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITELINE_MAX_CITATIONS", "3")
    script_citing_all(openai_server)
    events = await collect(twenty)
    assert len(citations(events)) == 3
    assert done(events).dropped_anchors == 17


async def test_a_bad_citeline_max_citations_is_refused_with_the_fix(
    twenty: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITELINE_MAX_CITATIONS", "none")
    with pytest.raises(ValueError, match="CITELINE_MAX_CITATIONS='none' cannot be used"):
        await collect(twenty)


async def test_a_verified_quote_past_the_cap_is_dropped_and_counted(
    openai_server: ScriptedOpenAIServer, twenty: Corpus
) -> None:
    quote = "\n<citation>\n> Document 1 describes pathway number 1 of the collection\n</citation>\n"
    script_citing_all(openai_server, tail=quote)
    events = await collect(twenty, max_citations=20)
    assert len(citations(events)) == 20
    assert done(events).dropped_anchors == 1
    assert done(events).verdicts == (
        QuoteVerdict(
            "Document 1 describes pathway number 1 of the collection", "verified", None, "DOC-1"
        ),
    )


async def test_every_quote_block_has_a_verdict_on_done_and_in_the_answers_log(
    openai_server: ScriptedOpenAIServer, twenty: Corpus, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.agent.engine")
    openai_server.script = [
        {"calls": [("read", {"id": "DOC-2"})]},
        {
            "text": [
                "Two.\n<Citation>\n> Document 2 describes pathway number 2\n</Citation>\n",
                "<citation>\n> Document 2 describes a pathway nobody curated\n</citation>\n",
                "<citation>\nno quote line at all\n</citation>\nEnd.",
            ]
        },
    ]
    events = await collect(twenty)

    expected = (
        QuoteVerdict("Document 2 describes pathway number 2", "verified", None, "DOC-2"),
        QuoteVerdict("Document 2 describes a pathway nobody curated", "rejected", "not_found"),
        QuoteVerdict("", "malformed", "no_quote"),
    )
    assert done(events).verdicts == expected
    (record,) = [r for r in caplog.records if hasattr(r, "verdicts")]
    assert record.verdicts == [verdict.as_dict() for verdict in expected]
    assert "nobody curated" not in "".join(e.text for e in events if isinstance(e, Token))
    # The verdicts stay in process: a client's done event does not carry them.
    assert "verdicts" not in done(events).payload()
