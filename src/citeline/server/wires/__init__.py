"""The wires a server can speak, each an object that owns its routes, encoding and setting names.

``wire_named(name)`` is the wire ``CITELINE_WIRE`` names; ``base.Wire`` is the interface.
Importing this package imports no web framework: a wire's routes load when it builds them.
"""

from __future__ import annotations

from types import MappingProxyType

from citeline.server.wires.base import Wire, WireName
from citeline.server.wires.native import NativeWire
from citeline.server.wires.reactome import ReactomeWire

WIRES: MappingProxyType[WireName, Wire] = MappingProxyType(
    {"native": NativeWire(), "reactome": ReactomeWire()}
)


def wire_named(name: WireName) -> Wire:
    """The wire called ``name`` (``settings.wire``)."""
    return WIRES[name]


__all__ = ["WIRES", "NativeWire", "ReactomeWire", "Wire", "WireName", "wire_named"]
