"""Reading one answer's event stream to its end, for every test folder and benchmark.

One reader serves the in-process app, a server on loopback and a ``citeline serve`` process
alike: it takes any ``httpx.Client`` (starlette's ``TestClient`` is one) and a path or a
whole URL. It does not judge the stream: a test asserts on what it returns.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import connect_sse


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

    def start(self) -> dict[str, Any]:
        name, payload = self.events[0]
        assert name == "start", self.events
        return payload

    def done(self) -> dict[str, Any]:
        name, payload = self.events[-1]
        assert name == "done", self.events
        return payload

    def payloads(self, name: str) -> list[dict[str, Any]]:
        return [payload for event, payload in self.events if event == name]


def post_stream(
    client: httpx.Client, url: str, body: Mapping[str, Any], *, timeout: float = 60
) -> Streamed:
    """POST ``body`` to ``url`` (a path under the client's base URL, or a whole URL) and read
    the whole event stream; a response that is not an event stream raises ``SSEError``."""
    with connect_sse(client, "POST", url, json=dict(body), timeout=timeout) as source:
        response = source.response
        events = [(sse.event, json.loads(sse.data)) for sse in source.iter_sse()]
        return Streamed(response.status_code, response.headers["content-type"], events)
