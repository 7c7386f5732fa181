"""Events onto the wire as server-sent events, through sse-starlette.

The only module that touches sse-starlette. Encoding is ``citeline.events.encode_sse``,
the one encoder every consumer shares, unless a wire profile passes its own (the reactome
profile's, ``reactome_wire.encode_reactome_sse``); this module only hands the bytes to the
response and makes sure that closing the response closes the event stream behind it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing

from sse_starlette import EventSourceResponse
from starlette.responses import Response

from citeline.events import Done, Event, encode_sse

# A comment line every 15 s keeps proxies from closing a connection that waits on a slow
# model; clients ignore comment lines, so the events are unchanged.
_KEEPALIVE_SECONDS = 15


def event_stream(
    events: AsyncGenerator[Event, None], encode: Callable[[Event], str] = encode_sse
) -> EventSourceResponse:
    """A ``text/event-stream`` response carrying ``events`` as ``encode`` writes them, closed
    with the connection."""

    async def encoded() -> AsyncIterator[bytes]:
        # aclosing: when Starlette closes this generator after a failed send, the event
        # stream behind it must see the close too, or its engine would run on unread.
        async with aclosing(events):
            async for event in events:
                yield encode(event).encode()

    return EventSourceResponse(encoded(), ping=_KEEPALIVE_SECONDS)


# A refusal is one fixed event, so it is written whole rather than streamed: the same
# bytes on the wire, without the four tasks a streaming response runs. Refusals are the
# path a crawler hammers; measured, this is most of a refusal's cost.
_REFUSAL = encode_sse(Done(state="refused")).encode()
_UNAVAILABLE = encode_sse(Done(state="failed")).encode()


def refusal_stream() -> Response:
    """The whole of a refused request: the single event ``done {"state": "refused"}``."""
    return Response(_REFUSAL, media_type="text/event-stream", headers={"Cache-Control": "no-store"})


def unavailable_stream() -> Response:
    """The whole of a request that failed before its answer began (a store out of reach):
    the single event ``done {"state": "failed"}``."""
    return Response(
        _UNAVAILABLE, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )
