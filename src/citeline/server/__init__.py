"""The answer server: the search-page endpoint, the guard, the answer store and chat.

``create_app(settings)`` builds the ASGI app that ``citeline serve`` runs; the engine,
corpus and stores can be injected. The HTTP contract is ``contracts/answer_endpoint.md``.
``serve`` listens with one app, ``serve_workers`` with several processes on one socket.

Attributes here load on first use: the app pulls in FastAPI and the engine (about a
second), which ``citeline serve --help`` and ``citeline token`` never need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeline.lazy import attributes

if TYPE_CHECKING:
    from citeline.server.answer_engine import AnswerEngine, CorpusAnswerEngine
    from citeline.server.app import create_app
    from citeline.server.errors import StartupError
    from citeline.server.guard import Guard
    from citeline.server.listen import serve
    from citeline.server.logs import configure_logging
    from citeline.server.settings import ServerSettings, describe_settings
    from citeline.server.tokens import generate_key_pair, mint_token
    from citeline.server.workers import serve_workers

_LAZY = {
    "AnswerEngine": "citeline.server.answer_engine",
    "CorpusAnswerEngine": "citeline.server.answer_engine",
    "Guard": "citeline.server.guard",
    "ServerSettings": "citeline.server.settings",
    "StartupError": "citeline.server.errors",
    "configure_logging": "citeline.server.logs",
    "create_app": "citeline.server.app",
    "describe_settings": "citeline.server.settings",
    "generate_key_pair": "citeline.server.tokens",
    "mint_token": "citeline.server.tokens",
    "serve": "citeline.server.listen",
    "serve_workers": "citeline.server.workers",
}


__getattr__ = attributes(__name__, _LAZY)

__all__ = [
    "AnswerEngine",
    "CorpusAnswerEngine",
    "Guard",
    "ServerSettings",
    "StartupError",
    "configure_logging",
    "create_app",
    "describe_settings",
    "generate_key_pair",
    "mint_token",
    "serve",
    "serve_workers",
]
