"""The one module that speaks ``pydantic-ai``: a real provider's side of citeline's tool loop.

Everything crossing this module's edge is ours (``ModelHandle``, ``ChatMessage``,
``ToolSpec``, ``ToolReply``, text fragments); the library's message types and
providers stay inside. ``ProviderSession`` keeps one turn's conversation in the
library's message types and sends it with the library's streaming request API
(``pydantic_ai.direct.model_request_stream``): the library encodes the request,
speaks the provider's wire protocol and parses its stream; citeline's tool loop
(``tool_loop``) runs the tools. Each ``ToolReply``'s metadata stays in the
conversation's tool-return parts, where the library never sends it.

Why not the library's agent: measured with py-spy, its run machinery (event-stream
capabilities, cancel scopes and locks around every streamed fragment) cost more
CPU per fragment than everything citeline does with the fragment; see
``docs/benchmarks.md``. It does not decide what a tool returns, what the model is
told, or what becomes a citation: that is the agent's. Written against
pydantic-ai-slim 2.68.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import weakref
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any, Final, TypeVar, cast

import httpx2
import pydantic_core
from pydantic_ai.direct import model_request_stream
from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelRequestPart,
    ModelResponse,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model, ModelRequestParameters
from pydantic_ai.profiles import ModelProfile
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import ToolDefinition

from citeline.models.spec import ModelHandle
from citeline.models.tool_loop import ToolCall, run_turn
from citeline.models.turn import (
    ChatMessage,
    FirstResult,
    ModelServerError,
    RequestObserver,
    ToolReply,
    ToolSpec,
    TurnContent,
    TurnReport,
)

logger = logging.getLogger(__name__)

# How often the provider SDK sends a failed request again (HTTP 408, 409, 429, 5xx, a lost
# connection). The OpenAI SDK's own two retries sent one bad request three times to a
# local server that refused it the same way each time (a 500 for a null `content`, in the
# recorded transcripts); one retry still rides out a server restarting. Each is logged.
PROVIDER_RETRIES = 1
# The id of the server's own first search in the conversation the model is sent.
FIRST_CALL_ID = "citeline-search-0"


def stream_turn(
    handle: ModelHandle,
    *,
    instructions: str,
    question: str,
    history: Sequence[ChatMessage] = (),
    tools: Sequence[ToolSpec] = (),
    on_request: RequestObserver | None = None,
    first_result: FirstResult | None = None,
    report: TurnReport | None = None,
) -> AsyncGenerator[str, None]:
    """Run one user turn of the tool loop with a real provider and yield its text as it streams.

    ``first_result`` is the server's own search, in the conversation before the first
    request; ``report`` is told whether the provider cut the reply at its token limit.
    With ``handle.tools == "none"`` no tool is offered and the first result rides in the
    user's message.

    Call it inside the event loop that will read it (the client is that loop's). Raises
    whatever the provider or the loop raises (connection errors, the request limit);
    closing the iterator closes the provider's stream. The loop's own iterator is
    returned, not wrapped: every fragment of every answer passes here, and a generator
    that only re-yields costs a resumption each.
    """
    session = ProviderSession(
        _library_model(handle),
        settings=_model_settings(handle),
        instructions=instructions,
        question=question,
        history=history,
        tools=tools if handle.tools == "auto" else (),
        first_result=first_result,
        report=report,
    )
    return run_turn(session, tools, on_request=on_request)


class ProviderSession:
    """One user turn's conversation with a real provider, in the library's message types."""

    def __init__(
        self,
        model: Model,
        *,
        settings: ModelSettings | None = None,
        instructions: str,
        question: str,
        history: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        first_result: FirstResult | None = None,
        report: TurnReport | None = None,
    ) -> None:
        self._model = model
        self._settings = settings
        self._instructions = instructions
        self._report = report if report is not None else TurnReport()
        self._messages: list[ModelMessage] = [_library_message(m) for m in history]
        if first_result is not None and not tools:
            # A model offered no tools reads the server's search as part of the question.
            question = f"{question}\n\n{first_result.lead}\n{_as_text(first_result.reply)}"
        self._messages.append(
            ModelRequest(parts=[UserPromptPart(question)], instructions=instructions)
        )
        if first_result is not None and tools:
            call = ToolCall(FIRST_CALL_ID, first_result.tool, first_result.args)
            self._messages.append(
                ModelResponse(
                    parts=[
                        TextPart(""),
                        ToolCallPart(first_result.tool, dict(first_result.args), FIRST_CALL_ID),
                    ]
                )
            )
            self.add_results([(call, first_result.reply)])
        self._parameters = ModelRequestParameters(
            function_tools=[
                ToolDefinition(
                    name=spec.name,
                    description=spec.description,
                    parameters_json_schema=dict(spec.parameters),
                )
                for spec in tools
            ],
            allow_text_output=True,
        )

    def newest_request(self) -> tuple[TurnContent, ...]:
        return _contents(self._messages[-1])

    async def respond(self) -> AsyncGenerator[str | ToolCall, None]:
        try:
            async with model_request_stream(
                self._model,
                self._messages,
                model_settings=self._settings,
                model_request_parameters=self._parameters,
            ) as stream:
                async for event in stream:
                    text = _text_of(event)
                    if text:
                        yield text
                response = stream.get()
        except (ModelAPIError, UnexpectedModelBehavior) as exc:
            raise ModelServerError(_fault_sentence(exc)) from exc
        if response.finish_reason == "length":
            self._report.cut = True
        calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
        if calls and not any(isinstance(part, TextPart) for part in response.parts):
            # Sent back with the tools' results, an assistant message with tool calls and no
            # text has `"content": null`, which llama-cpp-python's server answers with HTTP
            # 500 (recorded); an empty string is what every server reads.
            response.parts = [TextPart(""), *response.parts]
        self._messages.append(response)
        for part in calls:
            yield ToolCall(part.tool_call_id, part.tool_name, _arguments(part))

    def add_results(self, results: Sequence[tuple[ToolCall, ToolReply]]) -> None:
        parts: list[ModelRequestPart] = [_return_part(call, reply) for call, reply in results]
        self._messages.append(ModelRequest(parts=parts, instructions=self._instructions))


def _model_settings(handle: ModelHandle) -> ModelSettings:
    # max_tokens is sent with every request (as max_tokens, or max_completion_tokens where
    # OpenAI wants it): without it a provider writes until its own limit, and one answer
    # measured 10 MB.
    settings = ModelSettings(max_retries=PROVIDER_RETRIES)
    if handle.max_tokens is not None:
        settings["max_tokens"] = handle.max_tokens
    return settings


def _as_text(reply: ToolReply) -> str:
    """A tool's reply as the text a model reads in a message (its value, never metadata)."""
    value = reply.value if reply.error is None else {"error": reply.error}
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def _fault_sentence(exc: Exception) -> str:
    """One sentence for a model server's failure: what it said, bounded, and what to check."""
    status = getattr(exc, "status_code", None)
    detail = " ".join(str(getattr(exc, "message", "") or exc).split())[:200]
    said = f"answered HTTP {status}" if status else "failed"
    return (
        f"The model server {said} ({detail or type(exc).__name__}); check that it is "
        "running, serves this model and accepts its chat format, or see docs/models.md."
    )


def load_provider(handle: ModelHandle) -> None:
    """Import the library code ``handle``'s provider runs on, without connecting anywhere.

    Called at server start-up: imported inside the first request instead, the library
    (and the provider's SDK) held the event loop for about five seconds, during which no
    other request, refusal or health check was answered.
    """
    if handle.provider == "anthropic":
        import pydantic_ai.models.anthropic
        import pydantic_ai.providers.anthropic
    elif handle.provider in ("openai", "ollama"):
        # The SDK loads its chat resource on the first call: 0.1 s more of the same wait.
        import openai.resources.chat  # noqa: F401
        import pydantic_ai.models.openai
        import pydantic_ai.providers.ollama
        import pydantic_ai.providers.openai  # noqa: F401

        from citeline.models import provider_network, sse_coalescing  # noqa: F401


def _arguments(part: ToolCallPart) -> dict[str, Any] | None:
    if isinstance(part.args, dict):
        return part.args
    if not part.args:
        return {}
    try:
        args = pydantic_core.from_json(part.args)
    except ValueError:
        return None
    return args if isinstance(args, dict) else None


def _return_part(call: ToolCall, reply: ToolReply) -> ToolReturnPart:
    if reply.error is not None:
        # Sent to the model as a failed result, and the turn goes on.
        return ToolReturnPart(
            tool_name=call.name,
            content=reply.error,
            tool_call_id=call.id,
            metadata=dict(reply.metadata),
            outcome="failed",
        )
    return ToolReturnPart(
        tool_name=call.name,
        content=reply.value,
        tool_call_id=call.id,
        metadata=dict(reply.metadata),
    )


def _text_of(event: object) -> str:
    """The text an event of a streamed response adds, or ``""``."""
    if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
        return event.part.content
    if isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
        return event.delta.content_delta
    return ""


def _contents(message: ModelMessage) -> tuple[TurnContent, ...]:
    """What a request holds, for turn boundaries.

    Only a user prompt counts as new text: the library may add instruction
    bookkeeping parts to any request, and counting those would restart the turn
    mid-question.
    """
    kinds: list[TurnContent] = []
    for part in getattr(message, "parts", ()):
        if isinstance(part, ToolReturnPart | RetryPromptPart):
            kinds.append("tool_result")
        elif isinstance(part, UserPromptPart):
            kinds.append("text")
    return tuple(kinds)


def _library_message(message: ChatMessage) -> ModelMessage:
    if message.role == "user":
        return ModelRequest(parts=[UserPromptPart(message.text)])
    return ModelResponse(parts=[TextPart(message.text)])


# Clients per event loop: an HTTP connection pool belongs to the loop that opened it, and a
# second ``asyncio.run`` reusing the first one's pool fails on its closed connections.
_models: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[ModelHandle, Model]] = (
    weakref.WeakKeyDictionary()
)


