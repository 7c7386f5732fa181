"""The answer server: the search-page endpoint, the guard, the answer store and chat.

``create_app(settings)`` builds the ASGI app that ``citeline serve`` runs; the engine,
corpus and stores can be injected. The HTTP contract is ``contracts/answer_endpoint.md``.
"""

from __future__ import annotations

from citeline.server.answer_engine import AnswerEngine, CorpusAnswerEngine
from citeline.server.app import create_app
from citeline.server.errors import StartupError
from citeline.server.settings import ServerSettings

__all__ = [
    "AnswerEngine",
    "CorpusAnswerEngine",
    "ServerSettings",
    "StartupError",
    "create_app",
]
