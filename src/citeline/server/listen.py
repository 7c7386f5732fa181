"""How ``citeline serve`` listens: uvicorn's settings derived from the server's own.

The one setting that matters for safety is which proxies are believed. uvicorn, left to
its defaults, rewrites the client address from ``X-Forwarded-For`` whenever the connection
comes from 127.0.0.1: in open mode, where the rate limit counts per client address, every
request through a local port then named its own address and got a fresh budget. Here
proxy headers are read only when ``CITELINE_FORWARDED_ALLOW_IPS`` names the proxies to
believe (uvicorn's own ``FORWARDED_ALLOW_IPS`` variable is not consulted).

The serving thread is also named asyncio for sniffio, which AnyIO asks which event loop
runs on every call that needs its backend (a cancel scope, a lock, a task group; the
provider client and Starlette make several a streamed token). Unnamed, sniffio finds out
each time by asking asyncio for the current task: measured under uvloop, 0.82 us a lookup
against 0.15 us named. uvicorn runs asyncio (uvloop is asyncio's interface) on the thread
that calls ``run_server`` and nothing else runs there meanwhile; worker threads are not
named, so code there is still told it runs no event loop.

It serves on a socket bound before anything else was done (``citeline.cli.port``), and
stops on Ctrl+C at once and quietly (``stopping``). ``citeline serve --workers`` hands the
one bound socket to every worker (``workers``), each of which serves it here.

Every connection is held to ``connections``' bounds (time for a request's headers and body,
idle time, a response left unread, header size, pipelining, one peer's share).

Deliberately not here: building the app (``app``), logging set-up (``logs``).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import socket
import sys

import sniffio
import uvicorn
from fastapi import FastAPI

from citeline.server.connections import ConnectionLimits, bounded_protocol
from citeline.server.settings import ServerSettings
from citeline.server.stopping import StoppableServer, say_stopped

logger = logging.getLogger(__name__)


def uvicorn_config(app: FastAPI, settings: ServerSettings) -> uvicorn.Config:
    """The uvicorn configuration that serves ``app`` as ``settings`` say."""
    trusted = settings.forwarded_allow_ips
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        # log_config=None: uvicorn's own lines go through citeline's handler. Access lines
        # are off by default: measured, they were a third of a refusal's cost, and every
        # answer and refusal already logs its outcome.
        log_config=None,
        access_log=settings.access_log,
        proxy_headers=trusted is not None,
        # Passed even when unused, so uvicorn never reads FORWARDED_ALLOW_IPS itself.
        forwarded_allow_ips=trusted or "",
        # Read and idle bounds per connection, which uvicorn lacks (``connections``).
        http=bounded_protocol(ConnectionLimits.of(settings)),
        timeout_keep_alive=settings.idle_timeout,
    )


def serve(
    app: FastAPI, settings: ServerSettings, listening: socket.socket, *, worker: bool = False
) -> None:
    """Serve ``app`` on the bound socket ``listening`` until interrupted; a ``worker`` of
    several leaves saying where it serves and that it stopped to the command that started
    them all (``workers``)."""
    server = StoppableServer(uvicorn_config(app, settings))
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if not worker:
        logger.info("Serving on http://%s:%d/ (stop with Ctrl+C).", shown, port)
    _return_freed_memory()
    run_server(server, [listening])
    if not worker:
        say_stopped(server)


def _return_freed_memory() -> None:
    """Hand the heap that start-up used and freed back to the system (glibc keeps it
    otherwise): loading the model and the collection leave freed pages in the middle of
    the heap, which ``malloc_trim`` returns. Measured on the demo's collection built
    hybrid, one worker: RSS 230 MB idle before, 178 MB after (199 MB after 200 answers)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def run_server(server: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
    """Run ``server`` on this thread, named asyncio for sniffio while it runs (see above)."""
    previous = sniffio.thread_local.name
    sniffio.thread_local.name = "asyncio"
    try:
        server.run(sockets=sockets)
    finally:
        sniffio.thread_local.name = previous
