"""Whether a store's batch write stores what one document at a time stores: the documents,
versions and check shared by the SQLite and PostgreSQL store tests."""

from __future__ import annotations

from citeline.corpus.documents import Document
from citeline.corpus.ingest import content_hash
from citeline.corpus.passages import split_passages
from citeline.corpus.stores.base import CorpusStore, DocumentVersion


def version(doc_id: str, text: str, **metadata: object) -> DocumentVersion:
    """A document as ingest would put it, cut into passages of 20 characters."""
    document = Document(id=doc_id, title=f"Title {doc_id}", text=text, metadata=metadata)
    return DocumentVersion(document, split_passages(text, 20), content_hash(document), "src")


def contents(store: CorpusStore, *, ids: bool) -> tuple[object, ...]:
    """Everything a store holds that a batch must write alike: each document's text and
    passages (with their ids when ``ids``), its url and metadata, and the content digest."""
    every = store.changes_since(0).changed
    documents = sorted(store.indexable(every), key=lambda d: d.doc_id)
    return (
        [
            (d.doc_id, d.title, d.text, d.passages if ids else [p[1:] for p in d.passages])
            for d in documents
        ],
        [(d.id, d.url, dict(d.metadata)) for d in store.documents()],
        store.content_digest(),
    )


FIRST = [
    version("a", "alpha one. alpha two. alpha three."),
    version("b", "beta", tags=["x", "y"]),
]
BATCH = [
    version("c", "gamma words here. and more of them."),
    version("a", "alpha rewritten, longer than before, in several passages."),
    version("d", "delta"),
    version("c", "gamma given twice: the last one wins.", note="kept"),
]


def assert_a_batch_stores_what_one_at_a_time_stored(
    one_at_a_time: CorpusStore, batched: CorpusStore
) -> None:
    """Put ``FIRST`` then ``BATCH`` into two empty stores, one document a call and a batch a
    call, and hold them to the same contents."""
    for each in FIRST:
        one_at_a_time.put_many([each])
    batched.put_many(FIRST)
    # New documents only: numbered as one at a time numbered them, passage ids too.
    assert contents(batched, ids=True) == contents(one_at_a_time, ids=True)
    for each in BATCH:
        one_at_a_time.put_many([each])
    batched.put_many(BATCH)
    # Replaced and repeated ids: the same documents, passages, metadata and digest.
    assert contents(batched, ids=False) == contents(one_at_a_time, ids=False)
    stored = batched.get("c")
    assert stored is not None and stored.text == "gamma given twice: the last one wins."
    assert dict(stored.metadata) == {"note": "kept"}
    # A removed document put again is no longer listed as removed.
    batched.delete("b")
    assert batched.changes_since(0).removed == ["b"]
    batched.put_many([version("b", "beta again")])
    assert batched.changes_since(0).removed == []