def _library_model(handle: ModelHandle) -> Model:
    """One client per handle and event loop, so concurrent answers share its connection pool."""
    per_loop = _models.setdefault(asyncio.get_running_loop(), {})
    model = per_loop.get(handle)
    if model is None:
        model = per_loop[handle] = _build_model(handle)
    return model


def _build_model(handle: ModelHandle) -> Model:
    """The library model for ``handle``.

    Provider modules are imported only for the provider in use: the Anthropic SDK alone
    takes about two seconds to import here, which the embedded model should never pay.
    """
    if handle.provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(handle.model_name, provider=AnthropicProvider())
    from pydantic_ai.models.openai import OpenAIChatModel

    if handle.provider == "openai":
        from pydantic_ai.providers.openai import OpenAIProvider

        provider = _chunk_validating(OpenAIProvider)(
            base_url=handle.base_url,
            api_key=os.environ.get("OPENAI_API_KEY") or None,
            http_client=_coalescing_client(),
        )
        if handle.base_url is None:
            return OpenAIChatModel(handle.model_name, provider=provider)
        return OpenAIChatModel(handle.model_name, provider=provider, profile=_COMPATIBLE_PROFILE)
    from pydantic_ai.providers.ollama import OllamaProvider

    ollama = _chunk_validating(OllamaProvider)(
        base_url=handle.base_url, http_client=_coalescing_client()
    )
    return OpenAIChatModel(handle.model_name, provider=ollama, profile=_COMPATIBLE_PROFILE)


