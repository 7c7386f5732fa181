"""Two ``citeline serve`` processes behind one PostgreSQL and one Redis act as one service.

Whichever process a load balancer picks, a reader's answer, conversation and rate-limit
budget are the same: these tests send consecutive requests of one reader to different
processes, as a round-robin balancer would.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from tests.support.event_streams import post_stream
from tests.support.server_processes import running

QUESTION = "What do caspases do during apoptosis?"


def test_an_answer_from_one_server_is_continued_in_chat_on_the_other(
    shared_env: dict[str, str], token: Callable[[str], str], tmp_path: Path
) -> None:
    with running(shared_env, tmp_path, 2) as (first, second), httpx.Client() as client:
        answer = post_stream(
            client, f"{first.url}/v1/answer", {"question": QUESTION, "caller_token": token("r1")}
        )
        done = answer.done()
        assert done["state"] == "answered", answer.events
        assert answer.start() == {"release": "scale-1"}
        cited = {p["id"] for n, p in answer.events if n == "citation"}
        assert "R-HSA-109581" in cited

        stored = client.get(f"{second.url}/v1/answers/{done['answer_id']}").json()
        assert stored["text"] == answer.text()

        chat = post_stream(
            client,
            f"{second.url}/v1/chat",
            {
                "message": "And which pathway releases cytochrome c?",
                "answer_id": done["answer_id"],
                "caller_token": token("r1"),
            },
        )
        assert chat.done()["state"] == "answered", chat.events
        conversation_id = chat.start()["conversation_id"]

        follow_up = post_stream(
            client,
            f"{first.url}/v1/chat",
            {
                "message": "What is necroptosis?",
                "conversation_id": conversation_id,
                "caller_token": token("r1"),
            },
        )
        assert follow_up.done()["state"] == "answered", follow_up.events
        conversation = client.get(
            f"{second.url}/v1/conversations/{conversation_id}",
            headers={"authorization": f"Bearer {token('r1')}"},
        ).json()
        messages = [(m["role"], m["text"]) for m in conversation["messages"]]
        assert messages[:2] == [("user", QUESTION), ("assistant", answer.text())]
        assert messages[2:] == [
            ("user", "And which pathway releases cytochrome c?"),
            ("assistant", chat.text()),
            ("user", "What is necroptosis?"),
            ("assistant", follow_up.text()),
        ]


def test_the_rate_limit_is_counted_once_across_both_servers(
    shared_env: dict[str, str], token: Callable[[str], str], tmp_path: Path
) -> None:
    env = {**shared_env, "CITELINE_RATE_LIMIT": "2"}
    with running(env, tmp_path, 2) as (first, second), httpx.Client() as client:

        def ask(server_url: str, sub: str) -> str:
            body = {"question": QUESTION, "caller_token": token(sub)}
            state: str = post_stream(client, f"{server_url}/v1/answer", body).done()["state"]
            return state

        assert [ask(first.url, "r1"), ask(first.url, "r1")] == ["answered", "answered"]
        assert ask(second.url, "r1") == "refused"
        assert ask(first.url, "r1") == "refused"
        assert ask(second.url, "r2") == "answered"
