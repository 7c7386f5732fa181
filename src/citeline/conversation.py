"""The words a conversation is held in: who speaks (``Role``) and what is asked for (``Profile``).

A leaf that every layer with a conversation imports (the model layer's messages, the
agent's prompts, the server's requests and stores), so each of these literals is written
once and the server need not import the agent to name a profile. Deliberately only names:
no messages, no storage, no prompt text.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

# Who wrote a message of a conversation: the reader, or the answer.
Role: TypeAlias = Literal["user", "assistant"]

# What an answer is asked for: a search page's panel (one question, no history), or a chat.
# Each names its prompt file (``prompts/search.md``, ``prompts/chat.md``).
Profile: TypeAlias = Literal["search", "chat"]

__all__ = ["Profile", "Role"]
