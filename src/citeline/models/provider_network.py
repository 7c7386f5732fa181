"""The network under a real provider's HTTP client: asyncio's own sockets, for httpcore2.

httpcore2 (under httpx2, under the provider SDKs) reads its sockets through AnyIO by
default and arms an AnyIO timeout scope around every read. Profiled with py-spy under
300 streamed answers, that scope (``anyio.fail_after``, with the backend lookup it does
each time) was 15 % of the server's CPU, more than the SDK's parsing of the chunk the
read delivered; measured alone, 11 us a read against 0.7 us for a timer on the read's
future. ``AsyncioBackend`` is httpcore2's network-backend interface over an asyncio
protocol: a read waits on one future, and its timeout is a timer that fails that future
(no cancellation involved). A read takes everything already received, up to its size:
tokens that arrived while the loop was busy reach the SSE coalescer together.

Same contract as httpcore2's AnyIO backend: the same errors (``ConnectError``,
``ConnectTimeout``, ``ReadError``, ``ReadTimeout``, ``WriteError``, ``WriteTimeout``), TLS
by ``loop.start_tls``, socket options, Unix sockets, and an idle pooled connection that
has received data or its end reads as readable, so the pool does not reuse it. Received
bytes are bounded (reading pauses past ``READ_BUFFER_LIMIT``). It does not speak HTTP
(httpcore2's h11 does), retry, or pick among a host's addresses concurrently.
"""

from __future__ import annotations

import asyncio
import select
import ssl
from collections import deque
from collections.abc import Iterable
from typing import Any, cast

import httpcore2
import httpx2

# Bytes a connection holds unread before it stops reading the socket (the kernel's buffer
# and then the peer wait instead): a slow reader costs at most this much memory. 64 KB is
# httpcore2's own read size, so one read can still take all of it.
READ_BUFFER_LIMIT = 64 * 1024

SocketOption = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)


