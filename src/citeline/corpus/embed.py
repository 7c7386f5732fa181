"""Ingest's embedding stages: every passage without a vector gets one, and every document
whose meaning texts (``citeline.text.meaning``) have no vectors gets theirs.

They run after the documents are stored, so they are incremental by construction: a changed
document's passages were replaced (and their vectors removed) in its own transaction, and
only what has no vector is embedded here. A stage cut short leaves texts without vectors,
never a wrong one, and the next ingest finishes the work. Vectors from another model (or
another arithmetic of it) are cleared first: they cannot be compared with this one's.

Every text is embedded alone (``Embedder.embed``), so the meaning vectors stored here are
the bytes an answer would compute for the same text, and an answer over the collection
embeds only its question.

It deliberately knows nothing about files, formats or ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from citeline.corpus.embedding import Embedder, EmbedProgressCallback
from citeline.corpus.stores.base import CorpusStore, IndexableDocument
from citeline.text.meaning import MeaningReader, SectionRead, meaning_key, section_meanings
from citeline.text.vector_bytes import meaning_bytes, passage_bytes

# Passages read, embedded and written per transaction: small enough that an interrupted
# stage loses under a minute of work, large enough that a transaction's cost is spread.
BATCH_PASSAGES = 256
# Documents read for meaning per transaction, likewise.
BATCH_DOCUMENTS = 128

T = TypeVar("T")


def embed_missing(
    store: CorpusStore,
    embedder: Embedder,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Embed every passage that lacks a vector; returns how many were embedded."""
    _follow_model(store, "embedding_model", store.clear_vectors, embedder.model_id)

    def put(batch: Sequence[tuple[int, str]]) -> bool:
        vectors = embedder.embed([text for _, text in batch])
        rows = [(passage, passage_bytes(v)) for (passage, _), v in zip(batch, vectors, strict=True)]
        store.put_vectors(rows)
        return True

    total = store.count_unembedded()
    return _stage(total, lambda: store.unembedded(BATCH_PASSAGES), put, progress)


def read_for_meaning(
    store: CorpusStore,
    embedder: Embedder,
    reader: MeaningReader = section_meanings,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Store the vector of every text ``reader`` says a document is read by, for each
    document that has none; returns how many documents were read. A text that one document
    shares with another (a repeated heading, a paragraph quoted twice) is embedded once."""
    _follow_model(store, "meaning_model", store.clear_meanings, embedder.model_id)
    seen: set[str] = set()

    def put(batch: Sequence[IndexableDocument]) -> bool:
        if seen.issuperset(document.doc_id for document in batch):
            # Nothing stuck for them (each was changed under this stage): the next ingest.
            return False
        seen.update(document.doc_id for document in batch)
        read = [(document.passages[0][0], _texts(document, reader)) for document in batch]
        vectors = _vectors(store, embedder, dict.fromkeys(t for _, texts in read for t in texts))
        store.put_meanings(
            [(first, key, vectors[key]) for first, texts in read for key in map(meaning_key, texts)]
        )
        return True

    total = store.count_without_meaning()
    return _stage(total, lambda: store.without_meaning(BATCH_DOCUMENTS), put, progress)


def _follow_model(store: CorpusStore, setting: str, clear: Callable[[], None], model: str) -> None:
    """Clear the vectors another model (or another arithmetic of it) made: they cannot be
    compared with ``model``'s."""
    if store.setting(setting) != model:
        clear()
        store.set_setting(setting, model)


def _stage(
    total: int,
    next_batch: Callable[[], Sequence[T]],
    put: Callable[[Sequence[T]], bool],
    progress: EmbedProgressCallback | None,
) -> int:
    """Put batch after batch until none is left or ``put`` says stop; returns how many items
    were put, told to ``progress`` as it starts and after each batch."""
    done = 0
    if progress is not None:
        progress(done, total)
    while batch := next_batch():
        if not put(batch):
            break
        done += len(batch)
        if progress is not None:
            progress(done, max(total, done))
    return done


def _texts(document: IndexableDocument, reader: MeaningReader) -> list[str]:
    """The distinct texts ``reader`` reads ``document`` by, stored on its first passage,
    which holds them all; at least one, so the document counts as read."""
    section = SectionRead(
        document.doc_id,
        document.title,
        document.text,
        tuple(document.text[start:end] for _, start, end in document.passages),
    )
    return list(dict.fromkeys(reader(section))) or section_meanings(section)


def _vectors(store: CorpusStore, embedder: Embedder, texts: dict[str, None]) -> dict[bytes, bytes]:
    """Each text's vector by its key: one another document stored already, else embedded."""
    keys = {text: meaning_key(text) for text in texts}
    found = store.meanings(list(keys.values()))
    missing = [text for text, key in keys.items() if key not in found]
    for text, vector in zip(missing, embedder.embed(missing), strict=True):
        found[keys[text]] = meaning_bytes(vector)
    return found
