"""What one model turn is given, in our own terms: the conversation so far and the tools.

These types are the boundary between the agent and the model layer. They carry
no model library's types, so the agent builds them without importing one; the
adapter (``pydantic_ai_adapter``) translates them. This module runs nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from citeline.conversation import Role
from citeline.errors import CitelineError


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One earlier message of a conversation, as its reader saw it."""

    role: Role
    text: str


@dataclass(frozen=True, slots=True)
class ToolReply:
    """What a tool call gives back.

    ``value`` is sent to the model. ``metadata`` stays with the result in the run's
    history and is never sent. ``error`` set means the call failed: the model is sent
    that message as an error result instead of ``value``, and the run goes on.
    """

    value: object
    metadata: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None


ToolCall = Callable[[dict[str, Any]], Awaitable[ToolReply]]


@dataclass(frozen=True, slots=True)
class FirstResult:
    """A tool result the server got before the first model request: the question's search.

    A model that can call tools is sent it as its own call's result (so it reads like any
    other and may search again); one that cannot (``tools=none``) reads it in the user's
    message. Either way its metadata (the provenance tag) is never sent.
    """

    tool: str
    args: Mapping[str, Any]
    reply: ToolReply
    # What introduces the result where it rides in the user's message (the agent's prompt
    # file: this layer holds no prompt wording).
    lead: str = ""


@dataclass(slots=True)
class TurnReport:
    """What a turn's provider said about how it ended, beside its text: filled in by the
    model layer while the turn runs, read by the agent when it is over. ``cut`` is set when
    the provider stopped the reply at its token limit (``finish_reason: "length"``), so
    the answer is not whole."""

    cut: bool = False


class ModelServerError(CitelineError):
    """The model server failed to answer (refused the request, broke the stream, could not
    be reached). The message is one sentence a user can act on, naming no key."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the model is offered it: name, description, JSON schema of its arguments,
    and what the description says as data (``facts``: the data tools give
    ``citeline.data.facts.DataFacts``) for a model that reads structure, not prose; a real
    model is sent the description and never the facts."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    call: ToolCall
    facts: object = None


TurnContent = Literal["text", "tool_result"]
"""What a model request holds, reduced to what decides turn boundaries."""

RequestObserver = Callable[[tuple[TurnContent, ...]], None]
"""Told, before each model request, what the newest request message holds."""


class Similarity(Protocol):
    """How alike in meaning a question is to each of some texts, one number per text (cosine
    similarity of sentence embeddings, -1 to 1), each the same whatever texts stand beside
    it. The embedded model reads with it when the agent gives one (the ``citeline[dense]``
    extra installed); it never loads one itself. ``exact`` is kept for callers that say
    which texts they only choose among (a section's paragraphs, ``exact=False``): every
    text is now read in the one arithmetic, so it changes nothing."""

    def __call__(
        self, question: str, texts: Sequence[str], *, exact: bool = True
    ) -> Sequence[float]: ...


@runtime_checkable
class StoredSimilarity(Similarity, Protocol):
    """A ``Similarity`` that also reads the vectors dense retrieval stored for a collection's
    passages: ``passages`` gives, for each section id, the question's cosine with the likest
    of that section's passages (what dense retrieval scored it by), ``None`` for a section
    with none stored (a lexical collection's, or an id the collection lacks)."""

    def passages(self, question: str, ids: Sequence[str | None]) -> Sequence[float | None]: ...