class _Receiver(asyncio.Protocol):
    """What a connection has received, and the one read waiting for more."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.chunks: deque[bytes] = deque()
        self.buffered = 0
        self.ended = False
        self.error: Exception | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.paused_reading = False
        self.paused_writing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A cast, not an isinstance check: uvloop's transports do not subclass asyncio's.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)
        self.buffered += len(data)
        if self.buffered > READ_BUFFER_LIMIT and not self.paused_reading and self.transport:
            self.paused_reading = True
            self.transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool:
        self.ended = True
        self._wake()
        return False  # nothing more to send once the peer is done: close

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.error = exc
        self._wake()
        self.resume_writing()

    def pause_writing(self) -> None:
        self.paused_writing = True

    def resume_writing(self) -> None:
        self.paused_writing = False
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def take(self, max_bytes: int) -> bytes:
        """Everything received so far, up to ``max_bytes``."""
        first = self.chunks.popleft()
        if len(first) > max_bytes:
            self.chunks.appendleft(first[max_bytes:])
            first = first[:max_bytes]
        elif self.chunks and len(first) < max_bytes:
            parts = [first]
            size = len(first)
            while self.chunks and size + len(self.chunks[0]) <= max_bytes:
                chunk = self.chunks.popleft()
                parts.append(chunk)
                size += len(chunk)
            first = b"".join(parts)
        self.buffered -= len(first)
        if self.paused_reading and self.buffered <= READ_BUFFER_LIMIT and self.transport:
            self.paused_reading = False
            self.transport.resume_reading()
        return first

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


def _expire(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


async def _within(
    future: asyncio.Future[None], timeout: float | None, late: type[Exception], message: str
) -> None:
    """Wait for ``future``, raising ``late(message)`` if ``timeout`` seconds pass first: a
    timer that fails the future, not a cancel scope (nothing is built per read but the
    timer)."""
    timer = (
        None if timeout is None else asyncio.get_running_loop().call_later(timeout, _expire, future)
    )
    try:
        await future
    except TimeoutError:
        raise late(message) from None
    finally:
        if timer is not None:
            timer.cancel()


class AsyncioStream(httpcore2.AsyncNetworkStream):
    """One connection (plain or TLS) as httpcore2 reads and writes it."""

    def __init__(self, transport: asyncio.Transport, receiver: _Receiver) -> None:
        self._transport = transport
        self._receiver = receiver
        self._loop = asyncio.get_running_loop()

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        receiver = self._receiver
        if not receiver.chunks and not receiver.ended:
            receiver.waiter = self._loop.create_future()
            try:
                await _within(
                    receiver.waiter, timeout, httpcore2.ReadTimeout, "The read timed out."
                )
            finally:
                receiver.waiter = None
        if receiver.chunks:
            return receiver.take(max_bytes)
        if receiver.error is not None:
            raise httpcore2.ReadError(str(receiver.error) or type(receiver.error).__name__)
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        receiver = self._receiver
        if self._transport.is_closing():
            raise httpcore2.WriteError("The connection is closed.")
        self._transport.write(buffer)
        if not receiver.paused_writing:
            return
        receiver.drained = self._loop.create_future()
        try:
            await _within(receiver.drained, timeout, httpcore2.WriteTimeout, "The write timed out.")
        finally:
            receiver.drained = None
        if receiver.error is not None:
            raise httpcore2.WriteError(str(receiver.error) or type(receiver.error).__name__)

    async def aclose(self) -> None:
        self._transport.close()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                transport = await self._loop.start_tls(
                    self._transport, self._receiver, ssl_context, server_hostname=server_hostname
                )
        except TimeoutError:
            self._transport.close()
            raise httpcore2.ConnectTimeout("The TLS handshake timed out.") from None
        except (OSError, ssl.SSLError) as error:
            self._transport.close()
            raise httpcore2.ConnectError(str(error)) from error
        if transport is None:  # the connection closed during the handshake
            raise httpcore2.ConnectError("The connection closed during the TLS handshake.")
        self._receiver.transport = transport
        return AsyncioStream(transport, self._receiver)

    def get_extra_info(self, info: str) -> Any:
        if info == "ssl_object":
            return self._transport.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._transport.get_extra_info("sockname")
        if info == "server_addr":
            return self._transport.get_extra_info("peername")
        if info == "socket":
            return self._transport.get_extra_info("socket")
        if info == "is_readable":
            # The loop reads eagerly, so what arrived is usually in the receiver already.
            receiver = self._receiver
            if receiver.chunks or receiver.ended:
                return True
            return _readable(self._transport.get_extra_info("socket"))
        return None


class AsyncioBackend(httpcore2.AsyncNetworkBackend):
    """httpcore2's network backend on asyncio's transports and protocols."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        local = None if local_address is None else (local_address, 0)
        try:
            async with asyncio.timeout(timeout):
                transport, receiver = await loop.create_connection(
                    _Receiver, host, port, local_addr=local
                )
        except TimeoutError:
            raise httpcore2.ConnectTimeout(f"Connecting to {host}:{port} timed out.") from None
        except OSError as error:
            raise httpcore2.ConnectError(str(error)) from error
        return _opened(transport, receiver, socket_options)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport, receiver = await loop.create_unix_connection(_Receiver, path)
        except TimeoutError:
            raise httpcore2.ConnectTimeout(f"Connecting to {path} timed out.") from None
        except OSError as error:
            raise httpcore2.ConnectError(str(error)) from error
        return _opened(transport, receiver, socket_options)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def _opened(
    transport: asyncio.BaseTransport,
    receiver: _Receiver,
    socket_options: Iterable[SocketOption] | None,
) -> AsyncioStream:
    sock = transport.get_extra_info("socket")
    for option in socket_options or ():
        sock.setsockopt(*option)
    return AsyncioStream(cast(asyncio.Transport, transport), receiver)


def _readable(sock: Any) -> bool:
    """Whether a read of ``sock`` would return at once (a closed socket counts)."""
    fileno = -1 if sock is None else sock.fileno()
    if fileno < 0:
        return True
    if hasattr(select, "poll"):  # select.select cannot watch descriptors past 1,023
        poller = select.poll()
        poller.register(fileno, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fileno], [], [], 0)[0])


def provider_transport(limits: httpx2.Limits) -> httpx2.AsyncHTTPTransport:
    """httpx2's transport with its connection pool on ``AsyncioBackend``.

    httpx2's transport takes no network backend, so its pool is rebuilt here the way it
    builds it (HTTP/1.1, its default TLS context) with the backend named; a test fails
    if httpx2 stops keeping its pool where this puts it.
    """
    transport = httpx2.AsyncHTTPTransport(limits=limits)
    if not isinstance(getattr(transport, "_pool", None), httpcore2.AsyncConnectionPool):
        raise RuntimeError(
            "httpx2's transport no longer keeps its pool in _pool; see provider_network"
        )
    transport._pool = httpcore2.AsyncConnectionPool(
        ssl_context=httpx2.create_ssl_context(),
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
        network_backend=AsyncioBackend(),
    )
    return transport
