"""The server's own search, before a real model is asked: the turn's first tool result.

A small local model that could call tools called none in 13 of 13 recorded questions and
answered from memory; one behind a server that cannot call tools never could. So for a real
model over a corpus the server searches with the question itself first, through the answer's
own toolbox (the result is tagged like any other and carries the citation request), and the
model is sent it as its first tool result, or in the question's message when it is offered
no tools. A follow-up's query carries the earlier questions' subject words, as the embedded
model's does. This module decides the query and runs the call; what the model is sent is
the model layer's (``models.FirstResult``).
"""

from __future__ import annotations

from collections.abc import Sequence

from citeline.agent.prompts import load_prompt
from citeline.agent.tools import Toolbox
from citeline.models import ChatMessage, FirstResult
from citeline.models.embedded import follow_up_query


async def first_search(
    toolbox: Toolbox, question: str, history: Sequence[ChatMessage]
) -> FirstResult | None:
    """The question's own search, run before the model is asked, as the turn's first tool
    result; ``None`` when it returned no source. A follow-up's query carries the earlier
    questions' subject words it does not name, as the embedded model's does."""
    search = next((tool for tool in toolbox.tools if tool.name == "search"), None)
    if search is None:
        return None
    earlier = [message.text for message in history if message.role == "user"]
    args = {"query": follow_up_query(question, earlier)}
    before = len(toolbox.sources)
    reply = await toolbox.call(search, args)
    if reply.error is not None or len(toolbox.sources) == before:
        return None
    return FirstResult("search", args, reply, lead=load_prompt("first-search"))
