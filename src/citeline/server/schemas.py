"""The JSON bodies of the HTTP API, as pydantic models (and so as the OpenAPI schema).

Request models are the validation: a body that breaks them gets 422 before anything
else runs. Response models document the JSON the read-only endpoints return. The event
stream itself is specified in ``contracts/answer_endpoint.md``, not here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from citeline.conversation import Profile, Role
from citeline.server.store import Conversation, ConversationMessage, StoredAnswer

# The search page sends what a reader typed; 2,000 characters is several paragraphs,
# and longer bodies are almost always pasted documents or abuse.
MAX_QUESTION_CHARS = 2000
# A caller token is a few hundred characters; the bound keeps a hostile body from making
# the guard hash megabytes.
MAX_TOKEN_CHARS = 8192
# Ids are 24 characters; the bound only stops absurd path or body values early.
MAX_ID_CHARS = 64
# Stored ids are secrets.token_urlsafe; anything else names nothing, and a NUL in one gave a
# 500 from PostgreSQL, so it is refused with the other malformed input.
ID_PATTERN = r"^[A-Za-z0-9_-]+$"


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must contain something other than whitespace")
    return value


class AnswerRequest(BaseModel):
    """``POST /v1/answer``."""

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    caller_token: str = Field(default="", max_length=MAX_TOKEN_CHARS)
    profile: Profile = "search"

    _question_not_blank = field_validator("question")(_not_blank)


class ChatRequest(BaseModel):
    """``POST /v1/chat``: a new conversation, one opened on a stored answer, or a follow-up."""

    message: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    conversation_id: str | None = Field(
        default=None, min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN
    )
    answer_id: str | None = Field(
        default=None, min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN
    )
    caller_token: str = Field(default="", max_length=MAX_TOKEN_CHARS)

    _message_not_blank = field_validator("message")(_not_blank)

    @model_validator(mode="after")
    def _one_opening(self) -> ChatRequest:
        if self.conversation_id is not None and self.answer_id is not None:
            raise ValueError(
                "give conversation_id to continue a conversation, or answer_id to open one "
                "on a stored answer, not both"
            )
        return self


class NotFound(BaseModel):
    """404 body: the one key ``reason``, ``no_answer`` or ``no_conversation``."""

    reason: Literal["no_answer", "no_conversation"]


def _timestamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class AnswerRecord(BaseModel):
    """``GET /v1/answers/{id}``: an answer exactly as it was streamed."""

    id: str
    question: str
    text: str
    citations: list[dict[str, Any]]
    release: str | None
    created_at: str

    @classmethod
    def of(cls, answer: StoredAnswer) -> AnswerRecord:
        return cls(
            id=answer.id,
            question=answer.question,
            text=answer.text,
            citations=[citation.payload() for citation in answer.citations],
            release=answer.release,
            created_at=_timestamp(answer.created_at),
        )


class MessageRecord(BaseModel):
    role: Role
    text: str
    citations: list[dict[str, Any]]

    @classmethod
    def of(cls, message: ConversationMessage) -> MessageRecord:
        return cls(
            role=message.role,
            text=message.text,
            citations=[citation.payload() for citation in message.citations],
        )


class ConversationRecord(BaseModel):
    """``GET /v1/conversations/{id}``: every message so far, answers as they were streamed."""

    id: str
    messages: list[MessageRecord]
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, conversation: Conversation) -> ConversationRecord:
        return cls(
            id=conversation.id,
            messages=[MessageRecord.of(message) for message in conversation.messages],
            created_at=_timestamp(conversation.created_at),
            updated_at=_timestamp(conversation.updated_at),
        )


class SearchResult(BaseModel):
    """One passage from ``GET /v1/search``; ``start``/``end`` locate it in its document."""

    id: str
    title: str
    snippet: str
    url: str | None
    start: int
    end: int


class ServerInfo(BaseModel):
    """``GET /v1/info``: what the page shows beside answers and how it links sources."""

    model: str
    release: str | None
    open: bool
    link_template: str | None
    # For the empty page: what the collection is called (CITELINE_COLLECTION_NAME, else the
    # site's own name read at ingest), how many documents it holds, and example questions
    # (CITELINE_EXAMPLES, else a few of the collection's headings as questions).
    collection: str | None = None
    documents: int = 0
    examples: list[str] = []
    # The rate limit a refused reader waits out: answers per window, the window in seconds,
    # so a page can say when to try again (the refusal itself never says why it happened).
    rate_limit: int
    rate_window: int
    # How searches run here: "lexical" (by words), "dense" (by meaning) or "hybrid" (both),
    # the collection's recorded mode, or words where this machine cannot search it so.
    retrieval: str = "lexical"


class Health(BaseModel):
    status: Literal["ok"]


# A snippet is a glance, not the passage: about two lines of a results list.
SNIPPET_CHARS = 240


_CODE_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|])")


def snippet_of(text: str) -> str:
    """The passage's start, cut at a word boundary near ``SNIPPET_CHARS``, marked when cut.

    Snippets are shown as plain text, so Markdown's code fences and backslash escapes,
    which read as noise there ("```python >>> 1.2 - 1.0"), are taken out; the code stays.
    """
    plain = _MARKDOWN_ESCAPE.sub(r"\1", _CODE_FENCE.sub("", text))
    flat = " ".join(plain.split())
    if len(flat) <= SNIPPET_CHARS:
        return flat
    cut = flat.rfind(" ", 0, SNIPPET_CHARS)
    return flat[: cut if cut > SNIPPET_CHARS // 2 else SNIPPET_CHARS].rstrip() + "…"
