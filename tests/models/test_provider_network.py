"""The provider's HTTP client on asyncio sockets: same bytes, same errors, same pooling."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpcore2
import httpx2
import pytest
import uvloop
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeline.models.provider_network import READ_BUFFER_LIMIT, AsyncioBackend, provider_transport

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@asynccontextmanager
async def _serving(
    handler: Handler, tls: ssl.SSLContext | None = None
) -> AsyncIterator[tuple[int, list[int]]]:
    """A local server running ``handler`` per connection; yields its port and a list that
    counts the connections it accepted."""
    connections: list[int] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            await handler(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(accept, "127.0.0.1", 0, ssl=tls)
    async with server:
        yield server.sockets[0].getsockname()[1], connections


async def _request_head(reader: asyncio.StreamReader) -> bytes:
    return await reader.readuntil(b"\r\n\r\n")


def _response(body: bytes, *, close: bool = False) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n"
    return (head + ("Connection: close\r\n" if close else "") + "\r\n").encode() + body


def _client(**kwargs: object) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=provider_transport(httpx2.Limits()), **kwargs)  # type: ignore[arg-type]


def test_the_transport_pool_reads_through_the_asyncio_backend() -> None:
    # Guards the one place that reaches into httpx2: a release that moves its pool fails here.
    transport = provider_transport(httpx2.Limits(max_connections=7))
    assert isinstance(transport._pool, httpcore2.AsyncConnectionPool)
    assert isinstance(transport._pool._network_backend, AsyncioBackend)
    assert transport._pool._max_connections == 7


async def test_two_requests_share_one_kept_alive_connection() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(2):
            await _request_head(reader)
            writer.write(_response(b"caspases"))
            await writer.drain()

    async with _serving(handler) as (port, connections), _client() as client:
        first = await client.get(f"http://127.0.0.1:{port}/")
        second = await client.get(f"http://127.0.0.1:{port}/")
    assert first.content == second.content == b"caspases"
    assert len(connections) == 1


async def test_a_connection_the_server_closed_while_idle_is_not_reused() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        writer.write(_response(b"once"))  # no Connection: close, and then it closes
        await writer.drain()

    async with _serving(handler) as (port, connections), _client() as client:
        await client.get(f"http://127.0.0.1:{port}/")
        await asyncio.sleep(0.1)
        again = await client.get(f"http://127.0.0.1:{port}/")
    assert again.content == b"once"
    assert len(connections) == 2


async def test_a_stalled_response_times_out_as_a_read_timeout() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
        await writer.drain()
        await asyncio.sleep(30)

    async with _serving(handler) as (port, _), _client(timeout=0.3) as client:
        with pytest.raises(httpx2.ReadTimeout):
            await client.get(f"http://127.0.0.1:{port}/")


async def test_a_server_that_hangs_up_mid_body_is_an_error_not_a_short_body() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
        await writer.drain()

    async with _serving(handler) as (port, _), _client() as client:
        with pytest.raises(httpx2.RemoteProtocolError):
            await client.get(f"http://127.0.0.1:{port}/")


async def test_nobody_listening_is_a_connect_error() -> None:
    async with _serving(_request_head_only) as (port, _):
        pass  # closed again: the port is free and refuses
    async with _client() as client:
        with pytest.raises(httpx2.ConnectError):
            await client.get(f"http://127.0.0.1:{port}/")


async def _request_head_only(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await _request_head(reader)


async def test_a_body_far_larger_than_the_read_buffer_arrives_whole() -> None:
    body = bytes(range(256)) * (4 * READ_BUFFER_LIMIT // 256 + 7)

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        writer.write(_response(body))
        await writer.drain()

    async with (
        _serving(handler) as (port, _),
        _client() as client,
        client.stream("GET", f"http://127.0.0.1:{port}/") as response,
    ):
        await asyncio.sleep(0.2)  # let the socket fill past the limit before reading
        received = b"".join([chunk async for chunk in response.aiter_raw()])
    assert received == body


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.binary(min_size=1, max_size=4000),
    cuts=st.lists(st.integers(min_value=0, max_value=4200), max_size=12),
)
def test_however_the_response_is_split_on_the_wire_the_body_is_the_same(
    body: bytes, cuts: list[int]
) -> None:
    whole = _response(body, close=True)
    points = sorted({c for c in cuts if 0 < c < len(whole)})
    pieces = [whole[a:b] for a, b in zip([0, *points], [*points, len(whole)], strict=True)]

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        for piece in pieces:
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0)

    async def fetch() -> bytes:
        async with _serving(handler) as (port, _), _client() as client:
            return (await client.get(f"http://127.0.0.1:{port}/")).content

    assert asyncio.run(fetch()) == body


def _certificate(folder: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a self-signed certificate for 127.0.0.1, and a client
    context that trusts exactly it."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "citeline test")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(cert_file, key_file)
    client = ssl.create_default_context(cafile=str(cert_file))
    return server, client


async def test_a_request_over_tls_is_answered_and_an_untrusted_certificate_refused(
    tmp_path: Path,
) -> None:
    server_tls, client_tls = _certificate(tmp_path)

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _request_head(reader)
        writer.write(_response(b"over tls"))
        await writer.drain()

    backend = AsyncioBackend()
    async with _serving(handler, server_tls) as (port, _):
        pool = httpcore2.AsyncConnectionPool(ssl_context=client_tls, network_backend=backend)
        async with pool:
            response = await pool.request("GET", f"https://127.0.0.1:{port}/")
        assert response.content == b"over tls"
        async with _client() as client:  # the system's trust store does not know this one
            with pytest.raises(httpx2.ConnectError):
                await client.get(f"https://127.0.0.1:{port}/")


def test_under_uvloop_as_the_server_runs_it_requests_tls_and_timeouts_behave(
    tmp_path: Path,
) -> None:
    # uvloop's transports are not asyncio's classes; the server runs on uvloop.
    server_tls, client_tls = _certificate(tmp_path)

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await _request_head(reader)
        if b"/stall" in head:
            await asyncio.sleep(30)
        writer.write(_response(b"on uvloop"))
        await writer.drain()

    async def run() -> tuple[bytes, bytes]:
        async with _serving(handler) as (port, _), _client(timeout=0.3) as client:
            plain = (await client.get(f"http://127.0.0.1:{port}/")).content
            with pytest.raises(httpx2.ReadTimeout):
                await client.get(f"http://127.0.0.1:{port}/stall")
        async with _serving(handler, server_tls) as (port, _):
            pool = httpcore2.AsyncConnectionPool(
                ssl_context=client_tls, network_backend=AsyncioBackend()
            )
            async with pool:
                tls = (await pool.request("GET", f"https://127.0.0.1:{port}/")).content
        return plain, tls

    assert uvloop.run(run()) == (b"on uvloop", b"on uvloop")
