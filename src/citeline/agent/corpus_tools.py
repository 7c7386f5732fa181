"""``search`` and ``read``: the corpus tools, whose results carry the ``corpus`` tag.

Results give the model, for every source, the ``href`` to cite and its title, and never more
text than a bound. Corpus calls are synchronous (SQLite, or a PostgreSQL round trip), so
they run in a worker thread, unless the caller asks them run in place (``in_thread=False``:
the embedded model over a local file, whose answer is this process's CPU either way, and for
which the hand-off cost more than the search). Each tool's arguments are one pydantic model
(its schema and its check); its description is ``prompts/search-tool.md`` or
``prompts/read-tool.md``. These tools do not rank, rewrite or filter: retrieval is the
corpus layer's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

from pydantic import Field

from citeline.agent.context_budget import ContextBudget
from citeline.agent.prompts import load_prompt
from citeline.agent.provenance import ProvenanceTag
from citeline.agent.tool_arguments import (
    Expect,
    Text,
    ToolArguments,
    arguments_schema,
    parse_arguments,
)
from citeline.agent.tools import AgentTool, Source, ToolOutput, source_href
from citeline.stream.quotes import TrustedText
from citeline.text.stop_words import QUESTION_WORDS

if TYPE_CHECKING:
    from citeline.corpus import Corpus, Document, Hit

_P = ParamSpec("_P")
_T = TypeVar("_T")

DEFAULT_K = 8
MAX_K = 20
# About 3,000 tokens a read: two reads and a search fit the context of any model we support,
# and an abstract or a documentation section is rarely longer. A longer one is read on from
# ``next_offset``, page by page, as the model chooses (an API reference's one section runs
# to 90 KB, and its answer can be anywhere in it).
READ_CHARS = 12_000


class SearchArguments(ToolArguments):
    """What ``search`` takes."""

    query: Annotated[Text, Field(description="What to look for."), Expect("a non-empty string")]
    # Strict: "5" or true is a model's mistake to be told about, not guessed at.
    k: Annotated[
        int,
        Field(strict=True, ge=1, le=MAX_K, description=f"How many passages (default {DEFAULT_K})."),
        Expect(f"a whole number from 1 to {MAX_K}"),
    ] = DEFAULT_K


class ReadArguments(ToolArguments):
    """What ``read`` takes."""

    id: Annotated[Text, Field(description="The document's id."), Expect("a non-empty string")]
    offset: Annotated[
        int,
        Field(
            strict=True,
            ge=0,
            description="Where to start reading, in characters (default 0; a truncated read "
            "gives the next_offset to go on from).",
        ),
        Expect("a whole number from 0"),
    ] = 0


def corpus_tools(
    corpus: Corpus, *, in_thread: bool = True, budget: ContextBudget | None = None
) -> list[AgentTool]:
    """``search`` and ``read`` over ``corpus``; with ``in_thread=False`` the corpus is called
    on the event loop's own thread, which it then holds for the call. With ``budget`` the
    text they give the model is bounded (``context_budget``): a search's passages
    nearest-first while they fit, a read's document cut to what is left."""
    run: Callable[..., Awaitable[Any]] = asyncio.to_thread if in_thread else _in_place

    async def search(args: Mapping[str, Any]) -> ToolOutput:
        arguments = parse_arguments(SearchArguments, args)
        hits, unheld = await run(_searched, corpus, arguments.query, arguments.k)
        return _search_output(arguments.query, hits, budget, unheld)

    async def read(args: Mapping[str, Any]) -> ToolOutput:
        arguments = parse_arguments(ReadArguments, args)
        doc_id, offset = arguments.id, arguments.offset
        document: Document | None = await run(corpus.get, doc_id)
        if document is None:
            raise LookupError(f"no document has id {doc_id!r}; use an id from the search results")
        return _read_output(document, offset, budget)

    return [
        AgentTool(
            name="search",
            description=load_prompt("search-tool"),
            parameters=arguments_schema(SearchArguments),
            provenance=ProvenanceTag.CORPUS,
            run=search,
        ),
        AgentTool(
            name="read",
            description=load_prompt("read-tool"),
            parameters=arguments_schema(ReadArguments),
            provenance=ProvenanceTag.CORPUS,
            run=read,
        ),
    ]


def _source(doc_id: str, title: str | None, url: str | None) -> Source:
    return Source(href=source_href(doc_id, url), display_name=title or doc_id, id=doc_id, url=url)


def _searched(corpus: Corpus, query: str, k: int) -> tuple[list[Hit], list[str]]:
    """A search's hits and the query's words the collection never writes, but those that
    only make it a question ("how", "do", "I": a small collection may never write them), in
    one call (one hand-off to a worker thread)."""
    hits = corpus.search(query, k)
    return hits, [word for word in corpus.unheld_words(query) if word not in QUESTION_WORDS]


def _search_output(
    query: str, hits: Sequence[Hit], budget: ContextBudget | None, unheld: Sequence[str] = ()
) -> ToolOutput:
    """What a search gives the model (its hits' passages, nearest first while they fit the
    budget, and the query's words no document holds) and the sources and passages it
    returned."""
    results: list[dict[str, Any]] = []
    sources = []
    passages = []
    left_out = 0
    for hit in hits:
        if budget is not None and not budget.fits(hit.text):
            # Nearest-first: a later passage that would fit is not worth a gap in rank.
            left_out = len(hits) - len(results)
            break
        source = _source(hit.doc_id, hit.title, hit.url)
        sources.append(source)
        passages.append(TrustedText("document", hit.doc_id, source.display_name, hit.text))
        results.append(
            {
                "id": hit.doc_id,
                "href": source.href,
                "title": source.display_name,
                "passage": hit.text,
            }
        )
    value: dict[str, Any] = {"query": query, "results": results}
    if unheld:
        # What the question asks that the collection never writes (another product's name,
        # most often): a model, the embedded one included, can say the collection has no
        # answer instead of answering from a result that shares the question's other words.
        value["not_in_collection"] = list(unheld)
    if left_out:
        value["note"] = f"{left_out} further results left out to fit the context."
    elif not results:
        value["note"] = (
            "Nothing matched. Try other words, or say that the collection has no answer."
        )
    return ToolOutput(value, tuple(sources), tuple(passages))


def _read_output(document: Document, offset: int, budget: ContextBudget | None) -> ToolOutput:
    """What a read gives the model: the document's text from ``offset``, cut to
    ``READ_CHARS`` and to what is left of the budget, with where the next page starts when
    there is more."""
    source = _source(document.id, document.title, document.url)
    page = document.text[offset : offset + READ_CHARS]
    if budget is not None:
        page = budget.cut(page)
    end = offset + len(page)
    truncated = len(document.text) > end
    value: dict[str, Any] = {
        "id": document.id,
        "href": source.href,
        "title": source.display_name,
        "text": page,
        "truncated": truncated,
    }
    if offset:
        value["offset"] = offset
    if truncated and page:
        value["next_offset"] = end
    read_text = TrustedText("document", document.id, source.display_name, page)
    return ToolOutput(value, (source,), (read_text,))


async def _in_place(call: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    # Measured on the bundled sample (2 shared cores), a worker-thread hand-off (the
    # executor's queue, the thread's wake-up, the GIL handed over and back, the loop's
    # wake-up) cost more CPU than the search it carried: 0.6 to 1.0 ms of an embedded
    # answer's 3.5 ms before its first token went to the three hand-offs (search, two reads).
    return call(*args, **kwargs)
