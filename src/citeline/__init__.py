"""citeline: answers whose citations the server, not the model, decides.

``citeline.answer(question, corpus=...)`` streams the events of one answer; the
rest of the public surface is in ``citeline.events``, ``citeline.corpus``,
``citeline.agent`` and ``citeline.models``; every error it raises on purpose is a
``citeline.CitelineError`` (the tree is drawn in ``citeline.errors``). Attributes here
load on first use, so ``import citeline.events`` does not pull in the model library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeline.errors import CitelineError
from citeline.lazy import attributes

if TYPE_CHECKING:
    from citeline.agent import ChatMessage, answer
    from citeline.models import ModelHandle, resolve_model

_LAZY = {
    "answer": "citeline.agent",
    "ChatMessage": "citeline.agent",
    "ModelHandle": "citeline.models",
    "resolve_model": "citeline.models",
}


__getattr__ = attributes(__name__, _LAZY)

__all__ = ["ChatMessage", "CitelineError", "ModelHandle", "answer", "resolve_model"]
