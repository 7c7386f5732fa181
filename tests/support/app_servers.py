"""The app under test, served in process or on loopback, with a client that reaches it.

:func:`in_process` drives the app through starlette's ``TestClient`` (the ASGI calls made
directly, no socket): a contract test that only reads a status, a body or a stream that ends
costs what the app costs, not a server start. :func:`live_server` runs uvicorn in a thread on
a port the kernel picks, for the tests that need a real socket: a hang-up mid-stream, raw
bytes on the wire, a browser. Both yield a :class:`Served`, so a test reads the same either way.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import anyio
import httpx
import uvicorn
from fastapi import FastAPI
from starlette.testclient import TestClient

from citeline.server.listen import uvicorn_config
from citeline.server.routes import ServerState

# anyio imports most of its modules on first use, and pytest rewrites them as it imports them
# (anyio ships a pytest plugin). Done in a server thread beside the test's own thread, that
# rewriting crashed CPython 3.11's parser ("AST constructor recursion depth mismatch", twice
# in CI, on Starlette's first file response), so every lazy name is resolved here, once, in
# the thread that imports this module.
for _name in dir(anyio):
    getattr(anyio, _name)

# The address the in-process app sees its caller at: a loopback address, as a caller on the
# same machine has, because open mode limits by address and TestClient's own is "testclient".
IN_PROCESS_CLIENT = ("127.0.0.1", 50000)


@dataclass(frozen=True)
class Served:
    """An app being served: its base URL, the app itself, and a client that reaches it."""

    url: str
    app: FastAPI
    client: httpx.Client

    @property
    def state(self) -> ServerState:
        state: ServerState = self.app.state.citeline
        return state


@contextmanager
def in_process(app: FastAPI) -> Iterator[Served]:
    """``app`` with its lifespan run, reached without a socket.

    Redirects are not followed and a server error is a 500 response, as over the network
    with httpx's defaults, so a test cannot tell the two apart by what it reads.
    """
    with TestClient(
        app, follow_redirects=False, raise_server_exceptions=False, client=IN_PROCESS_CLIENT
    ) as client:
        yield Served(str(client.base_url).rstrip("/"), app, client)


@contextmanager
def live_server(app: FastAPI) -> Iterator[Served]:
    """``app`` served by uvicorn on a loopback port, stopped when the block ends."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    # Configured as ``citeline serve`` configures it, connection bounds included.
    config = uvicorn_config(app, app.state.citeline.settings)
    config.lifespan = "on"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            yield Served(url, app, client)
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()
