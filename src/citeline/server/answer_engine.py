"""What the server asks for an answer: the ``AnswerEngine`` interface and its default.

The server depends on this small interface, not on the agent, so tests can put a double
in its place (one that counts its calls, or one that is slow on purpose) and a later
deployment can put anything that yields the same events. The default binds
``citeline.answer`` to one corpus and one model, and hands it the answer timeout so the
agent can flush the text it held before ending ``failed``. Deliberately not here: guards,
storing (the server's), prompts and the turn loop (the agent's).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Protocol

from citeline.conversation import Profile
from citeline.events import DEFAULT_MAX_CITATIONS, Event
from citeline.server.store import ConversationMessage

if TYPE_CHECKING:
    from citeline.corpus import Corpus
    from citeline.data import DataCatalog
    from citeline.models import ModelHandle
    from citeline.stream.sources_section import HeadingRule


class AnswerEngine(Protocol):
    """Answers one question, given the conversation so far, as a stream of events."""

    @property
    def model_name(self) -> str:
        """The name shown beside answers, so an extractive model is never taken for an LLM."""
        ...

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]: ...


class CorpusAnswerEngine:
    """``citeline.answer`` over one corpus, and optionally a project's tables and measures,
    with one model: the engine ``citeline serve`` uses.

    Built at start-up, it imports the agent, the model library and the provider's SDK
    then: imported inside the first request, they held the event loop about 5 s, during
    which no other request, refusal or health check was answered.
    """

    def __init__(
        self,
        *,
        corpus: Corpus,
        model: ModelHandle,
        release: str | None,
        timeout_seconds: float | None = None,
        data: DataCatalog | None = None,
        max_citations: int = DEFAULT_MAX_CITATIONS,
        heading_rule: HeadingRule = "strict",
    ) -> None:
        self._corpus = corpus
        self._data = data
        self._model = model
        self._release = release
        self._timeout = timeout_seconds
        self._max_citations = max_citations
        self._heading_rule: HeadingRule = heading_rule
        import citeline.agent  # noqa: F401  (see the class docstring)
        from citeline.models import load_model_library

        load_model_library(model)
        # The sentence model the embedded model reads with, and a real model's answers are
        # attributed with, loads now (about a second), not on a reader's first question.
        from citeline.agent.meaning import embedded_similarity

        embedded_similarity()

    @property
    def model_name(self) -> str:
        return self._model.name

    @property
    def local(self) -> bool:
        """Whether an answer's work up to its first token is this process's CPU alone (the
        embedded model), with no provider to wait on."""
        return self._model.runs_in_process

    def answer(
        self, question: str, *, profile: Profile, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        from citeline import answer
        from citeline.agent import ChatMessage

        return answer(
            question,
            corpus=self._corpus,
            data=self._data,
            model=self._model,
            profile=profile,
            history=[ChatMessage(role=message.role, text=message.text) for message in history],
            release=self._release,
            timeout=self._timeout,
            max_citations=self._max_citations,
            heading_rule=self._heading_rule,
        )
