"""The agent: tools with provenance, the citation request, prompts, and the answer engine.

``answer`` is the entry point (also ``citeline.answer``). The model library is
not imported here; models are reached through ``citeline.models``. This package
knows nothing of HTTP.
"""

from __future__ import annotations

from citeline.agent.citation_request import CitationRequest, join_reminder, turn_has_user_message
from citeline.agent.engine import answer
from citeline.agent.meaning import ingest_reading
from citeline.agent.prompts import Profile, load_prompt
from citeline.agent.provenance import ProvenanceTag, answer_provenance, tagged_reply
from citeline.agent.tools import AgentTool, Source, Toolbox, ToolOutput, source_href
from citeline.models import ChatMessage

__all__ = [
    "AgentTool",
    "ChatMessage",
    "CitationRequest",
    "Profile",
    "ProvenanceTag",
    "Source",
    "ToolOutput",
    "Toolbox",
    "answer",
    "answer_provenance",
    "ingest_reading",
    "join_reminder",
    "load_prompt",
    "source_href",
    "tagged_reply",
    "turn_has_user_message",
]
