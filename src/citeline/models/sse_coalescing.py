"""Coalescing of an OpenAI-protocol stream: text deltas that arrive together become one.

An OpenAI-compatible server sends one ``data:`` event per token. The provider SDK and
the model library then spend about 200 us of CPU on each event (measured with
``benchmarks/streams.py``), far more than citeline's own work on the text, and that
cost is paid per event whether the events came one per network read or fifty: a
server that falls behind (many readers, a fast local model) pays it for every token
it has queued. ``SSECoalescer`` sits on the response bytes before the SDK parses
them and merges consecutive events that carry only text into one event holding the
joined text. It never waits for more bytes: events are merged only within what one
read delivered, so no token arrives later than it would have.

Only plain text deltas merge (one choice, no role, no tool calls, no finish reason,
no usage); every other event passes through unchanged, in order. A stream whose
events are not separated by blank ``\\n\\n`` lines (``\\r\\n`` framing) passes through
whole. This module does not know what the text says.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pydantic_core

_DATA = b"data: "
_SEPARATOR = b"\n\n"


class SSECoalescer:
    """Feeds response bytes through; what comes out holds the same events, text runs merged."""

    def __init__(self) -> None:
        self._pending = b""
        self._passthrough = False

    def feed(self, data: bytes) -> bytes:
        """The complete events in ``pending + data``, merged; an incomplete last event waits
        for the next read, as the SDK's own parser would make it wait."""
        if self._passthrough:
            return data
        buffer = self._pending + data
        if b"\r" in buffer:
            # Another framing: not worth a second parser, so this stream is left alone.
            self._passthrough = True
            self._pending = b""
            return buffer
        cut = buffer.rfind(_SEPARATOR)
        if cut < 0:
            self._pending = buffer
            return b""
        complete, self._pending = buffer[: cut + 2], buffer[cut + 2 :]
        if complete.count(_SEPARATOR) < 2:
            return complete  # one event: nothing to merge, and no JSON parsed for it
        return coalesce_events(complete)

    def flush(self) -> bytes:
        """Whatever is held at the end of the stream, unchanged."""
        rest, self._pending = self._pending, b""
        return rest


def coalesce_events(complete: bytes) -> bytes:
    """``complete`` (whole events, each ending in a blank line) with runs of text-only
    events merged into their first event."""
    out: list[bytes] = []
    run: dict[str, Any] | None = None
    first = b""
    texts: list[str] = []
    for event in complete.split(_SEPARATOR)[:-1]:
        chunk = _text_chunk(event)
        if chunk is not None and run is not None and _same_stream(run, chunk):
            texts.append(chunk["choices"][0]["delta"]["content"])
            continue
        if run is not None:
            out.append(_encode(run, first, texts))
            run, texts = None, []
        if chunk is None:
            out.append(event + _SEPARATOR)
        else:
            run, first, texts = chunk, event, [chunk["choices"][0]["delta"]["content"]]
    if run is not None:
        out.append(_encode(run, first, texts))
    return b"".join(out)


def _text_chunk(event: bytes) -> dict[str, Any] | None:
    """The event's chunk when it is one ``data:`` line carrying only a text delta."""
    if not event.startswith(_DATA) or b"\n" in event or event == b"data: [DONE]":
        return None
    try:
        # pydantic-core's parser, not the json module's: 1.6 against 5.7 us for a token's
        # chunk (measured), paid for every event of a read that holds more than one.
        chunk = pydantic_core.from_json(event[len(_DATA) :])
    except ValueError:
        return None
    if not isinstance(chunk, dict) or chunk.get("usage") is not None:
        return None
    choices = chunk.get("choices")
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
        return None
    choice = choices[0]
    if choice.get("finish_reason") is not None or choice.get("logprobs") is not None:
        return None
    if set(choice) - {"index", "delta", "finish_reason", "logprobs"}:
        return None
    delta = choice.get("delta")
    if not isinstance(delta, dict) or set(delta) != {"content"}:
        return None
    if not isinstance(delta["content"], str):
        return None
    return chunk


def _same_stream(first: dict[str, Any], chunk: dict[str, Any]) -> bool:
    keep = ("id", "model", "object", "system_fingerprint")
    return all(first.get(key) == chunk.get(key) for key in keep) and (
        first["choices"][0].get("index") == chunk["choices"][0].get("index")
    )


def _encode(chunk: dict[str, Any], first: bytes, texts: list[str]) -> bytes:
    if len(texts) == 1:
        return first + _SEPARATOR  # a run of one goes out as it came
    chunk["choices"][0]["delta"]["content"] = "".join(texts)
    # Compact UTF-8, as the json module's ``ensure_ascii=False`` would write it (0.9 against
    # 5.9 us a chunk, measured); the SDK parses either.
    return _DATA + pydantic_core.to_json(chunk) + _SEPARATOR


class CoalescingTransport(httpx2.AsyncBaseTransport):
    """An HTTP transport whose ``text/event-stream`` responses come through an ``SSECoalescer``;
    every other response, and every request, passes through untouched."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if not response.headers.get("content-type", "").startswith("text/event-stream"):
            return response
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_CoalescedStream(response.stream),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


class _CoalescedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        coalescer = SSECoalescer()
        async for data in self._inner:
            out = coalescer.feed(data)
            if out:
                yield out
        rest = coalescer.flush()
        if rest:
            yield rest

    async def aclose(self) -> None:
        await self._inner.aclose()
