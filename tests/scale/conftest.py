"""Fixtures of the scale tests: one PostgreSQL corpus, one Redis, and signed caller tokens.

Needs ``CITELINE_TEST_POSTGRES_URL`` and ``CITELINE_TEST_REDIS_URL`` (``.ci/services start``);
without them every test here is skipped with a reason that says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from citeline.corpus import Corpus
from citeline.server.tokens import generate_key_pair, mint_token

COLLECTION = Path(__file__).parent / "fixtures" / "collection"


@pytest.fixture
def key_pair(tmp_path: Path) -> tuple[bytes, Path]:
    """A site's Ed25519 signing key, and the file holding its public half."""
    pair = generate_key_pair()
    public = tmp_path / "public.pem"
    public.write_bytes(pair.public_pem)
    return pair.private_pem, public


@pytest.fixture
def shared_env(postgres_url: str, redis_url: str, key_pair: tuple[bytes, Path]) -> dict[str, str]:
    """The settings every server of one test shares: database, rate-limit storage, key."""
    with Corpus.open(postgres_url) as corpus:
        report = corpus.ingest(COLLECTION, release="scale-1")
        assert report.ok and report.added == 3
    return {
        "CITELINE_DATABASE_URL": postgres_url,
        "CITELINE_RATE_LIMIT_STORAGE": redis_url,
        "CITELINE_CALLER_KEY_FILE": str(key_pair[1]),
        "CITELINE_MODEL": "embedded",
        "CITELINE_LOG_FORMAT": "json",
    }


@pytest.fixture
def token(key_pair: tuple[bytes, Path]) -> Callable[[str], str]:
    """``token(sub)``: a caller token signed by the key the servers trust."""
    private = key_pair[0]

    def make(sub: str) -> str:
        return mint_token(
            private, subject=sub, ttl_seconds=300, audience="citeline", now=time.time()
        )

    return make
