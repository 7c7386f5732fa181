"""Which model answers: the one setting (``--model`` / ``CITELINE_MODEL``) parsed into a handle.

A ``ModelHandle`` is plain data naming a provider and a model; turning it into a
client is the adapter's job (``pydantic_ai_adapter``), so this module imports no
model library and opens no connection. It checks only what a user can fix before
the first question: the spelling of the setting and the environment it needs.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Literal, TypeAlias
from urllib.parse import parse_qsl

from citeline.errors import CitelineError

Provider: TypeAlias = Literal["embedded", "openai", "ollama", "anthropic"]
# Whether the model is offered tools: ``auto`` (it may call them; the server still searches
# first), or ``none`` for a server that cannot call tools (llama-cpp-python's ``chatml``
# format drops them, its ``chatml-function-calling`` refuses a streamed ``auto``): the
# server's own search is then the only tool result, sent in the user's message.
ToolUse: TypeAlias = Literal["auto", "none"]
TOOL_USES: tuple[ToolUse, ...] = ("auto", "none")

DEFAULT_MODEL = "embedded"
MODEL_ENV = "CITELINE_MODEL"
# Ollama's OpenAI-compatible endpoint on its default port, used when OLLAMA_BASE_URL is unset.
DEFAULT_OLLAMA_BASE_URL = "http://localhost:11434/v1"

# The least corpus text an answer may be given: about one passage.
MIN_CONTEXT_TOKENS = 200

_PROVIDERS: tuple[Provider, ...] = ("openai", "ollama", "anthropic")


class ModelSpecError(CitelineError, ValueError):
    """The model setting cannot be used; the message says what to change."""


@dataclass(frozen=True, slots=True)
class ModelHandle:
    """A selected model: ``spec`` as the user wrote it, ``name`` for display.

    ``name`` is public (the server shows it under every answer and in ``/v1/info``), so it
    names the model and its kind and never where it runs: an internal model server's
    address there told every reader where to find it. ``base_url`` is fixed when the
    handle is resolved, so a handle means the same server for its whole life; API keys
    are read by the adapter and never held here, so a handle can be printed and logged.
    ``max_tokens``, when set, is sent to the provider as the most a reply may hold.
    ``extractive`` marks a model that writes only text it cites, so an answer of its that
    cites nothing found nothing. ``tools`` is ``auto`` or ``none`` (``?tools=none`` after
    the model's name in the setting). ``context_tokens``, when set, bounds the corpus text
    the agent gives the model in one answer (the agent's default otherwise).

    What the model can do is asked of the handle (``extractive``, ``runs_in_process``,
    ``reads_for_meaning``, ``searches_first``), never read from its provider's name, so the
    agent and the server branch on a capability and a new provider states its own.
    """

    spec: str
    provider: Provider
    model_name: str
    name: str
    base_url: str | None = None
    extractive: bool = False
    max_tokens: int | None = None
    tools: ToolUse = "auto"
    context_tokens: int | None = None

    @property
    def runs_in_process(self) -> bool:
        """Its work up to an answer's first token is this process's CPU alone, with no
        provider to wait on (the embedded model): the server admits such answers a few at a
        time, and a tool's hand-off to a worker thread would cost more than the search."""
        return self.provider == "embedded"

    @property
    def reads_for_meaning(self) -> bool:
        """It ranks what it reads by the sentence model's similarity when given one
        (``stream_turn``'s ``similarity``); a real model reads for meaning already."""
        return self.provider == "embedded"

    @property
    def searches_first(self) -> bool:
        """It calls search itself before it writes, over whatever the search returns. A model
        that does not (a real one: 13 of 13 recorded questions answered from memory) is sent
        the server's own first search, and its corpus text is bounded by a token budget that
        fits its context window."""
        return self.provider == "embedded"


EMBEDDED = ModelHandle(
    spec="embedded",
    provider="embedded",
    model_name="embedded",
    name="embedded (extractive, offline)",
    extractive=True,
)


def resolve_model(
    spec: str | None = None, *, max_tokens: int | None = None, context_tokens: int | None = None
) -> ModelHandle:
    """The handle for ``spec``, or for ``CITELINE_MODEL`` when ``spec`` is ``None``.

    ``"embedded"`` (the default), ``"openai:<model>"``, ``"ollama:<model>"`` or
    ``"anthropic:<model>"``, each optionally followed by ``?tools=none`` (a server that
    cannot call tools: it is given the server's search results and no tools). Raises
    ``ModelSpecError`` for anything else, and for a provider whose key or address is
    missing from the environment. ``max_tokens`` bounds each reply of a real provider (the
    embedded model writes short answers by design); ``context_tokens`` bounds the corpus
    text the agent gives it in one answer.
    """
    handle = _resolve(spec)
    if max_tokens is not None:
        if max_tokens < 1:
            raise ModelSpecError(f"max_tokens={max_tokens} must be at least 1.")
        handle = dataclasses.replace(handle, max_tokens=max_tokens)
    if context_tokens is not None:
        if context_tokens < MIN_CONTEXT_TOKENS:
            raise ModelSpecError(
                f"context_tokens={context_tokens} leaves no room for a passage: give at "
                f"least {MIN_CONTEXT_TOKENS}."
            )
        handle = dataclasses.replace(handle, context_tokens=context_tokens)
    return handle


def _resolve(spec: str | None) -> ModelHandle:
    if spec is None:
        spec = os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL
    spec = spec.strip()
    if spec == "embedded":
        return EMBEDDED
    provider, sep, model_name = spec.partition(":")
    if not sep or provider not in _PROVIDERS:
        raise ModelSpecError(
            f"Unknown model {spec!r}: use 'embedded' (offline, no key), 'openai:<model>', "
            "'ollama:<model>' or 'anthropic:<model>'."
        )
    model_name, _, options = model_name.strip().partition("?")
    tools = _tool_use(spec, options)
    model_name = model_name.strip()
    if not model_name:
        raise ModelSpecError(
            f"The model setting {spec!r} names no model: write it as '{provider}:<model>', "
            f"for example '{_EXAMPLES[provider]}'."
        )
    if provider == "openai":
        handle = _openai(spec, model_name)
    elif provider == "ollama":
        base_url = os.environ.get("OLLAMA_BASE_URL", "").strip() or DEFAULT_OLLAMA_BASE_URL
        handle = ModelHandle(spec, "ollama", model_name, f"{model_name} (Ollama)", base_url)
    elif not os.environ.get("ANTHROPIC_API_KEY", "").strip():
        raise ModelSpecError(
            f"The model {spec!r} needs an Anthropic API key: set ANTHROPIC_API_KEY, "
            "or choose --model embedded to answer offline."
        )
    else:
        handle = ModelHandle(spec, "anthropic", model_name, f"{model_name} (Anthropic)")
    return dataclasses.replace(handle, tools=tools)


def _tool_use(spec: str, options: str) -> ToolUse:
    """The ``tools`` option of a setting (``openai:NAME?tools=none``); ``auto`` when absent."""
    tools: ToolUse = "auto"
    for key, value in parse_qsl(options, keep_blank_values=True):
        if key != "tools" or value not in TOOL_USES:
            raise ModelSpecError(
                f"The model setting {spec!r} has an option citeline does not know "
                f"({key}={value}): the one option is tools=auto or tools=none, as in "
                "'openai:qwen2.5?tools=none' for a server that cannot call tools."
            )
        tools = "none" if value == "none" else "auto"
    return tools


_EXAMPLES: dict[str, str] = {
    "openai": "openai:gpt-4o-mini",
    "ollama": "ollama:llama3.1",
    "anthropic": "anthropic:claude-sonnet-4-5",
}


def _openai(spec: str, model_name: str) -> ModelHandle:
    base_url = os.environ.get("OPENAI_BASE_URL", "").strip() or None
    # An OpenAI-compatible server (vLLM, llama.cpp) often needs no key; OpenAI itself always does.
    if base_url is None and not os.environ.get("OPENAI_API_KEY", "").strip():
        raise ModelSpecError(
            f"The model {spec!r} needs OPENAI_API_KEY, or OPENAI_BASE_URL pointing at an "
            "OpenAI-compatible server (vLLM, llama.cpp); or choose --model embedded to answer "
            "offline."
        )
    return ModelHandle(spec, "openai", model_name, f"{model_name} (OpenAI-compatible)", base_url)
