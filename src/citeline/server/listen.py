"""How ``citeline serve`` listens: uvicorn's settings derived from the server's own.

The one setting that matters for safety is which proxies are believed. uvicorn, left to
its defaults, rewrites the client address from ``X-Forwarded-For`` whenever the connection
comes from 127.0.0.1: in open mode, where the rate limit counts per client address, every
request through a local port then named its own address and got a fresh budget. Here
proxy headers are read only when ``CITELINE_FORWARDED_ALLOW_IPS`` names the proxies to
believe (uvicorn's own ``FORWARDED_ALLOW_IPS`` variable is not consulted).

Deliberately not here: building the app (``app``), logging set-up (``logs``).
"""

from __future__ import annotations

import uvicorn
from fastapi import FastAPI

from citeline.server.settings import ServerSettings


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
    )


def serve(app: FastAPI, settings: ServerSettings) -> None:
    """Serve ``app`` until interrupted."""
    uvicorn.Server(uvicorn_config(app, settings)).run()
