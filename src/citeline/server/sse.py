"""Events onto the wire as server-sent events: a streaming response, its keep-alive, its close.

Encoding is ``citeline.events.encode_sse``, the one encoder every consumer shares, unless
a wire profile passes its own (the reactome profile's, ``ReactomeWire.encode``);
this module only hands the bytes to the response, keeps an idle connection alive, and
makes sure that closing the response closes the event stream behind it.

Why Starlette's ``StreamingResponse`` and not sse-starlette's ``EventSourceResponse``:
profiled with py-spy under 300 streams from a real provider, sse-starlette's machinery
was an eighth of the server's CPU; measured alone, it costs 5 us per event (an anyio
cancel scope around every send, for a send timeout citeline does not set) and 26 KB per
open stream (four tasks: body, ping, shutdown watcher, disconnect listener) against
0.4 us and 10 KB for ``StreamingResponse`` (the body and one disconnect listener). The
keep-alive here is a timer, not a task: it wakes once per interval and writes a comment
only when nothing was written for that long. Deliberately not here: what the events say
(``events``), when an answer ends (``answer_stream``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing

from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse
from starlette.types import Send

from citeline.events import Done, Event, encode_sse

# A comment line after 15 s without an event keeps proxies (nginx's default read timeout
# is 60 s) from closing a connection that waits on a slow model; clients ignore comment
# lines, so the events are unchanged.
KEEPALIVE_SECONDS = 15.0
_KEEPALIVE = b": keep-alive\n\n"
# What every event stream's response carries: not cached (an answer is one reader's), and
# not buffered by nginx (X-Accel-Buffering), so each event reaches the reader when written.
_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive"}
MEDIA_TYPE = "text/event-stream"


class EventStreamResponse(StreamingResponse):
    """A ``text/event-stream`` response that writes a keep-alive comment into idle gaps."""

    media_type = MEDIA_TYPE

    def __init__(
        self,
        content: AsyncIterator[bytes],
        status_code: int = 200,
        *,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
        background: BackgroundTask | None = None,
    ) -> None:
        # ``status_code`` is in the signature because FastAPI reads it from there to
        # document a route's response.
        super().__init__(content, status_code, _HEADERS, MEDIA_TYPE, background)
        self._keepalive_seconds = keepalive_seconds

    async def stream_response(self, send: Send) -> None:
        start = {"type": "http.response.start", "status": self.status_code}
        await send({**start, "headers": self.raw_headers})
        keepalive = _Keepalive(send, self._keepalive_seconds)
        try:
            async for chunk in self.body_iterator:
                keepalive.wrote()
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            keepalive.stop()
        await send({"type": "http.response.body", "body": b"", "more_body": False})


class _Keepalive:
    """Writes a comment when ``seconds`` pass without a write, until stopped.

    One timer per stream, re-armed when it fires (not on every write: an event costs one
    clock read). The write runs as a task because a timer callback cannot await; it is
    skipped once the stream has stopped, so nothing is sent after the response's end.
    """

    def __init__(self, send: Send, seconds: float) -> None:
        self._send = send
        self._seconds = seconds
        self._loop = asyncio.get_running_loop()
        self._last = self._loop.time()
        self._stopped = False
        self._writing: asyncio.Task[None] | None = None
        self._timer = self._loop.call_at(self._last + seconds, self._due)

    def wrote(self) -> None:
        self._last = self._loop.time()

    def stop(self) -> None:
        self._stopped = True
        self._timer.cancel()

    def _due(self) -> None:
        now = self._loop.time()
        if now - self._last >= self._seconds and (self._writing is None or self._writing.done()):
            self._last = now
            self._writing = self._loop.create_task(self._write())
        self._timer = self._loop.call_at(self._last + self._seconds, self._due)

    async def _write(self) -> None:
        if self._stopped:
            return
        try:
            await self._send({"type": "http.response.body", "body": _KEEPALIVE, "more_body": True})
        except Exception:
            # The stream's own next write, or the disconnect listener, ends the response.
            self._stopped = True


def event_stream(
    events: AsyncGenerator[Event, None], encode: Callable[[Event], str] = encode_sse
) -> EventStreamResponse:
    """A ``text/event-stream`` response carrying ``events`` as ``encode`` writes them, closed
    with the connection."""

    async def encoded() -> AsyncIterator[bytes]:
        # aclosing: when Starlette closes this generator after a failed send, the event
        # stream behind it must see the close too, or its engine would run on unread.
        async with aclosing(events):
            async for event in events:
                yield encode(event).encode()

    return EventStreamResponse(encoded())


# A refusal is one fixed event, so it is written whole rather than streamed: the same
# bytes on the wire, without the task a streaming response runs. Refusals are the path a
# crawler hammers; measured, this is most of a refusal's cost.
_REFUSAL = encode_sse(Done(state="refused")).encode()
_UNAVAILABLE = encode_sse(Done(state="failed")).encode()


def refusal_stream() -> Response:
    """The whole of a refused request: the single event ``done {"state": "refused"}``."""
    return Response(_REFUSAL, media_type=MEDIA_TYPE, headers={"Cache-Control": "no-store"})


def unavailable_stream() -> Response:
    """The whole of a request that failed before its answer began (a store out of reach):
    the single event ``done {"state": "failed"}``."""
    return Response(_UNAVAILABLE, media_type=MEDIA_TYPE, headers={"Cache-Control": "no-store"})
