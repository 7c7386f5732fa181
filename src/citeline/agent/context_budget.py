"""The model's share of corpus text in one answer, bounded in tokens.

A small local model reads its prompt at about 61 tokens a second on two CPU cores
(recorded: Qwen2.5-Coder-1.5B on llama-cpp-python), and eight search results came to
about 3,150 prompt tokens: 50 to 100 s before its first token, and at a 4k context one
answer was cut after 49 tokens. So the corpus tools of one answer share a budget
(``--context-tokens``): a search keeps its passages nearest-first, whole, while they fit;
a read keeps as much of its document as is left. Real providers get the budget; the
embedded model reads no prompt and keeps its own bounds.

Tokens are estimated, not counted (no tokenizer is the same across models): the recorded
requests held about 4.5 characters of JSON a token, and a passage is counted at
``CHARS_PER_TOKEN`` (4), so the estimate errs high and the budget holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Sized for an 8k context: 3,000 tokens of corpus text, 2,048 for the reply (the
# commands' default max tokens), about 1,000 for the instructions, the tool schemas and
# the question, and the rest for a conversation's history.
DEFAULT_CONTEXT_TOKENS: Final = 3_000
CHARS_PER_TOKEN: Final = 4
# What each passage costs besides its text: its id, title, href and the JSON around them.
PASSAGE_OVERHEAD_TOKENS: Final = 40


def estimated_tokens(text: str) -> int:
    """The tokens ``text`` is counted at: its characters over ``CHARS_PER_TOKEN``, up."""
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass(slots=True)
class ContextBudget:
    """The tokens of corpus text one answer's model may still be given. Never shared."""

    tokens: int
    spent: int = 0

    @property
    def left(self) -> int:
        return max(self.tokens - self.spent, 0)

    def fits(self, text: str) -> bool:
        """Whether a passage of ``text`` fits what is left; if it does, it is spent."""
        cost = estimated_tokens(text) + PASSAGE_OVERHEAD_TOKENS
        if cost > self.left:
            return False
        self.spent += cost
        return True

    def cut(self, text: str) -> str:
        """As much of ``text`` as is left, spent."""
        room = max(self.left - PASSAGE_OVERHEAD_TOKENS, 0) * CHARS_PER_TOKEN
        kept = text[:room]
        self.spent += estimated_tokens(kept) + PASSAGE_OVERHEAD_TOKENS
        return kept
