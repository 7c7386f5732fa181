"""A real local server that speaks the OpenAI chat-completions streaming protocol, with
scripted replies, for the tests of everything that talks to a model provider.

It is a plain ``http.server`` on 127.0.0.1. It records every request body as the client
sent it, so tests can check what a model would have been sent, and replies with whatever
the test's script says, as server-sent ``chat.completion.chunk`` events ending in
``[DONE]``. The ``openai_server`` fixture in ``tests/conftest.py`` starts and stops one.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# A scripted reply is plain data, so test modules need import nothing from here:
# {"calls": [[name, arguments], ...]} calls tools; {"text": [fragment, ...]} streams text,
# and an "error" key beside "text" then breaks the stream with a provider error, while a
# "stall" key (seconds) holds the stream open after the text, as a slow upstream does, and
# a "gap" key (seconds) paces the fragments, so each reaches the client in a read of its
# own instead of being coalesced with the next. A recorded exchange replays as it was:
# {"status": 500, "raw": body} answers with that status and body as JSON, and
# {"raw": sse_text} streams a recorded body of server-sent events byte for byte.
Reply = dict[str, Any]
Responder = Callable[[dict[str, Any]], Reply]


@dataclass
class ScriptedOpenAIServer:
    """Replies from ``responder`` (called with each request's JSON), or from ``script`` in order."""

    script: list[Reply] = field(default_factory=list)
    responder: Responder | None = None
    delay: float = 0.0
    bodies: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _calls: int = 0

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def requests(self) -> list[dict[str, Any]]:
        return [json.loads(body) for body in self.bodies]

    def start(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length).decode("utf-8")
                with owner._lock:
                    owner.bodies.append(raw)
                    reply = owner._next(json.loads(raw))
                if owner.delay:
                    time.sleep(owner.delay)
                if reply.get("status", 200) != 200:
                    body = reply["raw"].encode("utf-8")
                    self.send_response(reply["status"])
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                try:
                    for chunk in _chunks(reply):
                        self.wfile.write(chunk.encode("utf-8"))
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _next(self, body: dict[str, Any]) -> Reply:
        self._calls += 1
        if self.responder is not None:
            return self.responder(body)
        if not self.script:
            return {"text": ["(the script ran out)"]}
        return self.script.pop(0)


def _event(delta: dict[str, Any], finish: str | None = None) -> str:
    chunk = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


def _chunks(reply: Reply) -> Iterator[str]:
    if "raw" in reply:
        yield reply["raw"]
        return
    if "calls" in reply:
        for index, (name, args) in enumerate(reply["calls"]):
            call_id = f"call_{index}_{int(time.monotonic_ns() % 1_000_000_000)}"
            yield _event(
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    ],
                }
            )
            yield _event(
                {"tool_calls": [{"index": index, "function": {"arguments": json.dumps(args)}}]}
            )
        yield _event({}, "tool_calls")
    else:
        yield _event({"role": "assistant", "content": ""})
        for index, fragment in enumerate(reply["text"]):
            if index and "gap" in reply:
                time.sleep(reply["gap"])
            yield _event({"content": fragment})
        if "error" in reply:
            error = {"error": {"message": reply["error"], "type": "server_error"}}
            yield f"data: {json.dumps(error)}\n\n"
            return
        if "stall" in reply:
            time.sleep(reply["stall"])
        yield _event({}, "stop")
    yield "data: [DONE]\n\n"
