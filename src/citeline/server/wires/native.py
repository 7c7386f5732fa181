"""citeline's own wire: the ``/v1`` API, the events as ``contracts/answer_endpoint.md`` writes
them, and the settings under their ``CITELINE_*`` names only."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from citeline.server.wires.base import Wire, WireName

if TYPE_CHECKING:
    from fastapi import APIRouter

    from citeline.server.routes import ServerState


class NativeWire(Wire):
    """The answer, chat, stored-answer, search, info, health and metrics routes."""

    name: ClassVar[WireName] = "native"

    def routers(self, state: ServerState, static_dir: Path) -> list[APIRouter]:
        from citeline.server.routes import build_router

        return [build_router(state)]
