"""The one interface every wire implements: what a server speaks beside its engine.

A wire is how answers reach one kind of client: its routes, how it encodes an event, and
under which names it reads the operator's settings. The server is handed one
(``create_app(settings, wire=...)``, by default the one ``CITELINE_WIRE`` names) and asks it,
never its name: ``native`` is citeline's own API, ``reactome`` serves React-to-Me's front end
beside it. Deliberately not here: deciding an answer's events (the engine's) or guarding
(the guard's); a wire only routes to them and encodes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

from citeline.events import Event, encode_sse
from citeline.stream.sources_section import HeadingRule

if TYPE_CHECKING:
    from fastapi import APIRouter

    from citeline.server.routes import ServerState

# The wires a server can speak, as ``CITELINE_WIRE`` names them.
WireName: TypeAlias = Literal["native", "reactome"]


class Wire(ABC):
    """A wire profile: its routes, its encoding of events, its names for settings."""

    name: ClassVar[WireName]
    # The source-list heading rule of its answers (``citeline.stream.sources_section``).
    heading_rule: ClassVar[HeadingRule] = "strict"
    # Whether its routes keep chat handoffs, so the stores open a table for them.
    keeps_handoffs: ClassVar[bool] = False

    @abstractmethod
    def routers(self, state: ServerState, static_dir: Path) -> list[APIRouter]:
        """The routes it serves over ``state`` (``static_dir`` holds the page)."""

    def encode(self, event: Event) -> str:
        """``event`` as one server-sent event of this wire's answer stream."""
        return encode_sse(event)

    def variable_names(self, env: str) -> tuple[str, ...]:
        """The environment variables that may carry the setting ``env``, first set wins."""
        return (env,)

    def default_audience(self, fallback: str) -> str:
        """The caller-token audience expected when none is set."""
        return fallback
