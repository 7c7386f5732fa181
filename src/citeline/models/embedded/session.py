"""The embedded model as a ``ModelSession``: it runs in citeline's tool loop with no library.

The embedded model needs no client, no wire format and no message objects: it reads
a ``TurnView`` (the question, earlier questions, this turn's tool outcomes) and
returns tool requests or text fragments. This session keeps that view and nothing
else, so an embedded answer pays for the model, the tools and the stream pipeline,
while its tool calls go through the same loop, toolbox, citation request and
provenance stamping as a real provider's.

It does not choose what the model writes (``embedded``, ``embedded_data``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Iterable, Iterator, Sequence

from citeline.models.embedded import data as embedded_data
from citeline.models.embedded import model as embedded
from citeline.models.tool_loop import ToolCall
from citeline.models.turn import ChatMessage, Similarity, ToolReply, ToolSpec, TurnContent

# The model writes its whole answer at once, in fragments of 1 to 8 characters as a
# provider streams them; sent one by one, each was an event through the pipeline, the
# server's queue and the wire (about 130 for an answer of 600 characters). Fragments ready
# together are joined up to this many characters, as ``sse_coalescing`` joins a provider's
# deltas that arrive in one read: a few events per answer, still split at places the
# pipeline must handle (an anchor or a quote across two pieces).
PIECE_CHARS = 96


def pieces(fragments: Iterable[str]) -> Iterator[str]:
    """``fragments`` joined in order into pieces of at least ``PIECE_CHARS`` characters
    (the last may be shorter); the text is unchanged."""
    held: list[str] = []
    size = 0
    for fragment in fragments:
        held.append(fragment)
        size += len(fragment)
        if size >= PIECE_CHARS:
            yield "".join(held)
            held.clear()
            size = 0
    if held:
        yield "".join(held)


class EmbeddedSession:
    """One user turn with the embedded model."""

    def __init__(
        self,
        question: str,
        history: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        similarity: Similarity | None = None,
    ) -> None:
        self._question = question
        self._similarity = similarity
        self._earlier = tuple(m.text for m in history if m.role == "user")
        self._tools = frozenset(tool.name for tool in tools)
        self._facts = {tool.name: tool.facts for tool in tools if tool.facts is not None}
        self._outcomes: list[embedded.ToolOutcome] = []
        self._newest: tuple[TurnContent, ...] = ("text",)
        self._requests = 0

    def newest_request(self) -> tuple[TurnContent, ...]:
        return self._newest

    async def respond(self) -> AsyncGenerator[str | ToolCall, None]:
        self._requests += 1
        view = embedded.TurnView(
            question=self._question,
            earlier_questions=self._earlier,
            outcomes=tuple(self._outcomes),
            tools=self._tools,
            facts=self._facts,
            similarity=self._similarity,
            requests=self._requests - 1,
        )
        step = embedded_data.next_step(view) or embedded.next_step(view)
        if isinstance(step, tuple):
            for index, request in enumerate(step):
                yield ToolCall(f"embedded-{self._requests}-{index}", request.tool, request.args)
            return
        for piece in pieces(step):
            yield piece
            # Between pieces the loop runs what else is ready (another answer's search, its
            # first token) before this answer's rest: an answer's text costs the same, but
            # hundreds at once no longer wait behind each other's whole answers.
            await asyncio.sleep(0)

    def add_results(self, results: Sequence[tuple[ToolCall, ToolReply]]) -> None:
        self._newest = tuple("tool_result" for _ in results)
        for call, reply in results:
            failed = reply.error is not None
            content = reply.error if failed else reply.value
            self._outcomes.append(embedded.ToolOutcome(call.name, content, failed))
