"""Rate limits in Redis: shared by processes, and closed, not open, while Redis is away.

A Redis of this test's own is started and stopped, so stopping it disturbs no other test.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from tests.support.server_processes import free_port

from citeline.server.rate_limit import LibraryRateLimiter


@contextmanager
def own_redis(port: int) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed; .ci/services start installs it")
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    try:
        for _ in range(100):
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield url
    finally:
        client.close()
        process.terminate()
        process.wait(10)


async def test_two_limiters_on_one_redis_share_one_budget(redis_url: str) -> None:
    first = LibraryRateLimiter(limit=2, window_seconds=60, storage_url=redis_url)
    second = LibraryRateLimiter(limit=2, window_seconds=60, storage_url=redis_url)
    assert [await first.hit("sub:r1"), await second.hit("sub:r1")] == [True, True]
    assert await first.hit("sub:r1") is False
    assert await second.hit("sub:r1") is False
    assert await second.hit("sub:r2") is True


async def test_while_redis_is_down_every_request_is_refused_and_counting_resumes_after(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    with own_redis(port) as url:
        limiter = LibraryRateLimiter(limit=5, window_seconds=60, storage_url=url)
        assert await limiter.hit("sub:r1") is True
    assert await limiter.hit("sub:r1") is False
    assert "rate-limit storage unreachable" in caplog.text
    with own_redis(port):
        assert await limiter.hit("sub:r1") is True
