"""React-to-Me's names for the settings citeline shares with it, honoured in the reactome profile.

An operator replacing React-to-Me's answer service keeps its environment: the verifying key,
the rate limit and the answer timeout under upstream's variable names, and caller tokens
minted for upstream's audience. In the reactome profile each upstream name is an alias of a
``CITELINE_*`` variable (the ``CITELINE_*`` name wins when both are set), and the token
audience defaults to upstream's. In the native profile these names mean nothing, so a stray
variable in a shared environment cannot change a native server.

Deliberately not here: parsing or checking values (``settings`` does that, whichever name
carried them).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Literal, TypeAlias

# The wire profiles a server can speak: citeline's own, and React-to-Me's beside it.
Wire: TypeAlias = Literal["native", "reactome"]
WIRES: tuple[Wire, ...] = ("native", "reactome")
REACTOME_WIRE: Wire = "reactome"

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


def variable_names(env: str, wire: str) -> tuple[str, ...]:
    """The variables that may carry the setting ``env`` in ``wire``, the first set one winning."""
    upstream = UPSTREAM_NAMES.get(env)
    if wire == REACTOME_WIRE and upstream is not None:
        return (env, upstream)
    return (env,)


def default_audience(wire: str, fallback: str) -> str:
    """The token audience a server of ``wire`` expects when none is set."""
    return REACTOME_AUDIENCE if wire == REACTOME_WIRE else fallback
