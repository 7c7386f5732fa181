"""Answers per caller per window, counted by the ``limits`` library.

In memory by default (one process); any storage URL ``limits`` supports (``redis://``...)
shares the count between server processes. A moving window, so a burst at the edge of two
fixed windows cannot spend twice the budget. Deliberately not here: who the caller is
(``tokens``) and when the limit is checked (``guard``).
"""

from __future__ import annotations

import logging
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError, StorageError
from limits.storage import storage_from_string

from citeline.server.errors import StartupError

logger = logging.getLogger("citeline.server.guard")


class RateLimiter:
    """``limit`` answers per ``window_seconds`` for each identity."""

    def __init__(self, *, limit: int, window_seconds: int, storage_url: str = "memory://") -> None:
        # The server runs on an event loop, so it needs the async flavour of each storage.
        plain = storage_url.removeprefix("async+")
        options: dict[str, Any] = {"wrap_exceptions": True}
        if plain.split("://", 1)[0].startswith("redis"):
            # `limits` defaults to the coredis client; citeline's scale extra ships redis-py.
            options["implementation"] = "redispy"
        try:
            storage = storage_from_string(f"async+{plain}", **options)
        except (ConfigurationError, ValueError) as error:
            raise StartupError(
                f"CITELINE_RATE_LIMIT_STORAGE={storage_url!r} cannot be used ({error}); "
                "use memory:// or a storage URL that the `limits` library supports."
            ) from None
        if not plain.startswith("memory://"):
            _check_reachable(plain)
        self._strategy = MovingWindowRateLimiter(storage)
        self._item = RateLimitItemPerSecond(limit, window_seconds, namespace="citeline-answers")

    async def hit(self, identity: str) -> bool:
        """Count one answer for ``identity``; False (and nothing counted) when over the limit.

        Also False when the storage cannot be reached: a public page must not turn a Redis
        outage into unmetered model calls, so the guard fails closed and logs why.
        """
        try:
            allowed: bool = await self._strategy.hit(self._item, identity)
        except StorageError as error:
            logger.error("rate-limit storage unreachable, request refused: %s", error.storage_error)
            return False
        return allowed


def _check_reachable(storage_url: str) -> None:
    """Stop start-up when a shared storage does not answer, instead of refusing every caller."""
    try:
        reachable = storage_from_string(storage_url, wrap_exceptions=True).check()
    except (ConfigurationError, ValueError, StorageError) as error:
        raise StartupError(
            f"CITELINE_RATE_LIMIT_STORAGE={storage_url!r} cannot be used ({error}); "
            "install its client (pip install 'citeline[scale]' for Redis) or fix the URL."
        ) from None
    if not reachable:
        raise StartupError(
            f"the rate-limit storage at CITELINE_RATE_LIMIT_STORAGE={storage_url!r} does not "
            "answer; start it (for Redis: redis-server) or point the setting at one that runs."
        )