# Merged over the provider's own profile for the model: the reply's bound goes as
# `max_tokens`, the field every OpenAI-compatible server reads. The library sends OpenAI's
# newer `max_completion_tokens` by default, which llama-cpp-python's server ignores, so a
# reply there ran to the server's own limit.
_COMPATIBLE_PROFILE: Final = cast(
    ModelProfile, {"openai_chat_supports_max_completion_tokens": False}
)


_ProviderT = TypeVar("_ProviderT")


def _chunk_validating(provider_class: type[_ProviderT]) -> type[_ProviderT]:
    """``provider_class`` (the library's ``OpenAIProvider`` or ``OllamaProvider``) building the
    SDK client whose stream chunks pydantic-core validates (``provider_chunks``) where it
    would build a plain ``AsyncOpenAI``.

    The hook is the providers' ``_create_openai_client``, which they call once their own
    base-URL and API-key rules have settled both; a test fails if the library stops calling
    it, rather than the speed quietly going.
    """
    from citeline.models.provider_chunks import ChunkValidatingOpenAI

    def _create_openai_client(
        self: object,
        *,
        base_url: str | None,
        api_key: str | None,
        http_client: httpx2.AsyncClient,
        default_headers: Mapping[str, str] | None = None,
    ) -> ChunkValidatingOpenAI:
        return ChunkValidatingOpenAI(
            base_url=base_url,
            api_key=api_key,
            http_client=http_client,
            default_headers=default_headers,
        )

    namespace = {"_create_openai_client": _create_openai_client}
    return cast(type[_ProviderT], type(provider_class.__name__, (provider_class,), namespace))


def _coalescing_client() -> httpx2.AsyncClient:
    """The library's default HTTP client for an OpenAI-protocol provider, its responses'
    text deltas coalesced (``sse_coalescing``) and its sockets read through asyncio
    (``provider_network``): same timeouts and pool size (1,000 connections, 100 kept
    alive, the OpenAI SDK's own), set on the transport it wraps."""
    from pydantic_ai.models import create_async_httpx2_client

    from citeline.models.provider_network import provider_transport
    from citeline.models.sse_coalescing import CoalescingTransport

    pool = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
    return create_async_httpx2_client(transport=CoalescingTransport(provider_transport(pool)))
