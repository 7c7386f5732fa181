"""Slow and greedy connections, each beside an honest one (issue 29, items 1, 2 and 7).

Probed from outside, the server kept forever a connection that sent half a request line,
trickled its headers, sent its body a byte at a time or sent nothing; read a 95 MB header
whole; and read, parsed and queued pipelined requests without end while their answers went
unread. Each test here is one of those clients against a live server whose bounds are set
short, so that it ends in about a second.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from tests.support.app_servers import Served, live_server
from tests.support.engine_doubles import CountingEngine

from citeline.agent import Profile
from citeline.events import Done, Event, Start, Token
from citeline.server import AnswerEngine, ServerSettings, create_app
from citeline.server.store import ConversationMessage

# Short bounds, so a test waits about a second for each.
SHORT = {
    "idle_timeout": 1,
    "header_timeout": 1.0,
    "body_timeout": 1.0,
    "open": True,
}


@pytest.fixture
def serve_live(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """``serve_live(engine, **settings)``: a live server in open mode on one SQLite file (the
    connection bounds do not depend on the backend)."""
    with ExitStack() as stack:

        def start(engine: AnswerEngine | None = None, **overrides: Any) -> Served:
            settings = ServerSettings(db=tmp_path / "citeline.db", **overrides)
            return stack.enter_context(live_server(create_app(settings, engine=engine)))

        yield start


# How long past a bound the server may take to close: the loop's timer and this machine's load.
SLACK = 2.0


def _connect(
    server: Served, source: str | None = None, send_buffer: int = 0, receive_buffer: int = 0
) -> socket.socket:
    address = urlsplit(server.url)
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if send_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    if receive_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    if source is not None:
        connection.bind((source, 0))
    connection.settimeout(10)
    connection.connect((address.hostname, address.port))
    return connection


def _read_until_closed(connection: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and when it closed (seconds from now);
    ``limit`` bounds the wait."""
    started = time.monotonic()
    received = b""
    connection.settimeout(limit)
    try:
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return received, time.monotonic() - started


def _closed_within(connection: socket.socket, seconds: float) -> bytes:
    received, waited = _read_until_closed(connection, seconds + SLACK + 1)
    assert waited < seconds + SLACK, f"still open after {waited:.1f} s"
    return received


