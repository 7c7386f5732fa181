"""The tools of one answer: what each offers the model, and what the turn has returned so far.

A tool is plain data (``AgentTool``): a name, a description and a JSON schema the
model is shown, the provenance tag its results carry, and a coroutine that does
the work. More tools are added by passing more ``AgentTool``s; nothing here is
specific to the corpus. ``Toolbox`` is per answer: it runs the calls, turns a
raising tool into an error result for the model, stamps every result through
``tagged_reply``, applies the citation request, and records the sources returned,
which are the only ones an answer may cite, and the text they hold that a quote
block may be verified against.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citeline.agent.citation_request import CitationRequest, turn_has_user_message
from citeline.agent.provenance import ProvenanceTag, tagged_reply
from citeline.corpus.errors import CorpusUnavailableError
from citeline.models import ToolReply, ToolSpec, TurnContent
from citeline.stream.quotes import TrustedText

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Source:
    """Something a tool returned that the model may cite.

    ``href`` is what the model is told to cite: the url, or ``cite:<id>`` when
    there is none. ``id`` is the stable identifier when the source has one.
    """

    href: str
    display_name: str
    id: str | None = None
    url: str | None = None


def source_href(doc_id: str, url: str | None) -> str:
    """The href a model should cite for a document: its url, else ``cite:<id>``."""
    return url or f"cite:{doc_id}"


@dataclass(frozen=True, slots=True)
class ToolOutput:
    """What a tool's work produced: the value the model reads, the sources in it, and the
    curated text in it that a quote block may be checked against."""

    value: object
    sources: tuple[Source, ...] = ()
    trusted: tuple[TrustedText, ...] = ()


@dataclass(frozen=True, slots=True)
class AgentTool:
    """A tool as the agent knows it."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    provenance: ProvenanceTag
    run: Callable[[Mapping[str, Any]], Awaitable[ToolOutput]]
    # What the description says, as data, for a model that reads structure (``ToolSpec``).
    facts: object = None


@dataclass(slots=True)
class Toolbox:
    """The tools, the citation request and the record of one answer's turn. Never shared."""

    tools: Sequence[AgentTool]
    request: CitationRequest
    sources: dict[str, Source] = field(default_factory=dict)
    tags: list[ProvenanceTag] = field(default_factory=list)
    trusted: list[TrustedText] = field(default_factory=list)
    calls: int = 0

    def specs(self) -> list[ToolSpec]:
        """The tools as the model layer takes them, each call routed through this box."""
        return [
            ToolSpec(tool.name, tool.description, tool.parameters, self._caller(tool), tool.facts)
            for tool in self.tools
        ]

    def on_request(self, turn: tuple[TurnContent, ...]) -> None:
        """Told before each model request; a new user message starts a new citation request."""
        if turn_has_user_message(turn):
            self.request.reset()

    def _caller(self, tool: AgentTool) -> Callable[[dict[str, Any]], Awaitable[ToolReply]]:
        async def call(args: dict[str, Any]) -> ToolReply:
            return await self.call(tool, args)

        return call

    async def call(self, tool: AgentTool, args: Mapping[str, Any]) -> ToolReply:
        self.calls += 1
        try:
            output = await tool.run(args)
        except CorpusUnavailableError:
            # Not a mistake the model can work around: answering "nothing found" while the
            # database is down would tell the caller there is no answer, so the answer fails.
            raise
        except Exception as exc:
            # The model reads the failure and can try something else; the answer goes on.
            logger.warning("tool %s failed on %r: %s", tool.name, dict(args), exc)
            reply = tagged_reply(tool.provenance, error=f"{tool.name} failed: {exc}")
        else:
            self.tags.append(tool.provenance)
            for source in output.sources:
                self.sources.setdefault(source.href, source)
            self.trusted.extend(output.trusted)
            reply = tagged_reply(tool.provenance, value=output.value)
        return self.request.add(reply, eligible=tool.provenance.needs_citation)
