"""``search`` and ``read``: the corpus tools, whose results carry the ``corpus`` tag.

Results give the model, for every source, the ``href`` to cite and its title, and
never more text than a bound. Corpus calls are synchronous SQLite, so they run in
a worker thread. These tools do not rank, rewrite or filter: retrieval is the
corpus layer's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citeline.agent.provenance import ProvenanceTag
from citeline.agent.tools import AgentTool, Source, ToolOutput, source_href, text_argument
from citeline.stream.quotes import TrustedText

if TYPE_CHECKING:
    from citeline.corpus import Corpus

DEFAULT_K = 8
MAX_K = 20
# About 3,000 tokens: two reads and a search fit the context of any model we support,
# and an abstract or a documentation page is rarely longer.
READ_CHARS = 12_000


def corpus_tools(corpus: Corpus) -> list[AgentTool]:
    """``search`` and ``read`` over ``corpus``."""

    async def search(args: Mapping[str, Any]) -> ToolOutput:
        query = text_argument(args, "query", expected="a non-empty string")
        k = args.get("k", DEFAULT_K)
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
            raise ValueError(f"k must be a whole number from 1 to {MAX_K}")
        hits = await asyncio.to_thread(corpus.search, query, k)
        results = []
        sources = []
        passages = []
        for hit in hits:
            source = Source(
                href=source_href(hit.doc_id, hit.url),
                display_name=hit.title or hit.doc_id,
                id=hit.doc_id,
                url=hit.url,
            )
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
        if not results:
            value["note"] = (
                "Nothing matched. Try other words, or say that the collection has no answer."
            )
        return ToolOutput(value, tuple(sources), tuple(passages))

    async def read(args: Mapping[str, Any]) -> ToolOutput:
        doc_id = text_argument(args, "id", expected="a non-empty string")
        document = await asyncio.to_thread(corpus.get, doc_id)
        if document is None:
            raise LookupError(f"no document has id {doc_id!r}; use an id from the search results")
        source = Source(
            href=source_href(document.id, document.url),
            display_name=document.title or document.id,
            id=document.id,
            url=document.url,
        )
        value = {
            "id": document.id,
            "href": source.href,
            "title": source.display_name,
            "text": document.text[:READ_CHARS],
            "truncated": len(document.text) > READ_CHARS,
        }
        read_text = TrustedText(
            "document", document.id, source.display_name, document.text[:READ_CHARS]
        )
        return ToolOutput(value, (source,), (read_text,))

    return [
        AgentTool(
            name="search",
            description=(
                "Search the collection. Returns the best passages, each with the document's "
                "id, title and the href to cite."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for."},
                    "k": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_K,
                        "description": f"How many passages (default {DEFAULT_K}).",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            provenance=ProvenanceTag.CORPUS,
            run=search,
        ),
        AgentTool(
            name="read",
            description=(
                "Read one document of the collection by its id (from search results). "
                "Returns its title, text and the href to cite."
            ),
            parameters={
                "type": "object",
                "properties": {"id": {"type": "string", "description": "The document's id."}},
                "required": ["id"],
                "additionalProperties": False,
            },
            provenance=ProvenanceTag.CORPUS,
            run=read,
        ),
    ]
