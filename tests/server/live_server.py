"""A real server on loopback for the tests, and a reader of its event streams.

uvicorn runs the app in a thread on a port the kernel picks, so every test talks real
HTTP (real sockets, real disconnects) to the same code ``citeline serve`` runs.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import uvicorn
from fastapi import FastAPI
from httpx_sse import connect_sse

from citeline.server.routes import ServerState

# anyio imports most of its modules on first use, and pytest rewrites them as it imports them
# (anyio ships a pytest plugin). Done in a server thread beside the test's own thread, that
# rewriting crashed CPython 3.11's parser ("AST constructor recursion depth mismatch", twice
# in CI, on Starlette's first file response), so every lazy name is resolved here, once, in
# the thread that imports this module.
for _name in dir(anyio):
    getattr(anyio, _name)


@dataclass(frozen=True)
class LiveServer:
    url: str
    app: FastAPI

    @property
    def state(self) -> ServerState:
        state: ServerState = self.app.state.citeline
        return state


@contextmanager
def live_server(app: FastAPI) -> Iterator[LiveServer]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


@dataclass(frozen=True)
class Streamed:
    """One streamed response: its status, content type and events as (name, payload)."""

    status: int
    content_type: str
    events: list[tuple[str, dict[str, Any]]]

    def names(self) -> list[str]:
        return [name for name, _ in self.events]

    def text(self) -> str:
        return "".join(payload["text"] for name, payload in self.events if name == "token")

    def done(self) -> dict[str, Any]:
        name, payload = self.events[-1]
        assert name == "done"
        return payload

    def payloads(self, name: str) -> list[dict[str, Any]]:
        return [payload for event, payload in self.events if event == name]


def post_stream(base_url: str, path: str, body: dict[str, Any]) -> Streamed:
    """POST ``body`` and read the whole event stream."""
    with (
        httpx.Client(base_url=base_url, timeout=30) as client,
        connect_sse(client, "POST", path, json=body) as source,
    ):
        response = source.response
        events = [(sse.event, json.loads(sse.data)) for sse in source.iter_sse()]
        return Streamed(response.status_code, response.headers["content-type"], events)
