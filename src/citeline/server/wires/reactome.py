"""The reactome wire: React-to-Me's routes, its encoding of the events, its names for settings.

React-to-Me's search page already has a client for the answer stream; fed citeline's native
events, it dropped every citation (it keys chips on ``st_id``, not ``id``) and lost its
release-keyed cache (it keeps ``start.release`` only when it is a JSON number). This wire
maps each event at the encoding edge, and only what that client reads differently:

- ``start`` is ``{"release": int|null, "answered": true}``;
- ``citation`` is ``{"st_id", "display_name"}`` or ``{"url", "display_name"}``: exactly one
  identifier key, the one the engine chose, and the native ``href`` (the cited section's own
  address) whenever the native event has one, so the panel can link a section of a site
  ingested with ``--base-url`` without a link template;
- ``token`` and ``done`` are the native payloads, byte for byte.

An operator replacing React-to-Me's answer service keeps its environment: the verifying key,
the rate limit and the answer timeout under upstream's variable names, and caller tokens
minted for upstream's audience. Each upstream name is an alias of a ``CITELINE_*`` variable
(the ``CITELINE_*`` name wins when both are set); on the native wire these names mean
nothing, so a stray variable in a shared environment cannot change a native server.

Its routes (``reactome_routes``) are served beside the native ones. The contract is
``contracts/reactome_wire.md``. Deliberately not here: deciding anything. Which sources are
cited, how an answer ends and what the refusal looks like are the engine's and the guard's,
shared with the native routes; a second engine for one client would drift from the first.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from citeline.events import Citation, Event, Start, sse_frame
from citeline.server.errors import StartupError
from citeline.server.wires.base import Wire, WireName
from citeline.stream.sources_section import HeadingRule

if TYPE_CHECKING:
    from fastapi import APIRouter

    from citeline.server.routes import ServerState

# React-to-Me's releases are whole numbers ("97"); a label of ASCII digits is that number,
# anything else ("2026-09", "97a", "") has no numeric form and is sent as null, which the
# client treats as "release unknown" (it costs cache invalidation, never an answer). So is
# a number past what its JavaScript reads exactly (2**53 - 1, sixteen digits): a label of
# 4,301 digits once failed every answer's start event, Python refusing to read it.
_RELEASE_NUMBER = re.compile(r"0*([0-9]{1,16})")
MAX_RELEASE = 2**53 - 1

# The audience React-to-Me's website mints caller tokens for.
REACTOME_AUDIENCE = "reactome-chatbot"

# citeline's variable → upstream's name for the same setting.
UPSTREAM_NAMES: MappingProxyType[str, str] = MappingProxyType(
    {
        "CITELINE_CALLER_KEY_FILE": "CALLER_TOKEN_PUBLIC_KEY_PATH",
        "CITELINE_RATE_LIMIT": "ANSWER_RATE_LIMIT",
        "CITELINE_RATE_WINDOW": "ANSWER_RATE_WINDOW_SECONDS",
        "CITELINE_ANSWER_TIMEOUT": "ANSWER_TIMEOUT_SECONDS",
    }
)


def release_number(label: str | None) -> int | None:
    """The integer form of a release label when it is one (``"97"`` → 97), else None."""
    if label is None:
        return None
    digits = _RELEASE_NUMBER.fullmatch(label.strip())
    if digits is None:
        return None
    number = int(digits.group(1))
    return number if number <= MAX_RELEASE else None


def reactome_payload(event: Event) -> dict[str, Any]:
    """The JSON object the reactome wire sends for ``event``."""
    if isinstance(event, Start):
        return {"release": release_number(event.release), "answered": True}
    if isinstance(event, Citation):
        # The native event already holds exactly one identifier; only its key is renamed.
        identifier = {"st_id": event.id} if event.id is not None else {"url": event.url}
        address = {"href": event.href} if event.href is not None else {}
        return {**identifier, **address, "display_name": event.display_name}
    return event.payload()


def encode_reactome_sse(event: Event) -> str:
    """``event`` as one server-sent event of the reactome wire."""
    return sse_frame(event.name, reactome_payload(event))


class ReactomeWire(Wire):
    """React-to-Me's answer endpoint, handoff and chat page, beside the native routes."""

    name: ClassVar[WireName] = "reactome"
    # React-to-Me's readers saw its heading rule strip four shapes the strict rule keeps
    # (issue 15): a site serving its front end gets the tolerant rule.
    heading_rule: ClassVar[HeadingRule] = "tolerant"
    keeps_handoffs: ClassVar[bool] = True

    def routers(self, state: ServerState, static_dir: Path) -> list[APIRouter]:
        from citeline.server.routes import build_router
        from citeline.server.wires.reactome_routes import build_reactome_router

        if state.stores.handoffs is None:
            raise StartupError(
                "CITELINE_WIRE=reactome needs a handoff store, and the stores given to "
                "create_app have none; pass stores from open_stores, or use the native wire."
            )
        return [
            build_router(state),
            build_reactome_router(state, state.stores.handoffs, static_dir, self),
        ]

    def encode(self, event: Event) -> str:
        return encode_reactome_sse(event)

    def variable_names(self, env: str) -> tuple[str, ...]:
        upstream = UPSTREAM_NAMES.get(env)
        return (env,) if upstream is None else (env, upstream)

    def default_audience(self, fallback: str) -> str:
        return REACTOME_AUDIENCE
