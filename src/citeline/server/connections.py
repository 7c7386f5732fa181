"""The bounds every HTTP connection is held to, which uvicorn itself does not keep.

uvicorn (0.54, with httptools) bounds only the idle time between two requests
(``timeout_keep_alive``). Probed from outside, a connection that sent half a request line,
trickled a header byte every 10 s, announced a body and sent it byte by byte, or sent
nothing at all was kept open forever, before any token check: 300 of them took the 256
descriptors of a small server and every fresh request failed. A 95 MB header was read
whole (+184 MB) and answered; six clients that pipelined requests and never read the
answers grew the server from 277 MB to 1,886 MB in 15 s, since each answer in progress asks
the connection for more input (to notice a hang-up) and every request read is queued.

``bounded_protocol`` makes uvicorn's httptools protocol keep, per connection:

- **idle**: a connection with no request in progress (before its first, and between two)
  is closed after ``idle_seconds`` (uvicorn's keep-alive timer, armed at the start too);
  bytes that begin no request (a CRLF) do not restart it;
- **headers**: a request's line and headers must all arrive within ``header_seconds`` of its
  first byte, else 408 and close; their size is counted as it arrives, fed to the parser a
  slice at a time, so a block past ``max_header_bytes`` or ``max_headers`` is answered 431
  and closed before more of it is read (a slice is ``_SLICE`` bytes: the count may include up
  to that much of what came before the request on the same read, never more);
- **body**: once the headers are in, the body must arrive within ``body_seconds``, else the
  connection is closed (the app sees the client leave);
- **sending**: a response the client does not read for ``send_seconds`` (the socket's
  buffer full all that time) closes the connection;
- **pipelining**: while a request is being answered, at most one more is read and queued;
  the bytes after it wait unread, and the socket is not read again until the queue is empty,
  whatever the answer in progress asks;
- **one peer's share**: at most ``per_peer`` open connections from one address; past it a
  new one is answered 503 and closed. Addresses of trusted proxies (``exempt``) are not
  counted: behind a proxy every reader shares its address, and the proxy keeps this bound.

Deliberately not here: what a request may ask (the app's), the body's size (the app's
``max_body_size``), and which proxies are believed for the client's address (``listen``).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import httptools
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

if TYPE_CHECKING:
    from citeline.server.settings import ServerSettings

# The most fed to the parser at once. The header count is checked between slices, so a
# header block is refused within this many bytes of passing its bound, and the byte count
# may include this much of what preceded the request on the same read. Feeding a 64 KiB body
# in 4 KiB slices costs 16 parser calls, a few microseconds.
_SLICE = 4096


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The bounds of one server's connections; ``ServerSettings`` holds their defaults."""

    idle_seconds: float
    header_seconds: float
    body_seconds: float
    send_seconds: float
    max_header_bytes: int
    max_headers: int
    per_peer: int
    # Trusted proxies, as ``CITELINE_FORWARDED_ALLOW_IPS`` names them: "*", or addresses and
    # networks separated by commas. None: no peer is exempt.
    exempt: str | None = None

    @classmethod
    def of(cls, settings: ServerSettings) -> ConnectionLimits:
        """The bounds ``settings`` name; its trusted proxies are exempt from the peer bound."""
        return cls(
            idle_seconds=settings.idle_timeout,
            header_seconds=settings.header_timeout,
            body_seconds=settings.body_timeout,
            send_seconds=settings.send_timeout,
            max_header_bytes=settings.max_header_bytes,
            max_headers=settings.max_headers,
            per_peer=settings.max_connections_per_peer,
            exempt=settings.forwarded_allow_ips,
        )


