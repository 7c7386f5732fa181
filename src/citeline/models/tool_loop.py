"""citeline's own tool loop: ask the model, run the tools it calls, send the results back.

One loop serves every model. A ``ModelSession`` is one user turn's conversation
with one model (the embedded model's in ``embedded.session``, a real provider's in
``pydantic_ai_adapter``): it streams a response as text fragments and tool calls,
and takes the tools' replies into its history. The loop tells the observer what
each request holds, runs the calls through their ``ToolSpec`` (where the agent's
toolbox stamps provenance and joins the citation request), and stops a model that
will not stop calling tools.

Why our own loop rather than the library's agent: profiled with py-spy over 40
SciFact answers, the agent's run machinery (its event-stream capabilities, cancel
scopes and locks around every streamed fragment) took 64 % of an embedded answer's
CPU and the embedded model itself 5 %; the same machinery sits between a real
provider's stream and the reader. The provider clients stay the library's.

It does not know which tools exist, what they return or what the model is told.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, Protocol

from citeline.errors import CitelineError
from citeline.models.turn import RequestObserver, ToolReply, ToolSpec, TurnContent

# A model that keeps calling tools is stopped here rather than billed without end: a cited
# answer needs a search, a read and the reply, and a careful model a few more rounds.
MAX_MODEL_REQUESTS = 12
# Tool calls of one response that are run; the rest are answered with an error the model can
# act on. Run together, one response's 40 slow queries held every data worker and, before
# the data tools had threads of their own, the threads other answers searched on (issue 29).
# A careful model reads a few sections or asks a few queries at once; twice the data
# tools' running and waiting queries (2 and 8) leaves room for reads beside them.
MAX_CALLS_PER_RESPONSE = 16


class TurnLimitError(CitelineError):
    """The model asked for more rounds of tools than one turn may have. An answer that hits
    it ends ``done{state: failed}`` like any other failure while answering."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call the model asked for. ``args`` is ``None`` when what the model sent was
    not a JSON object: the call then fails with a message the model can act on."""

    id: str
    name: str
    args: Mapping[str, Any] | None


class ModelSession(Protocol):
    """One user turn's conversation with one model."""

    def newest_request(self) -> tuple[TurnContent, ...]:
        """What the request about to be sent holds (a user message, tool results)."""
        ...

    def respond(self) -> AsyncGenerator[str | ToolCall, None]:
        """Send the conversation; stream the reply's text fragments, then its tool calls."""
        ...

    def add_results(self, results: Sequence[tuple[ToolCall, ToolReply]]) -> None:
        """Keep the tools' replies in the conversation, to be sent with the next request."""
        ...


async def run_turn(
    session: ModelSession,
    tools: Sequence[ToolSpec],
    *,
    on_request: RequestObserver | None = None,
    max_requests: int = MAX_MODEL_REQUESTS,
    max_calls: int = MAX_CALLS_PER_RESPONSE,
) -> AsyncGenerator[str, None]:
    """Run one user turn to its end and yield the model's text as it streams.

    Of one response's tool calls, the first ``max_calls`` run; each one after them is
    answered with an error saying so. Raises ``TurnLimitError`` past ``max_requests``
    requests, and whatever the model or a tool raises; closing the iterator closes the
    model's stream.
    """
    by_name = {tool.name: tool for tool in tools}
    for _ in range(max_requests):
        if on_request is not None:
            on_request(session.newest_request())
        calls: list[ToolCall] = []
        async with aclosing(session.respond()) as reply:
            async for item in reply:
                if isinstance(item, str):
                    yield item
                else:
                    calls.append(item)
        if not calls:
            return
        run, refused = calls[:max_calls], calls[max_calls:]
        if len(run) == 1:
            replies: list[ToolReply] = [await _call(by_name, run[0])]
        else:
            # Calls of one response run together, as they would in the library's loop: two
            # reads against PostgreSQL cost one round trip's wait, not two.
            replies = list(await asyncio.gather(*(_call(by_name, call) for call in run)))
        replies += [_refused(call, max_calls) for call in refused]
        session.add_results(list(zip(calls, replies, strict=True)))
    raise TurnLimitError(
        f"The model asked for tools {max_requests} times in one turn without answering; "
        "ask a narrower question, or choose a model that answers from tool results."
    )


def _refused(call: ToolCall, max_calls: int) -> ToolReply:
    return ToolReply(
        None,
        error=f"{call.name} was not run: one response may make {max_calls} tool calls, and "
        f"this one came after them. Ask again in your next response if you still need it.",
    )


async def _call(tools: Mapping[str, ToolSpec], call: ToolCall) -> ToolReply:
    tool = tools.get(call.name)
    if tool is None:
        offered = ", ".join(sorted(tools)) or "none"
        return ToolReply(None, error=f"There is no tool named {call.name!r}; offered: {offered}.")
    if call.args is None:
        return ToolReply(
            None, error=f"The arguments to {call.name} were not a JSON object; send one."
        )
    return await tool.call(dict(call.args))
