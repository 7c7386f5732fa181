"""``stream_turn``: the tool loop through the adapter, with our own tool types only."""

from __future__ import annotations

from typing import Any

from citeline.models import ChatMessage, ToolReply, ToolSpec, resolve_model, stream_turn
from citeline.models.embedded.model import TOOLS_FAILED
from citeline.models.embedded.tuning import Tuning

SEARCH_K = Tuning().search_k

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": True}
RESULT = {
    "id": "d1",
    "href": "cite:d1",
    "title": "Cell death",
    "passage": "Caspases cleave hundreds of proteins during apoptosis in dying cells.",
}


class Recorder:
    """Tools that answer from canned values and remember how they were called."""

    def __init__(self, *, search_error: str | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.turns: list[tuple[str, ...]] = []
        self.search_error = search_error

    def tools(self) -> list[ToolSpec]:
        async def search(args: dict[str, Any]) -> ToolReply:
            self.calls.append(("search", args))
            if self.search_error:
                return ToolReply(value=None, error=self.search_error)
            return ToolReply({"results": [RESULT]}, metadata={"secret": "never sent"})

        async def read(args: dict[str, Any]) -> ToolReply:
            self.calls.append(("read", args))
            return ToolReply({**RESULT, "text": RESULT["passage"]}, metadata={"secret": "x"})

        return [ToolSpec("search", "s", SCHEMA, search), ToolSpec("read", "r", SCHEMA, read)]


async def _run(recorder: Recorder, question: str, history: tuple[ChatMessage, ...] = ()) -> str:
    fragments = stream_turn(
        resolve_model("embedded"),
        instructions="Answer.",
        question=question,
        history=history,
        tools=recorder.tools(),
        on_request=recorder.turns.append,
    )
    return "".join([fragment async for fragment in fragments])


async def test_the_embedded_model_searches_then_reads_then_writes() -> None:
    recorder = Recorder()
    text = await _run(recorder, "What do caspases cleave?")
    assert recorder.calls == [
        ("search", {"query": "What do caspases cleave?", "k": SEARCH_K}),
        ("read", {"id": "d1"}),
    ]
    assert "Caspases cleave hundreds of proteins" in text and "(cite:d1)" in text


async def test_each_model_request_is_reported_with_what_it_holds() -> None:
    recorder = Recorder()
    await _run(
        recorder,
        "What do caspases cleave?",
        (ChatMessage("user", "hi"), ChatMessage("assistant", "hello")),
    )
    assert recorder.turns == [("text",), ("tool_result",), ("tool_result",)]


async def test_a_reply_with_an_error_reaches_the_model_as_a_failed_result() -> None:
    recorder = Recorder(search_error="search failed: index locked")
    text = await _run(recorder, "What do caspases cleave?")
    assert recorder.calls == [("search", {"query": "What do caspases cleave?", "k": SEARCH_K})]
    assert text == TOOLS_FAILED
