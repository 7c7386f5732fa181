"""The one module that speaks ``pydantic-ai``: it runs a model turn and streams its text.

Everything crossing this module's edge is ours (``ModelHandle``, ``ChatMessage``,
``ToolSpec``, ``ToolReply``, text fragments); the library's agent loop, message
types and providers stay inside. It turns a handle into a library model (the
embedded model through ``FunctionModel``, so it runs the same loop as a real one),
offers the tools, keeps each ``ToolReply``'s metadata in the run's history where
the library never sends it, and reports what each model request holds so the
agent can tell a new user turn from the same question still running.

It does not decide what a tool returns, what the model is told, or what becomes a
citation: that is the agent's. Written against pydantic-ai-slim 2.68.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Any

from pydantic_ai import Agent, Tool, ToolFailed, ToolReturn
from pydantic_ai.capabilities import Hooks
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model, ModelRequestContext
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import RunContext
from pydantic_ai.toolsets import FunctionToolset
from pydantic_ai.usage import UsageLimits

from citeline.models import embedded, embedded_data
from citeline.models.spec import ModelHandle
from citeline.models.turn import ChatMessage, RequestObserver, ToolReply, ToolSpec, TurnContent

# A model that keeps calling tools is stopped here rather than billed without end: a cited
# answer needs a search, a read and the reply, and a careful model a few more rounds.
MAX_MODEL_REQUESTS = 12


async def stream_turn(
    handle: ModelHandle,
    *,
    instructions: str,
    question: str,
    history: Sequence[ChatMessage] = (),
    tools: Sequence[ToolSpec] = (),
    on_request: RequestObserver | None = None,
) -> AsyncGenerator[str, None]:
    """Run one user turn of the tool loop and yield the model's text as it streams.

    Raises whatever the provider or the loop raises (connection errors, the request
    limit); cancelling the consumer cancels the model call.
    """
    hooks: Hooks[None] = Hooks()
    if on_request is not None:
        observer = on_request

        @hooks.on.before_model_request
        async def _observe(
            ctx: RunContext[None], request: ModelRequestContext
        ) -> ModelRequestContext:
            observer(_contents(request.messages[-1]))
            return request

    agent: Agent[None, str] = Agent(_library_model(handle), output_type=str)
    async with agent.iter(
        question,
        instructions=instructions,
        message_history=[_library_message(m) for m in history],
        toolsets=[FunctionToolset([_library_tool(spec) for spec in tools])],
        capabilities=[hooks],
        usage_limits=UsageLimits(request_limit=MAX_MODEL_REQUESTS),
        model_settings=_model_settings(handle),
        infer_name=False,
    ) as run:
        async for node in run:
            if not Agent.is_model_request_node(node):
                continue
            async with node.stream(run.ctx) as events:
                async for event in events:
                    text = _text_of(event)
                    if text:
                        yield text


def _model_settings(handle: ModelHandle) -> ModelSettings | None:
    # Sent with every request (as max_tokens, or max_completion_tokens where OpenAI wants
    # it): without it a provider writes until its own limit, and one answer measured 10 MB.
    if handle.max_tokens is None:
        return None
    return ModelSettings(max_tokens=handle.max_tokens)


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


def _text_of(event: object) -> str:
    """The text an event of a streamed response adds, or ``""``."""
    if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
        return event.part.content
    if isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
        return event.delta.content_delta
    return ""


def _library_tool(spec: ToolSpec) -> Tool[None]:
    async def call(**args: Any) -> ToolReturn:
        reply: ToolReply = await spec.call(args)
        if reply.error is not None:
            # ToolFailed is sent to the model as a failed result and the run goes on;
            # any other exception would end the whole run.
            raise ToolFailed(reply.error)
        return ToolReturn(return_value=reply.value, metadata=dict(reply.metadata))

    return Tool.from_schema(
        call, name=spec.name, description=spec.description, json_schema=dict(spec.parameters)
    )


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
    if handle.provider == "embedded":
        return FunctionModel(stream_function=_embedded_stream, model_name=handle.name)
    if handle.provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(handle.model_name, provider=AnthropicProvider())
    from pydantic_ai.models.openai import OpenAIChatModel

    if handle.provider == "openai":
        from pydantic_ai.providers.openai import OpenAIProvider

        return OpenAIChatModel(
            handle.model_name,
            provider=OpenAIProvider(
                base_url=handle.base_url, api_key=os.environ.get("OPENAI_API_KEY") or None
            ),
        )
    from pydantic_ai.providers.ollama import OllamaProvider

    return OpenAIChatModel(handle.model_name, provider=OllamaProvider(base_url=handle.base_url))


async def _embedded_stream(
    messages: list[ModelMessage], info: AgentInfo
) -> AsyncIterator[str | DeltaToolCalls]:
    view = _turn_view(messages, info)
    step = embedded_data.next_step(view) or embedded.next_step(view)
    if isinstance(step, tuple):
        yield {
            index: DeltaToolCall(
                name=request.tool,
                json_args=json.dumps(dict(request.args)),
                tool_call_id=f"embedded-{len(messages)}-{index}",
            )
            for index, request in enumerate(step)
        }
        return
    for fragment in step:
        yield fragment


def _turn_view(messages: list[ModelMessage], info: AgentInfo) -> embedded.TurnView:
    questions: list[str] = []
    outcomes: list[embedded.ToolOutcome] = []
    for message in messages:
        if not isinstance(message, ModelRequest):
            continue
        for part in message.parts:
            if isinstance(part, UserPromptPart):
                questions.append(_prompt_text(part))
                outcomes = []
            elif isinstance(part, ToolReturnPart):
                failed = part.outcome != "success"
                content = part.model_response_str() if failed else part.content
                outcomes.append(embedded.ToolOutcome(part.tool_name, content, failed))
    return embedded.TurnView(
        question=questions[-1] if questions else "",
        earlier_questions=tuple(questions[:-1]),
        outcomes=tuple(outcomes),
        tools=frozenset(tool.name for tool in info.function_tools),
        descriptions={tool.name: tool.description or "" for tool in info.function_tools},
    )


def _prompt_text(part: UserPromptPart) -> str:
    if isinstance(part.content, str):
        return part.content
    return " ".join(item for item in part.content if isinstance(item, str))
