"""Which client address a real ``citeline serve`` process believes, in open mode.

Open mode counts the rate limit per client address, so whoever can choose their address
can choose a fresh budget. uvicorn's defaults believed ``X-Forwarded-For`` from 127.0.0.1:
through a local port every spoofed address got its own budget. Forwarded headers now count
only from the proxies ``--forwarded-allow-ips`` names. Needs no PostgreSQL or Redis.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from tests.support.event_streams import post_stream
from tests.support.server_processes import running

from citeline.corpus import Corpus

QUESTION = {"question": "What is apoptosis?"}
COLLECTION = Path(__file__).parent / "fixtures" / "collection"


def _state(client: httpx.Client, url: str, forwarded_for: str) -> str:
    client.headers["x-forwarded-for"] = forwarded_for
    return str(post_stream(client, f"{url}/v1/answer", QUESTION).done()["state"])


def _open_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    # serve refuses an empty index, so the scale tests' small collection is indexed first.
    with Corpus.open(tmp_path / "citeline.db") as corpus:
        assert corpus.ingest(COLLECTION).ok
    return {
        "CITELINE_DB": str(tmp_path / "citeline.db"),
        "CITELINE_OPEN": "1",
        "CITELINE_RATE_LIMIT": "1",
        "CITELINE_LOG_FORMAT": "json",
        # uvicorn's own variable, which must not turn the headers back on behind our back.
        "FORWARDED_ALLOW_IPS": "*",
        **extra,
    }


def test_a_spoofed_forwarded_address_gets_no_fresh_budget(tmp_path: Path) -> None:
    with running(_open_env(tmp_path), tmp_path, 1) as (server,), httpx.Client() as client:
        assert _state(client, server.url, "203.0.113.1") != "refused"
        assert _state(client, server.url, "203.0.113.2") == "refused"
        assert _state(client, server.url, "198.51.100.7, 203.0.113.3") == "refused"


def test_a_named_proxy_is_believed_and_each_reader_behind_it_has_a_budget(
    tmp_path: Path,
) -> None:
    env = _open_env(tmp_path, CITELINE_FORWARDED_ALLOW_IPS="127.0.0.1")
    with running(env, tmp_path, 1) as (server,), httpx.Client() as client:
        assert _state(client, server.url, "203.0.113.1") != "refused"
        assert _state(client, server.url, "203.0.113.2") != "refused"
        assert _state(client, server.url, "203.0.113.1") == "refused"
