"""The texts the embedded model reads a section by for meaning, so that ingest can store
their vectors and an answer embeds only its question.

The model compares the question with each search result's title and opening
(``citeline.text.meaning.section_meanings`` gives those), with each result's title alone
(``ranking``'s ``meaning_title``: ``text.meaning.title_text``), and with each paragraph of a
section it reads (``model._block_meaning``). The paragraphs are the model's own split, so
this list is written here, over the recipe's bounds; ``citeline.agent.meaning`` asks
for them at ingest, and a test holds that an answer over a collection ingested with the
extra embeds nothing but its question, which fails if this list and the model part.
"""

from __future__ import annotations

from citeline.models.embedded.passages import block_texts, units_of
from citeline.models.embedded.ranking import split_title
from citeline.models.embedded.tuning import current_tuning
from citeline.text.meaning import title_text

__all__ = ["texts_read_for_meaning"]


def texts_read_for_meaning(title: str, text: str) -> list[str]:
    """The texts beyond its title-and-opening the model may read a section by, when it reads
    its whole ``text`` under ``title`` with the tuning in force: its title alone, then every
    prose block's (a question reads at most ``meaning_blocks`` of them)."""
    tuning = current_tuning()
    units = units_of(text, split_title(title)[1], tuning.text)
    blocks = block_texts(units, tuning.meaning_block_chars).values()
    return list(dict.fromkeys([title_text(title), *blocks]))
