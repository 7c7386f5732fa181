"""The reactome profile behind a load balancer: a handoff made by one process, redeemed by another.

Both are real ``citeline serve --wire reactome`` processes configured as a React-to-Me
operator would configure them, by upstream's variable names (``CALLER_TOKEN_PUBLIC_KEY_PATH``,
``ANSWER_RATE_LIMIT``) and tokens minted for upstream's audience, sharing one PostgreSQL.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from tests.support.event_streams import post_stream
from tests.support.server_processes import running

from citeline.server.tokens import mint_token

QUESTION = "What do caspases do during apoptosis?"


def test_a_handoff_made_by_one_server_is_redeemed_by_the_other(
    shared_env: dict[str, str], key_pair: tuple[bytes, Path], tmp_path: Path
) -> None:
    env = {key: value for key, value in shared_env.items() if key != "CITELINE_CALLER_KEY_FILE"}
    env.update(
        {
            "CITELINE_WIRE": "reactome",
            "CALLER_TOKEN_PUBLIC_KEY_PATH": shared_env["CITELINE_CALLER_KEY_FILE"],
            "ANSWER_RATE_LIMIT": "2",
            # Per process, so the limit's count is this test's alone (see the end).
            "CITELINE_RATE_LIMIT_STORAGE": "memory://",
        }
    )

    def token(sub: str) -> str:
        return mint_token(
            key_pair[0], subject=sub, ttl_seconds=300, audience="reactome-chatbot", now=time.time()
        )

    with running(env, tmp_path, 2) as (first, second), httpx.Client() as client:
        answer = post_stream(
            client,
            f"{first.url}/chat/api/answer",
            {"question": QUESTION, "caller_token": token("r1")},
        )
        assert answer.start() == {"release": None, "answered": True}
        assert "R-HSA-109581" in {p.get("st_id") for n, p in answer.events if n == "citation"}
        answer_id = answer.done()["answer_id"]

        made = client.post(
            f"{second.url}/api/handoff",
            json={"kind": "search", "answer_id": answer_id, "caller_token": token("r1")},
        )
        assert made.status_code == 200, made.text
        handoff = made.json()
        for server in (first, second):
            redeemed = client.get(f"{server.url}/api/handoff/{handoff['id']}")
            assert redeemed.status_code == 200
            assert redeemed.json()["text"] == answer.text()

        # ANSWER_RATE_LIMIT=2 was read: after r1's answer, `first` allows r1 one more request.
        # (Each process counts in memory here; a shared count is test_two_servers's subject.)
        body = {"kind": "search", "answer_id": answer_id, "caller_token": token("r1")}
        assert client.post(f"{first.url}/api/handoff", json=body).status_code == 200
        over = client.post(f"{first.url}/api/handoff", json=body)
        assert (over.status_code, over.json()) == (429, {"reason": "rate_limited"})
