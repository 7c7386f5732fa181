"""A long document is read a page at a time: each read says where the next page starts, and
a read from there gives the rest, so a model can read a section whole, to a bound it keeps;
the embedded model stops in time to answer within the turn's requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline import answer
from citeline.agent.corpus_tools import READ_CHARS, corpus_tools
from citeline.corpus import Corpus
from citeline.events import Done
from citeline.models import resolve_model


async def test_a_long_documents_pages_join_into_its_whole_text(tmp_path: Path) -> None:
    text = " ".join(f"Sentence {n} of a long reference section." for n in range(1_200))
    (tmp_path / "long.md").write_text(f"# Long\n\n{text}\n", "utf-8")
    with Corpus.open(tmp_path / "index.db") as corpus:
        corpus.ingest(tmp_path / "long.md")
        whole = corpus.get("long")
        assert whole is not None and len(whole.text) > 2 * READ_CHARS
        read = corpus_tools(corpus, in_thread=False)[1]
        pages: list[str] = []
        offset: int | None = 0
        while offset is not None:
            value = (await read.run({"id": "long", "offset": offset})).value
            assert isinstance(value, dict)
            pages.append(value["text"])
            assert value["truncated"] == ("next_offset" in value)
            offset = value.get("next_offset")
        assert "".join(pages) == whole.text
        assert len(pages) == -(-len(whole.text) // READ_CHARS)


async def test_a_read_from_a_negative_offset_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nText.\n", "utf-8")
    with Corpus.open(tmp_path / "index.db") as corpus:
        corpus.ingest(tmp_path / "a.md")
        read = corpus_tools(corpus, in_thread=False)[1]
        with pytest.raises(ValueError, match="offset must be a whole number from 0"):
            await read.run({"id": "a", "offset": -1})
        past = (await read.run({"id": "a", "offset": 10_000})).value
        assert isinstance(past, dict) and past["text"] == "" and not past["truncated"]


async def test_a_section_longer_than_the_turns_requests_can_page_through_is_still_answered(
    tmp_path: Path,
) -> None:
    # Thirty pages of one section: more than the tool loop lets one turn request, so the
    # embedded model must stop reading in time and answer from the pages it has.
    filler = " ".join(f"Requirement {n} of the storage engine holds." for n in range(9_000))
    (tmp_path / "long.md").write_text(f"# Requirements\n\n{filler}\n", "utf-8")
    with Corpus.open(tmp_path / "index.db") as corpus:
        corpus.ingest(tmp_path / "long.md")
        assert len(corpus.get("long").text) > 25 * READ_CHARS  # type: ignore[union-attr]
        events = [
            event
            async for event in answer(
                "Which requirement does the storage engine hold?",
                corpus=corpus,
                model=resolve_model("embedded"),
            )
        ]
    done = events[-1]
    assert isinstance(done, Done) and done.state == "answered"


async def _answered(corpus: Corpus, question: str) -> tuple[str, Done]:
    events = [
        event async for event in answer(question, corpus=corpus, model=resolve_model("embedded"))
    ]
    done = events[-1]
    assert isinstance(done, Done)
    return "".join(getattr(event, "text", "") for event in events), done


async def test_a_sentence_twelve_pages_into_a_section_is_read_and_quoted(tmp_path: Path) -> None:
    # Page by page, the turn's requests ended reading near ten pages: this sentence was
    # never read.
    filler = " ".join(f"Requirement {n} of the storage engine holds." for n in range(3_600))
    answer_sentence = "The journal mode WAL lets readers run beside one writer."
    (tmp_path / "long.md").write_text(f"# Engine\n\n{filler}\n\n{answer_sentence}\n", "utf-8")
    with Corpus.open(tmp_path / "index.db") as corpus:
        corpus.ingest(tmp_path / "long.md")
        text = corpus.get("long").text  # type: ignore[union-attr]
        assert text.index(answer_sentence) > 12 * READ_CHARS
        question = "Which journal mode lets readers run beside a writer?"
        prose, done = await _answered(corpus, question)
    assert done.state == "answered"
    assert "journal mode WAL" in prose
