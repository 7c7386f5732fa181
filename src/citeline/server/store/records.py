"""Stored records as plain JSON data and back: the one encoding every store backend uses.

Citations keep exactly the payload their event carried, so an answer read back streams the
same ``citation`` events it streamed the first time. Deliberately not here: where the data
is written (each backend module) or how long it is kept (``base.Retention``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeline.events import Citation, from_json
from citeline.server.store.base import ConversationMessage


def citations_to_data(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    return [citation.payload() for citation in citations]


def citations_from_data(payloads: Sequence[dict[str, Any]]) -> tuple[Citation, ...]:
    citations: list[Citation] = []
    for payload in payloads:
        event = from_json("citation", payload)
        assert isinstance(event, Citation)
        citations.append(event)
    return tuple(citations)


def messages_to_data(messages: Sequence[ConversationMessage]) -> list[dict[str, Any]]:
    return [
        {
            "role": message.role,
            "text": message.text,
            "citations": citations_to_data(message.citations),
        }
        for message in messages
    ]


def messages_from_data(items: Sequence[dict[str, Any]]) -> tuple[ConversationMessage, ...]:
    return tuple(
        ConversationMessage(
            role=item["role"],
            text=item["text"],
            citations=citations_from_data(item["citations"]),
        )
        for item in items
    )
