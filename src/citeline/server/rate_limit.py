"""Answers per caller per window: counted in the server's database by default, so every
process serving it (``citeline serve --workers``, servers behind a load balancer) shares one
count, or by the ``limits`` library in memory (one process) or in any storage it supports
(``redis://``...).

A moving window, so a burst at the edge of two fixed windows cannot spend twice the budget.
Deliberately not here: who the caller is (``tokens``), when the limit is checked (``guard``)
and the database's rows (``store``).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any

from citeline.server.errors import StartupError
from citeline.server.store.base import RateHits, StoreUnavailableError

logger = logging.getLogger("citeline.server.guard")

# CITELINE_RATE_LIMIT_STORAGE's value (and its default) for the server's own database.
DATABASE_STORAGE = "database"


class RateLimiter(ABC):
    """``limit`` answers per ``window_seconds`` for each identity."""

    @abstractmethod
    async def hit(self, identity: str) -> bool:
        """Count one answer for ``identity``; False (and nothing counted) when over the limit.

        Also False when the count cannot be reached: a public page must not turn a storage
        outage into unmetered model calls, so the guard fails closed and logs why.
        """


class SharedRateLimiter(RateLimiter):
    """The limit counted in the server's database (``RateHits``): one count for every
    process serving it, exact however many count at once."""

    def __init__(self, hits: RateHits, *, limit: int, window_seconds: int) -> None:
        self._hits = hits
        self._limit = limit
        self._window = window_seconds

    async def hit(self, identity: str) -> bool:
        try:
            return await self._hits.hit(identity, limit=self._limit, window_seconds=self._window)
        except StoreUnavailableError as error:
            logger.error("rate-limit storage unreachable, request refused: %s", error)
            return False


class LibraryRateLimiter(RateLimiter):
    """The limit counted by the ``limits`` library, in memory or in a storage it supports."""

    def __init__(self, *, limit: int, window_seconds: int, storage_url: str = "memory://") -> None:
        # Imported here: a server counting in its database (the default) never loads the
        # library (3.8 MB resident, measured on import).
        from limits import RateLimitItemPerSecond
        from limits.aio.strategies import MovingWindowRateLimiter
        from limits.errors import ConfigurationError, StorageError
        from limits.storage import storage_from_string

        self._storage_error = StorageError
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
                f"use {DATABASE_STORAGE}, memory:// or a storage URL that the `limits` "
                "library supports."
            ) from None
        if not plain.startswith("memory://"):
            _check_reachable(plain)
        self._strategy = MovingWindowRateLimiter(storage)
        self._item = RateLimitItemPerSecond(limit, window_seconds, namespace="citeline-answers")

    async def hit(self, identity: str) -> bool:
        try:
            allowed: bool = await self._strategy.hit(self._item, identity)
        except self._storage_error as error:
            logger.error("rate-limit storage unreachable, request refused: %s", error.storage_error)
            return False
        return allowed


def rate_limiter(
    *, limit: int, window_seconds: int, storage_url: str, hits: RateHits | None
) -> RateLimiter:
    """The limiter ``storage_url`` names: the database's ``hits`` for ``database`` (in
    memory where the stores cannot count, as test doubles cannot), else the library's."""
    if storage_url.strip() in ("", DATABASE_STORAGE):
        if hits is not None:
            return SharedRateLimiter(hits, limit=limit, window_seconds=window_seconds)
        storage_url = "memory://"
    return LibraryRateLimiter(limit=limit, window_seconds=window_seconds, storage_url=storage_url)


def _check_reachable(storage_url: str) -> None:
    """Stop start-up when a shared storage does not answer, instead of refusing every caller."""
    from limits.errors import ConfigurationError, StorageError
    from limits.storage import storage_from_string

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
