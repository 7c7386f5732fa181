"""Ingest's embedding stages: every passage without a vector gets one, and every document
whose meaning texts (``citeline.corpus.meaning``) have no vectors gets theirs.

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

from citeline.corpus.embedding import Embedder, EmbedProgressCallback
from citeline.corpus.meaning import (
    MEANING_DTYPE,
    MeaningReader,
    SectionRead,
    meaning_key,
    section_meanings,
)
from citeline.corpus.stores.base import CorpusStore

# Passages read, embedded and written per transaction: small enough that an interrupted
# stage loses under a minute of work, large enough that a transaction's cost is spread.
BATCH_PASSAGES = 256
# Documents read for meaning per transaction, likewise.
BATCH_DOCUMENTS = 128


def embed_missing(
    store: CorpusStore,
    embedder: Embedder,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Embed every passage that lacks a vector; returns how many were embedded."""
    from citeline.corpus.vectors import to_bytes

    if store.setting("embedding_model") != embedder.model_id:
        store.clear_vectors()
        store.set_setting("embedding_model", embedder.model_id)
    total = store.count_unembedded()
    done = 0
    if progress is not None:
        progress(done, total)
    while batch := store.unembedded(BATCH_PASSAGES):
        vectors = embedder.embed([text for _, text in batch])
        rows = [(passage, to_bytes(v)) for (passage, _), v in zip(batch, vectors, strict=True)]
        store.put_vectors(rows)
        done += len(batch)
        if progress is not None:
            progress(done, max(total, done))
    return done


def read_for_meaning(
    store: CorpusStore,
    embedder: Embedder,
    reader: MeaningReader = section_meanings,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Store the vector of every text ``reader`` says a document is read by, for each
    document that has none; returns how many documents were read. A text that one document
    shares with another (a repeated heading, a paragraph quoted twice) is embedded once."""
    if store.setting("meaning_model") != embedder.model_id:
        store.clear_meanings()
        store.set_setting("meaning_model", embedder.model_id)
    total = store.count_without_meaning()
    done = 0
    seen: set[str] = set()
    if progress is not None:
        progress(done, total)
    while batch := store.without_meaning(BATCH_DOCUMENTS):
        if seen.issuperset(document.doc_id for document in batch):
            # Nothing stuck for them (each was changed under this stage): the next ingest.
            break
        read: list[tuple[int, list[str]]] = []
        for document in batch:
            seen.add(document.doc_id)
            section = SectionRead(
                document.doc_id,
                document.title,
                document.text,
                tuple(document.text[start:end] for _, start, end in document.passages),
            )
            # The first passage holds them all, and at least one, so the document is read.
            texts = list(dict.fromkeys(reader(section))) or section_meanings(section)
            read.append((document.passages[0][0], texts))
        vectors = _vectors(store, embedder, dict.fromkeys(t for _, texts in read for t in texts))
        store.put_meanings(
            [(first, key, vectors[key]) for first, texts in read for key in map(meaning_key, texts)]
        )
        done += len(batch)
        if progress is not None:
            progress(done, max(total, done))
    return done


def _vectors(store: CorpusStore, embedder: Embedder, texts: dict[str, None]) -> dict[bytes, bytes]:
    """Each text's vector by its key: one another document stored already, else embedded."""
    keys = {text: meaning_key(text) for text in texts}
    found = store.meanings(list(keys.values()))
    missing = [text for text, key in keys.items() if key not in found]
    for text, vector in zip(missing, embedder.embed(missing), strict=True):
        found[keys[text]] = vector.astype(MEANING_DTYPE).tobytes()
    return found