def test_a_connection_that_sends_nothing_is_closed_when_idle(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    with _connect(server) as connection:
        assert _closed_within(connection, 1.0) == b""


def test_bytes_that_begin_no_request_do_not_keep_a_connection_open(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    with _connect(server) as connection:
        started = time.monotonic()
        try:
            while time.monotonic() - started < 1.0 + SLACK + 1:
                connection.sendall(b"\r\n")
                time.sleep(0.2)
        except OSError:
            pass
        assert time.monotonic() - started < 1.0 + SLACK


def test_half_a_request_line_is_answered_408_at_the_header_bound(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    with _connect(server) as connection:
        connection.sendall(b"GET /healthz HT")
        received = _closed_within(connection, 1.0)
    assert received.startswith(b"HTTP/1.1 408 ")


def test_headers_trickled_a_byte_at_a_time_are_cut_off_at_the_header_bound(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    request = b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    with _connect(server) as connection:
        started = time.monotonic()
        for byte in request:
            try:
                connection.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.05)
            if time.monotonic() - started > 1.0 + SLACK + 1:
                break
        received = _closed_within(connection, max(0.0, 1.0 - (time.monotonic() - started)))
    assert b"200 OK" not in received


def test_a_body_sent_a_byte_at_a_time_is_cut_off_at_the_body_bound(
    serve_live: Callable[..., Served],
) -> None:
    engine = CountingEngine()
    server = serve_live(engine, **SHORT)
    body = b'{"question": "' + b"x" * 100 + b'"}'
    head = (
        b"POST /v1/answer HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    with _connect(server) as connection:
        connection.sendall(head)
        started = time.monotonic()
        for byte in body:
            try:
                connection.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.05)
            if time.monotonic() - started > 1.0 + SLACK + 1:
                break
        _closed_within(connection, max(0.0, 1.0 - (time.monotonic() - started)))
    assert engine.calls == []


def test_an_honest_client_keeps_its_connection_for_several_requests(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    with _connect(server) as connection:
        for _ in range(3):
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            reply = b""
            while not reply.endswith(b"}"):
                reply += connection.recv(4096)
            assert reply.startswith(b"HTTP/1.1 200 ")
            time.sleep(0.5)  # under the idle bound each time


def test_a_header_block_over_the_bound_is_431_before_it_is_read_whole(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(CountingEngine(), **SHORT, max_header_bytes=8192)
    with _connect(server) as connection:
        # 40 KiB of one header, never ended: a server that waits for the block to end
        # answers nothing.
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: " + b"a" * 40960)
        received, _ = _read_until_closed(connection, 5)
    assert received.startswith(b"HTTP/1.1 431 ")


def test_more_header_fields_than_the_bound_are_431(serve_live: Callable[..., Served]) -> None:
    server = serve_live(CountingEngine(), **SHORT, max_headers=20)
    fields = b"".join(b"X-F%d: v\r\n" % number for number in range(200))
    with _connect(server) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n" + fields + b"\r\n")
        received, _ = _read_until_closed(connection, 5)
    assert received.startswith(b"HTTP/1.1 431 ")


def test_headers_under_the_bounds_are_answered(serve_live: Callable[..., Served]) -> None:
    server = serve_live(CountingEngine(), **SHORT, max_header_bytes=8192, max_headers=20)
    fields = b"".join(b"X-F%d: %s\r\n" % (number, b"v" * 200) for number in range(18))
    with _connect(server) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n" + fields + b"\r\n")
        reply = connection.recv(4096)
    assert reply.startswith(b"HTTP/1.1 200 ")


def test_one_address_cannot_hold_more_than_its_share_of_connections(
    serve_live: Callable[..., Served],
) -> None:
    server = serve_live(
        CountingEngine(), **{**SHORT, "idle_timeout": 30}, max_connections_per_peer=4
    )
    held = [_connect(server) for _ in range(4)]
    try:
        with _connect(server) as fifth:
            received, _ = _read_until_closed(fifth, 5)
        assert received.startswith(b"HTTP/1.1 503 ")
        # Another address is served meanwhile (Linux routes all of 127/8 to loopback).
        with _connect(server, source="127.0.0.2") as other:
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            assert other.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        for connection in held:
            connection.close()
    # A connection closed gives its place back.
    time.sleep(0.2)
    with _connect(server) as again:
        again.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        assert again.recv(4096).startswith(b"HTTP/1.1 200 ")


def test_pipelined_requests_whose_answers_are_never_read_are_not_read_either(
    serve_live: Callable[..., Served],
) -> None:
    # Each answer streams and listens for the client to leave, which asks the connection for
    # more input: a server that then read on queued thousands of these small requests per
    # answer it wrote, and would take in all 16 MiB while its answers filled the buffers.
    server = serve_live(
        CountingEngine(), **{**SHORT, "idle_timeout": 30}, rate_limit=10**9, answer_timeout=10.0
    )
    body = b'{"question": "q"}'
    request = (
        b"POST /v1/answer HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    wanted = 16 << 20
    # The client's own buffers kept small, so what the kernel holds is mostly the server's.
    with _connect(server, send_buffer=16384, receive_buffer=4096) as connection:
        connection.setblocking(False)
        sent = 0
        stalled_since = time.monotonic()
        batch = memoryview(request * 32)
        pending = batch
        while sent < wanted and time.monotonic() - stalled_since < 1.0:
            try:
                written = connection.send(pending)
            except BlockingIOError:
                time.sleep(0.01)
                continue
            sent += written
            pending = pending[written:] or batch
            stalled_since = time.monotonic()
    # What was taken in is what the kernel's buffers hold and one read of the server's, not
    # the stream of requests behind the first.
    print("sent", sent)
    assert sent < 4 << 20, f"the server took in {sent >> 20} MiB"


def test_a_pipelined_pair_is_answered_in_order(serve_live: Callable[..., Served]) -> None:
    server = serve_live(CountingEngine(), **SHORT)
    with _connect(server) as connection:
        connection.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
            b"GET /nowhere HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        )
        received, _ = _read_until_closed(connection, 5)
    first = received.index(b"HTTP/1.1 200 ")
    second = received.index(b"HTTP/1.1 404 ")
    assert first < second


@pytest.mark.parametrize("exempt", ["127.0.0.1", "127.0.0.0/8", "*"])
def test_a_trusted_proxy_is_not_held_to_one_peer_share(
    serve_live: Callable[..., Served], exempt: str
) -> None:
    server = serve_live(
        CountingEngine(),
        **{**SHORT, "idle_timeout": 30},
        max_connections_per_peer=2,
        forwarded_allow_ips=exempt,
    )
    held = [_connect(server) for _ in range(4)]
    try:
        for connection in held:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            assert connection.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        for connection in held:
            connection.close()


@dataclass
class PatientEngine:
    """Takes ``seconds`` before it answers, as a model does."""

    seconds: float
    model_name: str = "patient double"

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        return self._events(question)

    async def _events(self, question: str) -> AsyncIterator[Event]:
        yield Start()
        await asyncio.sleep(self.seconds)
        yield Token(f"Answered {len(question)}.")
        yield Done(state="answered")


def test_a_pipelined_request_waiting_behind_a_long_answer_is_not_timed_out(
    serve_live: Callable[..., Served],
) -> None:
    # The second request's body is longer than the server reads while the first is answered:
    # its wait is the server's choice, and its body bound must not run out meanwhile.
    server = serve_live(PatientEngine(seconds=2.5), **SHORT)
    requests = b""
    for size in (600, 700):
        # Padded with blanks JSON allows, past a question's own bound.
        body = b'{"question": "' + b"q" * size + b'"' + b" " * 6000 + b"}"
        requests += (
            b"POST /v1/answer HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
    with _connect(server) as connection:
        connection.sendall(
            requests + b"GET /nowhere HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        )
        received, _ = _read_until_closed(connection, 15)
    assert b"Answered 600." in received and b"Answered 700." in received
    assert b"HTTP/1.1 404 " in received