def bounded_protocol(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """A uvicorn HTTP protocol class that holds every connection to ``limits``.

    Each call makes a class of its own, whose connections share one count per peer: one
    class per server."""

    class Bounded(_BoundedHttpToolsProtocol):
        pass

    Bounded.limits = limits
    Bounded.exempt = _Addresses(limits.exempt)
    Bounded.open_per_peer = Counter()
    return Bounded


class _HeldFlow(FlowControl):
    """uvicorn's flow control, except that reading stays paused while ``held()`` says so: an
    answer in progress resumes reading to notice a hang-up, and on a pipelining connection
    that read, parsed and queued request after request without end."""

    def __init__(self, transport: asyncio.Transport, held: Callable[[], bool]) -> None:
        super().__init__(transport)
        self._held = held

    def resume_reading(self) -> None:
        if not self._held():
            super().resume_reading()


class _BoundedHttpToolsProtocol(HttpToolsProtocol):
    limits: ClassVar[ConnectionLimits]
    exempt: ClassVar[_Addresses]
    open_per_peer: ClassVar[Counter[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._peer: str | None = None
        self._refused = False
        self._deadline: asyncio.TimerHandle | None = None
        self._send_deadline: asyncio.TimerHandle | None = None
        # Which part of a request is arriving: "idle" (none), "headers" or "body".
        self._phase = "idle"
        self._header_bytes = 0
        self._header_count = 0
        # Bytes read but not yet parsed: what followed a queued request.
        self._unread = b""

    # -- the connection ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.flow = _HeldFlow(transport, self._reading_held)
        peer = self.client[0] if self.client else None
        if peer is not None and peer not in self.exempt:
            if self.open_per_peer[peer] >= self.limits.per_peer:
                self._refused = True
                self.logger.warning(
                    "%s already holds %d connections; refused another", peer, self.limits.per_peer
                )
                _answer_and_close(
                    transport,
                    503,
                    "This address holds too many open connections; close some and try again.",
                )
                return
            self.open_per_peer[peer] += 1
            self._peer = peer
        # No request yet: idle, as between two requests.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if self._peer is not None:
            self.open_per_peer[self._peer] -= 1
            if self.open_per_peer[self._peer] <= 0:
                del self.open_per_peer[self._peer]
            self._peer = None
        self._cancel_deadline()
        if self._send_deadline is not None:
            self._send_deadline.cancel()
            self._send_deadline = None
        self._unread = b""
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # Not uvicorn's: its keep-alive timer stops at any byte; here only a request stops it.
        if self._refused or self.parser is None:
            return
        if self._unread:
            self._unread += data
            self.flow.pause_reading()
            return
        self._feed(data)

    def _feed(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if self.pipeline:
                # A request already waits behind the one being answered: read no further.
                # The next request's deadline waits too: it is not the client that is slow.
                self._unread = bytes(view)
                self.flow.pause_reading()
                self._cancel_deadline()
                return
            piece, view = view[:_SLICE], view[_SLICE:]
            try:
                self.parser.feed_data(piece)
            except httptools.HttpParserError:
                msg = "Invalid HTTP request received."
                self.logger.warning(msg)
                self.send_400_response(msg)
                return
            except httptools.HttpParserUpgrade:
                if self._should_upgrade():
                    self.handle_websocket_upgrade()
                else:
                    self._unsupported_upgrade_warning()
                return
            if self._phase == "headers":
                self._header_bytes += len(piece)
            if (
                self._header_bytes > self.limits.max_header_bytes
                or self._header_count > self.limits.max_headers
            ):
                self.logger.warning(
                    "a request's headers passed %d bytes or %d fields; refused",
                    self.limits.max_header_bytes,
                    self.limits.max_headers,
                )
                self._phase = "idle"
                self._cancel_deadline()
                _answer_and_close(
                    self.transport,
                    431,
                    "The request's headers are too large; send fewer or shorter headers.",
                )
                return

    def _reading_held(self) -> bool:
        return bool(self.pipeline) or bool(self._unread)

    # -- the parser's callbacks ----------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._unset_keepalive_if_required()
        self._phase = "headers"
        self._header_bytes = 0
        self._header_count = 0
        self._arm(self.limits.header_seconds, self._headers_too_slow)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._phase = "body"
        self._arm(self.limits.body_seconds, self._body_too_slow)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        # The request is in; the answer's own timeout bounds what comes next.
        self._phase = "idle"
        self._cancel_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._unread and not self.pipeline and not self.transport.is_closing():
            unread, self._unread = self._unread, b""
            # Reading again: a request that was part read when it stopped has its bound anew.
            if self._phase == "headers":
                self._arm(self.limits.header_seconds, self._headers_too_slow)
            elif self._phase == "body":
                self._arm(self.limits.body_seconds, self._body_too_slow)
            self._feed(unread)
        if not self._reading_held():
            self.flow.resume_reading()

    # -- sending -------------------------------------------------------------------------

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_deadline is None:
            self._send_deadline = self.loop.call_later(self.limits.send_seconds, self._not_read)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_deadline is not None:
            self._send_deadline.cancel()
            self._send_deadline = None

    # -- deadlines -----------------------------------------------------------------------

    def _arm(self, seconds: float, handler: Callable[[], None]) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(seconds, handler)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            _answer_and_close(
                self.transport, 408, "The request took too long to arrive; send it again."
            )
        else:
            self.transport.close()

    def _body_too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _not_read(self) -> None:
        self._send_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def _answer_and_close(transport: asyncio.Transport, status: int, message: str) -> None:
    """Write a whole plain-text response and close the connection."""
    if transport.is_closing():
        return
    body = message.encode("ascii")
    reasons = {408: "Request Timeout", 431: "Request Header Fields Too Large"}
    reason = reasons.get(status, "Service Unavailable")
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    transport.write(head.encode("ascii") + body)
    transport.close()


class _Addresses:
    """Addresses and networks as ``CITELINE_FORWARDED_ALLOW_IPS`` names them ("*": all)."""

    def __init__(self, named: str | None) -> None:
        names = [name.strip() for name in (named or "").split(",") if name.strip()]
        self._all = "*" in names
        self._literals: set[str] = set()
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for name in names:
            try:
                self._networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                self._literals.add(name)

    def __contains__(self, address: str) -> bool:
        if self._all or address in self._literals:
            return True
        if not self._networks:
            return False
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(parsed in network for network in self._networks)
