"""The guard: who may spend a model call, decided before any model is called.

Order matters: the caller token is verified first, then the rate limit is counted
against the identity the token proved, so an unsigned or forged token can never spend
another caller's budget, and a refused request is never counted. In open mode every
token check passes and the identity is the client address, so the limit still holds.

A refusal's reason is logged here and never returned: the caller learns only that it
was refused. Deliberately not here: HTTP, event encoding, metrics.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from citeline.server.rate_limit import DATABASE_STORAGE, RateLimiter, rate_limiter
from citeline.server.settings import ServerSettings
from citeline.server.store.base import RateHits
from citeline.server.token_verdicts import RejectedToken, TokenRefusal

if TYPE_CHECKING:
    from citeline.server.tokens import TokenVerifier

RefusalCause: TypeAlias = TokenRefusal | Literal["rate_limited"]
REFUSAL_CAUSES: tuple[RefusalCause, ...] = (
    "no_token",
    "bad_token",
    "expired",
    "wrong_audience",
    "missing_claim",
    "rate_limited",
)

logger = logging.getLogger("citeline.server.guard")


@dataclass(frozen=True, slots=True)
class Admitted:
    """The request may call the model; ``identity`` is whose budget it spent."""

    identity: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The request is refused before any model call; ``detail`` is for the log only."""

    cause: RefusalCause
    detail: str


class Guard:
    """Caller token, then rate limit. ``verifier=None`` is open mode."""

    def __init__(self, *, verifier: TokenVerifier | None, limiter: RateLimiter) -> None:
        self._verifier = verifier
        self._limiter = limiter

    @classmethod
    def from_settings(cls, settings: ServerSettings, *, hits: RateHits | None = None) -> Guard:
        """The guard ``settings`` describe; raises ``StartupError`` with the fix when it cannot.

        ``hits`` counts the limit in the server's database (its stores' ``rate_hits``), as
        ``CITELINE_RATE_LIMIT_STORAGE`` asks by default."""
        limiter = _limiter(settings, hits)
        if settings.open:
            answers = "1 answer" if settings.rate_limit == 1 else f"{settings.rate_limit} answers"
            logger.warning(
                "OPEN MODE: caller tokens are not checked; anyone who can reach this server "
                "can spend model calls (limited to %s per %d s per client address). "
                "Do not expose it to the public internet like this.",
                answers,
                settings.rate_window,
                extra={"open_mode": True},
            )
            return cls(verifier=None, limiter=limiter)
        return cls(verifier=_verifier(settings), limiter=limiter)

    @staticmethod
    def check(settings: ServerSettings) -> None:
        """Raise ``StartupError`` with the fix when ``settings`` can make no guard, saying
        nothing else, for a caller that builds the real guard later (``citeline serve``
        checks first, then starts). A limit counted in the database is checked when its
        stores open: building a stand-in here loaded the ``limits`` library (3.8 MB
        resident) into servers that never count with it."""
        if settings.rate_limit_storage.strip() not in ("", DATABASE_STORAGE):
            _limiter(settings, None)
        if not settings.open:
            _verifier(settings)

    @property
    def open(self) -> bool:
        return self._verifier is None

    async def admit(self, caller_token: str, client_address: str) -> Admitted | Refused:
        """``identify``, then ``spend``: what an endpoint that only answers needs."""
        identity = self.identify(caller_token, client_address)
        if isinstance(identity, Refused):
            return identity
        return await self.spend(identity, client_address)

    def identify(self, caller_token: str, client_address: str) -> str | Refused:
        """Whose request this is, spending nothing: the identity the token proved (the
        client address in open mode), or the refusal of a token that proved nothing."""
        if self._verifier is None:
            return f"addr:{client_address}"
        verdict = self._verifier.verify(caller_token)
        if isinstance(verdict, RejectedToken):
            return self._refuse(Refused(verdict.cause, verdict.detail), client_address)
        return verdict.identity

    async def spend(self, identity: str, client_address: str) -> Admitted | Refused:
        """Count one answer against ``identity``'s budget, or refuse it as over the limit."""
        if not await self._limiter.hit(identity):
            return self._refuse(
                Refused("rate_limited", f"{identity} is over its rate limit"), client_address
            )
        return Admitted(identity)

    @staticmethod
    def _refuse(refusal: Refused, client_address: str) -> Refused:
        logger.info(
            "request refused (%s): %s",
            refusal.cause,
            refusal.detail,
            extra={"refusal_cause": refusal.cause, "client": client_address},
        )
        return refusal


def _limiter(settings: ServerSettings, hits: RateHits | None) -> RateLimiter:
    return rate_limiter(
        limit=settings.rate_limit,
        window_seconds=settings.rate_window,
        storage_url=settings.rate_limit_storage,
        hits=hits,
    )


def _verifier(settings: ServerSettings) -> TokenVerifier:
    """The verifier of the site's keys. Only a guard that checks tokens loads what checks
    them (PyJWT and cryptography, 11 MB resident), so a server in open mode never does."""
    from citeline.server.tokens import TokenVerifier, read_public_keys

    keys = read_public_keys(settings.caller_key_file)
    return TokenVerifier(keys, audience=settings.token_audience)
