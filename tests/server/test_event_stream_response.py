"""The event-stream response: the events' bytes in order, a keep-alive comment only in an
idle gap, nothing after the end, and a closed stream behind a hang-up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.types import Message

from citeline.server.sse import EventStreamResponse

_SCOPE = {"type": "http", "method": "POST", "asgi": {"spec_version": "2.3"}, "headers": []}


async def _run(body: AsyncIterator[bytes], keepalive: float) -> list[Message]:
    sent: list[Message] = []
    never = asyncio.Event()

    async def receive() -> Message:
        await never.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await EventStreamResponse(body, keepalive_seconds=keepalive)(_SCOPE, receive, send)
    return sent


def _bodies(sent: list[Message]) -> list[bytes]:
    return [m["body"] for m in sent if m["type"] == "http.response.body"]


async def test_events_back_to_back_are_written_as_they_are_with_no_keepalive() -> None:
    async def events() -> AsyncIterator[bytes]:
        for n in range(50):
            yield f"event: token\ndata: {n}\n\n".encode()

    sent = await _run(events(), keepalive=0.05)
    assert sent[0]["type"] == "http.response.start"
    assert dict(sent[0]["headers"])[b"content-type"].startswith(b"text/event-stream")
    assert dict(sent[0]["headers"])[b"cache-control"] == b"no-store"
    assert _bodies(sent) == [f"event: token\ndata: {n}\n\n".encode() for n in range(50)] + [b""]
    assert sent[-1]["more_body"] is False


async def test_a_slow_model_gets_keepalive_comments_in_its_silence_and_none_after_the_end() -> None:
    async def events() -> AsyncIterator[bytes]:
        yield b"event: start\ndata: {}\n\n"
        await asyncio.sleep(0.5)  # ten keep-alive intervals of silence
        yield b"event: done\ndata: {}\n\n"

    sent = await _run(events(), keepalive=0.05)
    bodies = _bodies(sent)
    assert bodies[0] == b"event: start\ndata: {}\n\n"
    assert bodies[-2:] == [b"event: done\ndata: {}\n\n", b""]
    gap = bodies[1:-2]
    assert 3 <= len(gap) <= 11
    assert set(gap) == {b": keep-alive\n\n"}
    await asyncio.sleep(0.2)
    assert len(sent) == len(bodies) + 1  # nothing written after more_body=False


async def test_a_hang_up_closes_the_event_stream_behind_the_response() -> None:
    closed = asyncio.Event()

    async def events() -> AsyncIterator[bytes]:
        try:
            yield b"event: start\ndata: {}\n\n"
            await asyncio.sleep(30)
            yield b"never"
        finally:
            closed.set()

    hang_up = asyncio.Event()

    async def receive() -> Message:
        await hang_up.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        if message.get("body"):
            hang_up.set()

    await asyncio.wait_for(EventStreamResponse(events())(_SCOPE, receive, send), 5)
    assert closed.is_set()
