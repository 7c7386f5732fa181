"""Model providers behind one interface: the embedded offline model and real ones.

``resolve_model(spec)`` turns the one model setting into a ``ModelHandle``;
``stream_turn`` runs one user turn of citeline's tool loop (``tool_loop``) with it
and yields text. The embedded model runs in that loop directly
(``embedded.session``); real providers reach it through the model library
(pydantic-ai), imported only by ``pydantic_ai_adapter`` and only when a real
provider's turn runs or ``load_model_library`` asks for it (a server does, at
start-up), so importing this package stays light. This package knows
nothing of the corpus or of HTTP: tools arrive as ``ToolSpec``s.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from contextlib import AbstractContextManager

from citeline.models.spec import (
    DEFAULT_MODEL,
    MODEL_ENV,
    ModelHandle,
    ModelSpecError,
    ToolUse,
    resolve_model,
)
from citeline.models.turn import (
    ChatMessage,
    FirstResult,
    ModelServerError,
    RequestObserver,
    Similarity,
    StoredSimilarity,
    ToolReply,
    ToolSpec,
    TurnContent,
    TurnReport,
)


def load_model_library(handle: ModelHandle) -> None:
    """Import the model library and ``handle``'s provider SDK now, connecting nowhere, so
    the first turn does not pay for it (a server calls this before it listens). The
    embedded model runs without the library, so for it only its own loop is loaded."""
    if handle.provider == "embedded":
        import citeline.models.embedded.session  # noqa: F401

        return
    from citeline.models import pydantic_ai_adapter

    pydantic_ai_adapter.load_provider(handle)


def embedded_features() -> tuple[str, ...]:
    """The names of the embedded model's fitted features, each of which
    ``embedded_without`` can switch off (docs/models.md lists what each measures)."""
    from citeline.models.embedded.features import FEATURES

    return FEATURES


def embedded_without(features: Sequence[str]) -> AbstractContextManager[object]:
    """Within it, the embedded model answers with ``features`` switched off (their values
    count 0, the fitted weights unchanged): what ``citeline eval citations --ablate`` runs.
    A name not in ``embedded_features()`` switches nothing off; the caller checks."""
    from citeline.models.embedded.tuning import current_tuning, use_tuning

    return use_tuning(current_tuning().without(*features))


def texts_read_for_meaning(title: str, text: str) -> list[str]:
    """The texts beyond its title-and-opening the embedded model may read a section by, for
    meaning, when it reads the section's ``text`` under its ``title``
    (``citeline.models.embedded.meaning_texts``)."""
    from citeline.models.embedded.meaning_texts import texts_read_for_meaning as read

    return read(title, text)


def quotable(text: str) -> bool:
    """Whether the embedded model could quote anything of a section whose whole text is
    ``text``: one shorter than its shortest citable passage (``min_passage_chars``) is a
    pointer ("See argument."), never an answer."""
    from citeline.models.embedded.tuning import current_tuning

    return len(text.strip()) >= current_tuning().min_passage_chars


def stream_turn(
    handle: ModelHandle,
    *,
    instructions: str,
    question: str,
    history: Sequence[ChatMessage] = (),
    tools: Sequence[ToolSpec] = (),
    on_request: RequestObserver | None = None,
    similarity: Similarity | None = None,
    first_result: FirstResult | None = None,
    report: TurnReport | None = None,
) -> AsyncGenerator[str, None]:
    """Run one user turn of the tool loop with ``handle`` and yield its text fragments.

    ``similarity`` lets the embedded model read for meaning as well as for words (real
    models read for meaning already, and ignore it). ``first_result`` is a tool result the
    server got before the first request (its own search), which a real provider is sent
    first; the embedded model searches first by design and never needs it. ``report`` is
    told how a real provider's reply ended (``TurnReport.cut``). A real provider's failure
    raises ``ModelServerError``.

    Close the iterator (``contextlib.aclosing``) when done with it early, so the
    model call ends with it.
    """
    if handle.provider == "embedded":
        from citeline.models.embedded.session import EmbeddedSession
        from citeline.models.tool_loop import run_turn

        session = EmbeddedSession(question, history, tools, similarity)
        return run_turn(session, tools, on_request=on_request)
    from citeline.models import pydantic_ai_adapter

    return pydantic_ai_adapter.stream_turn(
        handle,
        instructions=instructions,
        question=question,
        history=history,
        tools=tools,
        on_request=on_request,
        first_result=first_result,
        report=report,
    )


__all__ = [
    "DEFAULT_MODEL",
    "MODEL_ENV",
    "ChatMessage",
    "FirstResult",
    "ModelHandle",
    "ModelServerError",
    "ModelSpecError",
    "RequestObserver",
    "Similarity",
    "StoredSimilarity",
    "ToolReply",
    "ToolSpec",
    "ToolUse",
    "TurnContent",
    "TurnReport",
    "embedded_features",
    "embedded_without",
    "load_model_library",
    "quotable",
    "resolve_model",
    "stream_turn",
    "texts_read_for_meaning",
]
