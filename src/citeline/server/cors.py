"""Cross-origin access: which pages on other sites may call the server from a browser.

A site that embeds the Ask box (``<citeline-ask>``, ``static/embed/``) on its own origin
calls ``/v1/answer``, ``/v1/chat``, ``/v1/search`` and ``/v1/info`` across origins. Those
routes, and only those, answer CORS for the origins named in ``CITELINE_ALLOW_ORIGINS``
(``--allow-origin``), and only those: a request from any other origin never reaches
Starlette's ``CORSMiddleware``, so it gets no ``Access-Control-*`` header at all (its
preflight is the app's own 405), and the browser keeps the response from the page. No
credentials are allowed: the caller token travels in the body, never in a cookie.

The static files are another matter. They are public code, and a page on another origin
loads the component as a module script, which browsers fetch in CORS mode: so, once any
origin is allowed, every static file is readable by every origin
(``Access-Control-Allow-Origin: *``, no credentials). That lets a page load the box; it
does not let the box answer there.

Deliberately not here: the guard (tokens, limits), which every request meets whatever
its origin; CORS only decides what a browser lets a page read.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The routes the Ask box calls; the stored answers, conversations, metrics and the
# reactome wire stay same-origin.
CROSS_ORIGIN_ROUTES = frozenset({"/v1/answer", "/v1/chat", "/v1/search", "/v1/info"})
# How long a browser may reuse a preflight's answer, in seconds (Chromium caps it at 7,200):
# one preflight per reader per ten minutes instead of one per question.
PREFLIGHT_MAX_AGE = 600


class AllowedOrigins:
    """Wraps the app: CORS for ``CROSS_ORIGIN_ROUTES`` from ``origins``, nothing else."""

    def __init__(self, app: ASGIApp, origins: tuple[str, ...]) -> None:
        self.app = app
        self.origins = frozenset(origins)
        self.cors = CORSMiddleware(
            app,
            allow_origins=sorted(self.origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type"],
            max_age=PREFLIGHT_MAX_AGE,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in CROSS_ORIGIN_ROUTES:
            await self.app(scope, receive, send)
            return
        # The answer depends on the Origin sent, whoever sent it: a shared cache must not
        # hand one origin's response (with or without its grant) to another.
        send = _with_header(send, "Vary", "Origin")
        if Headers(scope=scope).get("origin") in self.origins:
            await self.cors(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class PublicFiles:
    """Wraps the static files: each response readable by any origin (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, _with_header(send, "Access-Control-Allow-Origin", "*"))


def _with_header(send: Send, name: str, value: str) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            if name != "Vary":
                headers[name] = value
            elif value.lower() not in headers.get("vary", "").lower().replace(" ", "").split(","):
                headers.add_vary_header(value)
        await send(message)

    return sending
