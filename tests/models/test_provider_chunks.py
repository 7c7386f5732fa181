"""Streamed chat chunks parsed by pydantic-core: the same objects the SDK built, however odd."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionChunk

from citeline.models import resolve_model
from citeline.models.provider_chunks import ChunkValidatingOpenAI
from citeline.models.pydantic_ai_adapter import _build_model


def _sse(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + (
        b"data: [DONE]\n\n"
    )


def _chunk(delta: dict[str, Any], finish: Any = None, **extra: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }


async def _read(client_class: type[AsyncOpenAI], body: bytes) -> list[ChatCompletionChunk]:
    """Every chunk ``client_class`` makes of ``body``, served as an event stream."""

    def reply(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http = httpx2.AsyncClient(transport=httpx2.MockTransport(reply))
    client = client_class(base_url="http://upstream.test/v1", api_key="-", http_client=http)
    messages: Any = [{"role": "user", "content": "q"}]
    stream = await client.chat.completions.create(model="m", messages=messages, stream=True)
    return [chunk async for chunk in stream]


async def _both(chunks: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    body = _sse(chunks)
    return await _read(AsyncOpenAI, body), await _read(ChunkValidatingOpenAI, body)


def _same(ours: list[Any], sdks: list[Any]) -> None:
    assert [type(c) for c in ours] == [type(c) for c in sdks]
    assert [c.model_dump() for c in ours] == [c.model_dump() for c in sdks]
    assert [c.model_fields_set for c in ours] == [c.model_fields_set for c in sdks]


async def test_a_streamed_answer_parses_to_the_chunks_the_sdk_builds() -> None:
    call = {"index": 0, "id": "call_0", "type": "function"}
    call["function"] = {"name": "search", "arguments": '{"query": "caspase"}'}
    usage = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    sdks, ours = await _both(
        [
            _chunk({"role": "assistant", "content": ""}),
            _chunk({"content": "Caspases cleave."}),
            _chunk({"tool_calls": [call]}),
            _chunk({}, "tool_calls", system_fingerprint="fp"),
            {**_chunk({}), "choices": [], "usage": usage},
        ]
    )
    _same(ours, sdks)
    assert ours[1].choices[0].delta.content == "Caspases cleave."
    assert ours[4].usage is not None and ours[4].usage.total_tokens == 12


async def test_a_chunk_outside_the_sdks_types_still_parses_as_the_sdk_parsed_it() -> None:
    # Seen from OpenAI-compatible servers: a finish reason of their own, a role the SDK's
    # types do not list, a field the SDK does not know, a missing ``created``.
    odd = _chunk({"role": "model", "content": "x"}, "eos", vendor_field={"a": 1})
    del odd["created"]
    sdks, ours = await _both([odd, _chunk({"content": "y"}, finish=7)])
    _same(ours, sdks)
    assert ours[0].choices[0].finish_reason == "eos"
    assert ours[0].model_extra == {"vendor_field": {"a": 1}}


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_finish = st.sampled_from([None, "stop", "length", "tool_calls", "content_filter", "eos", ""])
_role = st.sampled_from([None, "assistant", "user", "tool", "model"])


@st.composite
def _chunks(draw: st.DrawFn) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if (role := draw(_role)) is not None:
        delta["role"] = role
    if draw(st.booleans()):
        delta["content"] = draw(st.none() | _text)
    return _chunk(delta, draw(_finish))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks=st.lists(_chunks(), min_size=1, max_size=6))
def test_any_chunk_in_or_out_of_the_sdks_types_parses_as_the_sdk_parsed_it(
    chunks: list[dict[str, Any]],
) -> None:
    import asyncio

    sdks, ours = asyncio.run(_both(chunks))
    _same(ours, sdks)


@pytest.mark.parametrize("spec", ["openai:qwen2.5", "ollama:qwen2.5"])
def test_the_openai_protocol_providers_stream_through_the_validating_client(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Through the library's own provider construction, so a pydantic-ai that stops building
    # its client through the hook this relies on fails here rather than silently slows.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model: Any = _build_model(resolve_model(spec))
    client = model.client
    assert isinstance(client, ChunkValidatingOpenAI)
    assert str(client.base_url) == "http://127.0.0.1:9/v1/"
    assert client.api_key == "api-key-not-set"  # the library's own rule for a keyless server
