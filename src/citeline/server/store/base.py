"""The interface of the answer, conversation and handoff stores, and the records they hold.

An answer is stored exactly as it was streamed (text and citations), so "Continue in
chat" opens on what the reader saw, never on a regeneration. A handoff (the reactome
profile's "Continue in chat") holds a copy of one stored answer under an id of its own.
Every store forgets entries after a time-to-live and keeps at most a bounded number,
dropping the oldest first.

Every backend implements these two classes and passes the same tests; this module holds
no storage code itself.
"""

from __future__ import annotations

import hashlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citeline.conversation import Role
from citeline.errors import CitelineError
from citeline.events import Citation

# 18 random bytes are 24 URL-safe characters: 144 bits, so ids cannot be guessed or
# enumerated, which is what keeps GET /v1/answers/{id} safe to leave unguarded.
_ID_BYTES = 18


def new_id() -> str:
    """A random URL-safe id of 24 characters."""
    return secrets.token_urlsafe(_ID_BYTES)


class StoreUnavailableError(CitelineError):
    """The store could not be reached (its database is down or restarting).

    Raised by every backend for an outage, never for a missing entry, so the endpoints
    can end a request softly (a ``failed`` stream, a 503) instead of with a 500.
    """


# Its name before every error was called ``...Error``, kept so that code written against it
# still runs.
StoreUnavailable = StoreUnavailableError


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """One answer as the reader saw it."""

    id: str
    question: str
    text: str
    citations: tuple[Citation, ...]
    release: str | None
    created_at: float

    @classmethod
    def fresh(
        cls,
        *,
        question: str,
        text: str,
        citations: Sequence[Citation],
        release: str | None,
        created_at: float,
    ) -> StoredAnswer:
        """A new answer under a fresh random id: what every backend's ``add`` stores."""
        return cls(new_id(), question, text, tuple(citations), release, created_at)


@dataclass(frozen=True, slots=True)
class ConversationMessage:
    """One message of a conversation; an assistant message keeps the citations it streamed."""

    role: Role
    text: str
    citations: tuple[Citation, ...] = ()


def owner_key(identity: str) -> str:
    """What a conversation keeps of the identity that opened it: a digest, so the store holds
    no reader's address or subject, only enough to tell whether the next caller is the same."""
    return hashlib.sha256(identity.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation and whose it is: ``owner`` is the ``owner_key`` of the identity (the
    guard's: token subject, or client address in open mode) that opened it; ``""`` for one
    stored before conversations had owners, which nobody may continue."""

    id: str
    messages: tuple[ConversationMessage, ...]
    created_at: float
    updated_at: float
    owner: str = ""

    @classmethod
    def fresh(
        cls, messages: Sequence[ConversationMessage], now: float, *, owner: str
    ) -> Conversation:
        """A new conversation under a fresh random id: what every backend's ``create`` stores."""
        return cls(new_id(), tuple(messages), now, now, owner)

    def is_owned_by(self, identity: str) -> bool:
        return bool(self.owner) and self.owner == owner_key(identity)


@dataclass(frozen=True, slots=True)
class Handoff:
    """A stored answer handed to a chat page: a copy, so the chat opens on what the reader
    saw even if the answer store has dropped the answer since."""

    id: str
    answer: StoredAnswer
    created_at: float

    @classmethod
    def fresh(cls, answer: StoredAnswer, created_at: float) -> Handoff:
        """A new handoff of ``answer`` under a fresh random id: what every backend stores."""
        return cls(new_id(), answer, created_at)


class AnswerStore(ABC):
    """Answers by id, kept for a time-to-live, at most a bounded number, oldest dropped first."""

    @abstractmethod
    async def add(
        self,
        *,
        question: str,
        text: str,
        citations: Sequence[Citation],
        release: str | None,
    ) -> StoredAnswer:
        """Store a new answer under a fresh id and return it."""

    @abstractmethod
    async def get(self, answer_id: str) -> StoredAnswer | None:
        """The answer, or None when it never existed or has expired."""


class ConversationStore(ABC):
    """Conversations by id, kept for a time-to-live after their last message, bounded."""

    @abstractmethod
    async def create(
        self, messages: Sequence[ConversationMessage], *, identity: str
    ) -> Conversation:
        """A new conversation holding ``messages`` (possibly none), owned by ``identity``."""

    @abstractmethod
    async def get(self, conversation_id: str) -> Conversation | None:
        """The conversation, or None when it never existed or has expired."""

    @abstractmethod
    async def append(
        self, conversation_id: str, messages: Sequence[ConversationMessage]
    ) -> Conversation | None:
        """Add ``messages`` at the end; None when the conversation has gone meanwhile."""


class HandoffStore(ABC):
    """Handoffs by id, redeemable any number of times until their time-to-live has passed."""

    @abstractmethod
    async def add(self, answer: StoredAnswer) -> Handoff:
        """Store a new handoff of ``answer`` under a fresh id and return it."""

    @abstractmethod
    async def get(self, handoff_id: str) -> Handoff | None:
        """The handoff, or None when it never existed or its time-to-live has passed."""


class RateHits(ABC):
    """Answers started per caller, counted where every server process on the database sees
    them: a moving window, exact however many processes count at once."""

    @abstractmethod
    async def hit(self, identity: str, *, limit: int, window_seconds: float) -> bool:
        """Count one answer for ``identity`` when fewer than ``limit`` were counted in the
        last ``window_seconds``, and say whether it was; nothing is counted otherwise."""


@dataclass(frozen=True, slots=True)
class Retention:
    """How long entries live (seconds) and how many are kept at most."""

    ttl_seconds: float
    max_entries: int


@dataclass(frozen=True, slots=True)
class Stores:
    """The stores of one backend, and how to release what they hold open.

    ``handoffs`` is None unless the stores were opened to keep them (the reactome profile
    does); that profile refuses to start on stores without one. ``rate_hits`` counts the
    rate limit in the database, shared by every process on it (None: stores that cannot).
    """

    answers: AnswerStore
    conversations: ConversationStore
    close: Callable[[], None]
    handoffs: HandoffStore | None = None
    rate_hits: RateHits | None = None
