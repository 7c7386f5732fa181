"""What a passage is read for meaning by: its text, the key it is stored under, its bytes.

The embedded model weighs how alike in meaning a question is to each section a search
returned (``citeline.models.embedded.ranking``), reading the section's title and the opening
of the passage the search found. Ingest stores that text's vector for each passage of a
dense or hybrid collection (``citeline.corpus.embed``), so that an answer embeds only its
question; the agent (``citeline.agent.meaning``) finds stored vectors by the key of the text
the model asks about, and embeds on demand what no passage holds (other texts, such as a
section's paragraphs). Keyed by the text itself, a stored vector is only ever used for the
very text it was computed from.

A meaning text is always embedded alone and at full precision (``Embedder.embed_exact``),
never in an int8 batch: the int8 graph quantizes a call's activations over the whole batch,
so a text's vector in a batch depends on its neighbours (cosine as low as 0.971 against the
same text alone, measured over the Python sample's sections in batches of 12), and alone
it depends on the text only.

It deliberately knows nothing of ranking, of the model, or of where vectors are stored.
"""

from __future__ import annotations

import hashlib

__all__ = [
    "MEANING_CHARS",
    "MEANING_DTYPE",
    "MEANING_TITLE_CHARS",
    "meaning_key",
    "meaning_text",
]

# The embedded model's own recipe (``citeline.models.embedded.ranking``, where the choice is
# measured): the title bounded, then the search passage's first 80 characters. The layers
# cannot import each other, so it is written in both; tests/agent/test_meaning.py holds that
# an answer over a hybrid collection embeds none of its sections, which fails if they part.
MEANING_CHARS = 80
MEANING_TITLE_CHARS = 300
# Stored vectors are float32, little-endian: the vector an answer computes, not a rounding
# of it (the dense index's float16 would move cosines by about 1e-3, enough to reorder
# sections whose scores are that close).
MEANING_DTYPE = "<f4"
# Bytes of BLAKE2b a text is keyed by: 128 bits make a collision between two of a
# collection's texts out of reach, in 16 bytes a row.
_KEY_BYTES = 16


def meaning_text(title: str, passage: str) -> str:
    """The text read for a section's meaning: its title, then its passage's opening."""
    return f"{title[:MEANING_TITLE_CHARS]}. {passage[:MEANING_CHARS]}"


def meaning_key(text: str) -> bytes:
    """The key a meaning text's vector is stored and found under."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_KEY_BYTES).digest()
