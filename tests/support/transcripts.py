"""The recorded exchanges of a real small model with citeline, read for replay.

``../shared/data/real-model-transcripts/transcripts.jsonl`` (its README says how they were
recorded): each line is one HTTP exchange, its request body as citeline sent it and the
server's raw response (server-sent events, or an error body). ``Exchange`` keeps what a
replay needs: the question, the reply's text and finish reason as the wire carried them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

TRANSCRIPTS = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "data"
    / "real-model-transcripts"
    / "transcripts.jsonl"
)


@dataclass(frozen=True)
class Exchange:
    """One recorded request and the server's answer to it."""

    tag: str
    status: int
    request: dict[str, Any]
    response: str

    @property
    def question(self) -> str:
        users = [m["content"] for m in self.request.get("messages", ()) if m["role"] == "user"]
        return str(users[-1]) if users else ""

    @property
    def had_tool_result(self) -> bool:
        return any(m["role"] == "tool" for m in self.request.get("messages", ()))

    @property
    def text(self) -> str:
        """The reply's text, as its content deltas spell it."""
        return "".join(
            choice.get("delta", {}).get("content") or ""
            for chunk in self._chunks()
            for choice in chunk.get("choices", ())
        )

    @property
    def finish_reason(self) -> str | None:
        reasons = [
            choice["finish_reason"]
            for chunk in self._chunks()
            for choice in chunk.get("choices", ())
            if choice.get("finish_reason")
        ]
        return reasons[-1] if reasons else None

    @property
    def calls_tools(self) -> bool:
        return any(
            choice.get("delta", {}).get("tool_calls")
            for chunk in self._chunks()
            for choice in chunk.get("choices", ())
        )

    def reply(self) -> dict[str, Any]:
        """The scripted server's reply that plays this exchange back as it was."""
        return {"status": self.status, "raw": self.response}

    def _chunks(self) -> list[dict[str, Any]]:
        if self.status != 200:
            return []
        chunks = []
        for line in self.response.splitlines():
            if line.startswith("data: ") and line[6:].strip() != "[DONE]":
                try:
                    chunks.append(json.loads(line[6:]))
                except ValueError:
                    continue
        return chunks


@cache
def exchanges() -> tuple[Exchange, ...]:
    """Every recorded exchange, in order; empty when the shared data is not beside the repo."""
    if not TRANSCRIPTS.exists():
        return ()
    found = []
    for line in TRANSCRIPTS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        request = json.loads(row["request"]) if row["request"] else {}
        found.append(Exchange(row["tag"], row["status"], request, row["response"]))
    return tuple(found)


def answers() -> list[Exchange]:
    """The recorded replies that answered in text (not a tool call), one per distinct
    question and text."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for exchange in exchanges():
        if exchange.status != 200 or exchange.calls_tools or not exchange.text.strip():
            continue
        key = (exchange.question, exchange.text)
        if key not in seen:
            seen.add(key)
            kept.append(exchange)
    return kept


def tagged(tag: str) -> list[Exchange]:
    return [exchange for exchange in exchanges() if exchange.tag == tag]
