"""Text analysis and the meaning recipe, written once for the corpus and the models.

- ``analysis``: one analysis (split into words, add code names' parts, set aside stop words
  and short words, stem) in named configurations, each with the functions its users ask for:
  ``index_terms.INDEX``, the search index's terms and a search's query terms, and
  ``answer_terms.ANSWER``, the content terms the embedded model compares. Their pieces:
  ``words`` (folding and splitting), ``identifiers`` (code names' parts), ``stop_words``,
  ``stemming``.
- ``meaning``: which texts of a section the sentence model reads and under which key their
  vectors are stored; ``vector_bytes``: each kind of vector as stored bytes.

A layer below the corpus and the models (``docs/architecture.md``), so both import it and
neither restates it; it knows nothing of storage, ranking, models or HTTP.
"""

from __future__ import annotations

from citeline.text.analysis import Analysis
from citeline.text.answer_terms import ANSWER
from citeline.text.index_terms import ANALYSIS_VERSION, INDEX
from citeline.text.meaning import (
    MeaningReader,
    SectionRead,
    meaning_key,
    meaning_text,
    section_meanings,
)
from citeline.text.words import fold

__all__ = [
    "ANALYSIS_VERSION",
    "ANSWER",
    "INDEX",
    "Analysis",
    "MeaningReader",
    "SectionRead",
    "fold",
    "meaning_key",
    "meaning_text",
    "section_meanings",
]
