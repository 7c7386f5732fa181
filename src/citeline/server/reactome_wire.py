"""The reactome wire profile's encoding: the native events, renamed where React-to-Me reads them.

React-to-Me's search page already has a client for the answer stream; fed citeline's native
events, it dropped every citation (it keys chips on ``st_id``, not ``id``) and lost its
release-keyed cache (it keeps ``start.release`` only when it is a JSON number). This module
maps each event at the encoding edge, and only what that client reads differently:

- ``start`` is ``{"release": int|null, "answered": true}``;
- ``citation`` is ``{"st_id", "display_name"}`` or ``{"url", "display_name"}``: exactly one
  identifier key, the one the engine chose, and the native ``href`` (the cited section's own
  address) whenever the native event has one, so the panel can link a section of a site
  ingested with ``--base-url`` without a link template;
- ``token`` and ``done`` are the native payloads, byte for byte.

Deliberately not here: deciding anything. Which sources are cited, how an answer ends and
what the refusal looks like are the engine's and the guard's, shared with the native routes;
a second engine for one client would drift from the first.
"""

from __future__ import annotations

import re
from typing import Any

from citeline.events import Citation, Event, Start, sse_frame

# React-to-Me's releases are whole numbers ("97"); a label of ASCII digits is that number,
# anything else ("2026-09", "97a", "") has no numeric form and is sent as null, which the
# client treats as "release unknown" (it costs cache invalidation, never an answer). So is
# a number past what its JavaScript reads exactly (2**53 - 1, sixteen digits): a label of
# 4,301 digits once failed every answer's start event, Python refusing to read it.
_RELEASE_NUMBER = re.compile(r"0*([0-9]{1,16})")
MAX_RELEASE = 2**53 - 1


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
    """The JSON object the reactome profile sends for ``event``."""
    if isinstance(event, Start):
        return {"release": release_number(event.release), "answered": True}
    if isinstance(event, Citation):
        # The native event already holds exactly one identifier; only its key is renamed.
        identifier = {"st_id": event.id} if event.id is not None else {"url": event.url}
        address = {"href": event.href} if event.href is not None else {}
        return {**identifier, **address, "display_name": event.display_name}
    return event.payload()


def encode_reactome_sse(event: Event) -> str:
    """``event`` as one server-sent event of the reactome profile."""
    return sse_frame(event.name, reactome_payload(event))
