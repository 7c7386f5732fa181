"""Ingest's embedding stage: every passage without a vector gets one, in batches; and every
passage without a meaning vector (``citeline.corpus.meaning``) gets that, one text at a time.

It runs after the documents are stored, so it is incremental by construction: a changed
document's passages were replaced (and their vectors removed) in its own transaction, and
only passages that have no vector are embedded here. A stage cut short leaves passages
without vectors, never a wrong one, and the next ingest finishes the work. Vectors from
another model are cleared first: they cannot be compared with this model's.

Meaning vectors are made for what the embedded model reads of a section at answer time, so
an answer over a dense or hybrid collection embeds only its question: measured on the
Python sample's sections, 9.9 ms of CPU a passage (one text a call, float arithmetic).

It deliberately knows nothing about files, formats or ranking.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from citeline.corpus.embedding import Embedder
from citeline.corpus.meaning import MEANING_DTYPE, meaning_key, meaning_text
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.vectors import to_bytes

# Passages read, embedded and written per transaction: large enough that the model sees
# full batches, small enough that an interrupted stage loses under a minute of work.
BATCH_PASSAGES = 256

# Threads embedding meaning texts side by side: each text runs alone on one thread (so its
# vector is the same whichever thread runs it), and onnxruntime releases the GIL while it
# runs, so a machine's cores share the work. Capped so an ingest leaves a server some room.
MEANING_THREADS = 4

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


def embed_meanings(
    store: CorpusStore,
    embedder: Embedder,
    progress: EmbedProgressCallback | None = None,
) -> int:
    """Give every passage without a meaning vector one; returns how many were embedded.

    Each text is embedded alone at full precision (``embed_exact``), as an answer embeds
    one it finds no vector for, so that the stored vector is the one the answer would
    compute: a batch in int8 quantizes its activations over all its texts, which moved a
    text's vector as far as cosine 0.971 from the same text alone."""
    if store.setting("meaning_model") != embedder.model_id:
        store.clear_meanings()
        store.set_setting("meaning_model", embedder.model_id)
    total = store.count_without_meaning()
    done = 0
    if progress is not None:
        progress(done, total)
    threads = max(1, min(MEANING_THREADS, os.cpu_count() or 1))
    with ThreadPoolExecutor(threads, thread_name_prefix="citeline-meaning") as pool:
        while batch := store.without_meaning(BATCH_PASSAGES):
            # The title an answer reads is the one the search tool shows: the document's
            # title, else its id (``citeline.agent.corpus_tools``).
            texts = [meaning_text(title or doc_id, text) for _, doc_id, title, text in batch]
            unique = list(dict.fromkeys(texts))
            made = {
                text: np.asarray(vector, dtype=MEANING_DTYPE).reshape(-1).tobytes()
                for text, vector in zip(unique, pool.map(embedder.embed_exact, unique), strict=True)
            }
            store.put_meanings(
                [
                    (row[0], meaning_key(text), made[text])
                    for row, text in zip(batch, texts, strict=True)
                ]
            )
            done += len(batch)
            if progress is not None:
                progress(done, max(total, done))
    return done
