"""The meaning recipe: which texts of a section the sentence model reads, bounded how, and
the key each one's vector is stored and found under.

The embedded model weighs how alike in meaning a question is to each section a search
returned (``citeline.models.embedded.ranking``), reading the section's title and the opening
of the passage the search found, its title alone, and then the paragraphs of the sections
it reads. Ingest stores those texts' vectors (``citeline.corpus.embed``), so that an answer
embeds only its question; the agent (``citeline.agent.meaning``) finds stored vectors by the
key of the text the model asks about, and embeds on demand what no document holds. Keyed by
the text itself, a stored vector is only ever used for the very text it was computed from,
and since every text is embedded alone (``Embedder``), the vector read is the one an answer
would compute. Written here once, below both the corpus and the models, the recipe cannot
part between what ingest stores and what an answer asks for.

Which texts a document is read by is a ``MeaningReader``'s to say: ``section_meanings``, the
corpus's own, gives each passage's title-and-opening; the agent's reader adds the title
alone and the paragraphs, which only the embedded model knows how to split.

It knows nothing of ranking, of the model, or of where vectors are stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "MEANING_CHARS",
    "MEANING_QUESTION_CHARS",
    "MEANING_TITLE_CHARS",
    "MeaningReader",
    "SectionRead",
    "meaning_key",
    "meaning_text",
    "section_meanings",
    "title_text",
]

# The opening of a search passage read with its title: the embedded model's measured choice
# (``Tuning.meaning_chars`` defaults to it; tests/agent/test_meaning.py holds that an answer
# over a collection ingested with the extra embeds none of its sections).
MEANING_CHARS = 80
# Bounds on the texts handed to the sentence model (it reads 128 word pieces at most): a
# hostile title or question must not cost the tokenizer megabytes first.
MEANING_TITLE_CHARS = 300
MEANING_QUESTION_CHARS = 1_000


@dataclass(frozen=True, slots=True)
class SectionRead:
    """A stored document as a reader for meaning sees it: its id, title, whole text, and
    the text of each of its passages in order."""

    id: str
    title: str
    text: str
    passages: tuple[str, ...]


class MeaningReader(Protocol):
    """The texts an answer reads of ``section`` for meaning, whose vectors ingest stores."""

    def __call__(self, section: SectionRead) -> Sequence[str]: ...


def title_text(title: str) -> str:
    """The text a section's title alone is read by."""
    return title[:MEANING_TITLE_CHARS]


def meaning_text(title: str, passage: str, chars: int = MEANING_CHARS) -> str:
    """The text read for a section's meaning: its title, then its passage's opening."""
    return f"{title_text(title)}. {passage[:chars]}"


def section_meanings(section: SectionRead) -> list[str]:
    """Each passage's meaning text, under the title a search result shows (the document's
    title, else its id: ``citeline.agent.corpus_tools``)."""
    return [meaning_text(section.title or section.id, passage) for passage in section.passages]


# Bytes of BLAKE2b a text is keyed by: 128 bits make a collision between two of a
# collection's texts out of reach, in 16 bytes a row.
_KEY_BYTES = 16


def meaning_key(text: str) -> bytes:
    """The key a meaning text's vector is stored and found under."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_KEY_BYTES).digest()
