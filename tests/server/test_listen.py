"""The serving thread tells AnyIO it runs asyncio, so AnyIO does not sniff for it on every call."""

from __future__ import annotations

import threading
from typing import Any

import anyio.to_thread
import sniffio
import uvicorn
from tests.support.server_processes import free_port

from citeline.server.listen import run_server


def _server_recording(seen: dict[str, Any]) -> uvicorn.Server:
    """A uvicorn server whose app records what the serving thread and a worker thread are
    told at start-up, then asks the server to stop."""
    server: uvicorn.Server

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert scope["type"] == "lifespan"
        await receive()
        seen["serving"] = sniffio.current_async_library()
        seen["serving_named"] = sniffio.thread_local.name
        seen["worker_named"] = await anyio.to_thread.run_sync(lambda: sniffio.thread_local.name)
        await send({"type": "lifespan.startup.complete"})
        server.should_exit = True
        await receive()
        await send({"type": "lifespan.shutdown.complete"})

    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_config=None)
    server = uvicorn.Server(config)
    return server


def test_the_serving_thread_is_named_asyncio_while_it_serves_and_not_after() -> None:
    seen: dict[str, Any] = {}
    server = _server_recording(seen)

    def serve_then_look() -> None:
        run_server(server)
        seen["after"] = sniffio.thread_local.name

    thread = threading.Thread(target=serve_then_look)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert seen["serving"] == "asyncio"
    assert seen["serving_named"] == "asyncio"
    # Worker threads run no event loop: they must not be told they do.
    assert seen["worker_named"] is None
    assert seen["after"] is None


def test_a_server_that_cannot_bind_its_port_still_leaves_the_thread_unnamed() -> None:
    seen: dict[str, Any] = {}
    server = _server_recording(seen)
    server.config.port = -1  # uvicorn starts the app, cannot bind the port, and exits

    def serve_then_look() -> None:
        try:
            run_server(server)
        except BaseException as error:  # uvicorn ends a failed start with SystemExit
            seen["raised"] = type(error).__name__
        seen["after"] = sniffio.thread_local.name

    thread = threading.Thread(target=serve_then_look)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert seen["raised"] == "SystemExit"  # uvicorn's end of a start that failed
    assert seen["after"] is None
