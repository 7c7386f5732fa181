"""The embedded model's sense of meaning: the shipped sentence-embedding model, when installed.

The embedded model ranks the sections a search returned by the words they share with
the question, and words mislead where the answer uses others (a question about sorting
records by a key shares every word with a section on dictionaries, none of its point with
one titled "Key Functions"). With the ``citeline[dense]`` extra installed, this module gives it the
cosine similarity of the question and each text it reads a section by (its title and
opening, ``citeline.text.meaning``, and its paragraphs), from the same model that dense
retrieval uses, loaded once per process. Without the extra the model reads by words, and
``words_only_note`` says so.

Every text a document is read by has its vector stored at ingest (``reading`` tells ingest
which texts those are), so an answer embeds only its question, which the search embedded
already; a text no document holds (a section read from its passages, a collection ingested
without the extra, the opening of a section too small to quote) is embedded here. Every text is
embedded alone in the model's one arithmetic (int8), so a vector read from the store is the one
computed here, and kept while recent, since a collection's sections come back for question
after question. Each score is the dot product summed in float64 row by row (numpy's pairwise
sum along the row), so a text's score is the same whatever texts it is scored beside: a float32
matrix-vector product went through BLAS, whose kernel on an AMD EPYC with AVX-512 summed one
row alone in another order than two rows (0.6180168986320496 against 0.6180168390274048).

It is the agent's to give (``models`` knows nothing of the corpus, where the model and the
stored vectors live); it decides nothing about ranking, which stays the embedded model's.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from citeline.agent.corpus_tools import READ_CHARS
from citeline.corpus.embedding import Embedder, dense_installed, load_embedder
from citeline.corpus.retrieval import words_only_note
from citeline.models import StoredSimilarity, quotable, texts_read_for_meaning
from citeline.text.meaning import MeaningReader, SectionRead, section_meanings, title_text
from citeline.text.vector_bytes import meaning_vector, passage_matrix

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from citeline.corpus import Corpus

__all__ = [
    "MEANING_ENV",
    "embedded_similarity",
    "ingest_reading",
    "new_similarity",
    "reading",
    "words_only",
]

# "0" turns the embedded model's reading for meaning off: its answers then depend on words
# alone, as without the extra (a comparison, or a machine where the extra's CPU is dear).
MEANING_ENV = "CITELINE_EMBEDDED_MEANING"
# Texts whose vectors are kept: 4,096 x 384 float32 is 6 MB, and a docs site's answers
# draw on a few thousand sections.
CACHED_TEXTS = 4_096

_lock = threading.Lock()
_meanings: _Meanings | None = None


def embedded_similarity(corpus: Corpus | None = None) -> StoredSimilarity | None:
    """The similarity the embedded model reads with, reading vectors ``corpus`` stored at
    ingest where it has them; ``None`` when the extra is not installed or
    ``CITELINE_EMBEDDED_MEANING=0``. The model loads on the first call."""
    global _meanings
    if not _wanted():
        return None
    with _lock:
        if _meanings is None:
            _meanings = _Meanings(load_embedder())
        return _meanings.reading(corpus)


def new_similarity(corpus: Corpus | None = None) -> StoredSimilarity | None:
    """A similarity with a cache of its own (a benchmark's, to pay as a fresh process does),
    or ``None`` as ``embedded_similarity`` would be."""
    return _Meanings(load_embedder()).reading(corpus) if _wanted() else None


def words_only() -> str | None:
    """Why the embedded model reads by words alone here, as a sentence to say once at
    start-up; None when it reads for meaning too."""
    if not dense_installed():
        return "The embedded model reads " + words_only_note().removeprefix("searching ")
    if not _wanted():
        return f"The embedded model reads by words only ({MEANING_ENV}=0)."
    return None


def reading(section: SectionRead) -> list[str]:
    """The texts the embedded model may read ``section`` by for meaning whose vectors ingest
    stores: each passage's title and opening, as a search result shows it, the title alone,
    and each paragraph of the section as the ``read`` tool returns it; of a section too
    small to quote (``citeline.models.quotable``), its title alone."""
    title = section.title or section.id
    if not quotable(section.text):
        # Read by its title alone, which sibling sections often share: a section too small
        # to quote is a pointer, and a page of 20,000 one-line sections cost three texts
        # each (its passage, its title-and-opening, its title), about 8 ms of CPU a section
        # and 240 s a MB at ingest on an AVX2 core. An answer that meets one among its
        # search results embeds the rest then, the same bytes (every text is embedded
        # alone), so no answer changes; only where the cost falls.
        return [title_text(title)]
    return [
        *section_meanings(section),
        *texts_read_for_meaning(title, section.text[:READ_CHARS]),
    ]


def ingest_reading() -> MeaningReader | None:
    """What an ingest should store meaning vectors for: ``reading`` where the embedded model
    reads for meaning here, else nothing."""
    return reading if _wanted() else None


def _wanted() -> bool:
    return os.environ.get(MEANING_ENV, "1").strip() != "0" and dense_installed()


class _Meanings:
    """Cosine similarity through ``embedder``: each text's vector read from a collection or
    embedded once, and kept while it stays recent."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def reading(self, corpus: Corpus | None) -> StoredSimilarity:
        """The similarity over ``corpus``'s stored vectors (none: all embedded here)."""
        return _Reading(self, corpus)

    def passages(
        self, corpus: Corpus | None, question: str, ids: Sequence[str | None]
    ) -> list[float | None]:
        """For each section id, the question's cosine with the likest of the passage vectors
        ``corpus`` stored for it (None where it stored none). Read, never embedded: a
        section's passages are what dense retrieval compared the question with, and
        embedding them here would cost an answer 7.6 ms a passage (SciFact's 5,746 took
        43.4 s of the int8 graph on an Intel Xeon with VNNI)."""
        import numpy as np

        if corpus is None or not ids:
            return [None] * len(ids)
        wanted = [i for i in dict.fromkeys(ids) if i is not None]
        stored = corpus.passage_vectors(wanted, self._embedder.model_id)
        if not stored:
            return [None] * len(ids)
        asked = np.asarray(self._embedder.embed_query(question), dtype=np.float64).reshape(-1)
        dimension = self._embedder.dimension
        likest: dict[str, float] = {}
        for doc_id, blobs in stored.items():
            if any(len(blob) != dimension * 2 for blob in blobs):
                continue  # a row of another length is damage, not a vector
            matrix = passage_matrix(blobs, dimension).astype(np.float64)
            # Summed row by row, as ``similarity``: a section's figure is its own.
            likest[doc_id] = float((matrix * asked).sum(axis=1).max())
        return [None if i is None else likest.get(i) for i in ids]

    def similarity(
        self, corpus: Corpus | None, question: str, texts: Sequence[str], *, exact: bool = True
    ) -> list[float]:
        # ``exact`` is the Similarity interface's: every text has the one arithmetic now.
        import numpy as np

        if not texts:
            return []
        with self._lock:
            have = {text: self._vectors[text] for text in texts if text in self._vectors}
        missing = [text for text in dict.fromkeys(texts) if text not in have]
        if missing and corpus is not None:
            for text, raw in corpus.meaning_vectors(missing, self._embedder.model_id).items():
                vector = meaning_vector(raw, self._embedder.dimension)
                # A row of another length is damage, not a vector: embed that text here.
                if vector is not None:
                    have[text] = vector
        missing = [text for text in missing if text not in have]
        if missing:
            for text, row in zip(missing, self._embedder.embed(missing), strict=True):
                have[text] = np.asarray(row, dtype=np.float32)
        with self._lock:
            for text in texts:
                self._vectors[text] = have[text]
                self._vectors.move_to_end(text)
            while len(self._vectors) > CACHED_TEXTS:
                self._vectors.popitem(last=False)
        asked = np.asarray(self._embedder.embed_query(question), dtype=np.float64).reshape(-1)
        matrix = np.stack([have[text] for text in texts]).astype(np.float64)
        # Products of float32 values are exact in float64; the sum along each row is that
        # row's own, whatever rows stand beside it.
        return [float(score) for score in (matrix * asked).sum(axis=1)]


class _Reading:
    """``_Meanings`` over one collection: the ``StoredSimilarity`` an answer reads with."""

    def __init__(self, meanings: _Meanings, corpus: Corpus | None) -> None:
        self._meanings = meanings
        self._corpus = corpus

    def __call__(self, question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        return self._meanings.similarity(self._corpus, question, texts, exact=exact)

    def passages(self, question: str, ids: Sequence[str | None]) -> list[float | None]:
        return self._meanings.passages(self._corpus, question, ids)
