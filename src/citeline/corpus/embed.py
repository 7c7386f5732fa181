"""Ingest's embedding stage: every passage without a vector gets one, in batches.

It runs after the documents are stored, so it is incremental by construction: a changed
document's passages were replaced (and their vectors removed) in its own transaction, and
only passages that have no vector are embedded here. A stage cut short leaves passages
without vectors, never a wrong one, and the next ingest finishes the work. Vectors from
another model are cleared first: they cannot be compared with this model's.

It deliberately knows nothing about files, formats or ranking.
"""

from __future__ import annotations

from collections.abc import Callable

from citeline.corpus.embedding import Embedder
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.vectors import to_bytes

# Passages read, embedded and written per transaction: large enough that the model sees
# full batches, small enough that an interrupted stage loses under a minute of work.
BATCH_PASSAGES = 256

EmbedProgressCallback = Callable[[int, int], None]


def embed_missing(
    store: CorpusStore,
    embedder: Embedder,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Embed every passage that lacks a vector; returns how many were embedded."""
    if store.setting("embedding_model") != embedder.model_id:
        store.clear_vectors()
        store.set_setting("embedding_model", embedder.model_id)
    total = store.count_unembedded()
    done = 0
    if progress is not None:
        progress(done, total)
    while batch := store.unembedded(BATCH_PASSAGES):
        vectors = embedder.embed_passages([text for _, text in batch])
        rows = [(passage, to_bytes(v)) for (passage, _), v in zip(batch, vectors, strict=True)]
        store.put_vectors(rows)
        done += len(batch)
        if progress is not None:
            progress(done, max(total, done))
    return done
