"""What checking a caller token concluded: plain types, free of the libraries that check.

The guard reads these on every request, and in open mode it checks no token at all: kept
apart from ``tokens`` (which imports PyJWT and cryptography, 11 MB of a server's resident
memory, measured on the demo's server), so a server that checks no token never loads them.

Deliberately not here: verifying or minting a token (``tokens``), the guard (``guard``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

TokenRefusal: TypeAlias = Literal[
    "no_token", "bad_token", "expired", "wrong_audience", "missing_claim"
]


@dataclass(frozen=True, slots=True)
class VerifiedToken:
    """A token that passed: ``identity`` is what its rate limit is counted against."""

    identity: str


@dataclass(frozen=True, slots=True)
class RejectedToken:
    """A token that failed; ``detail`` is for the log, never for the caller."""

    cause: TokenRefusal
    detail: str
