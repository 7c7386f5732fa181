"""Ingestion: from a path to stored documents, incrementally, in batched transactions.

Reads each source file (``formats``), splits documents into passages (``passages``) and
stores only what changed, judged by a content hash. A bad file or record is reported with
its path and reason and skipped; the good ones around it are still indexed. With ``prune``,
documents no longer found under the path are removed, except those whose source file is
still there but could not be read this time: a file that fails to parse loses nothing.
Parts a reader left out on purpose (include directives it cannot resolve) are counted in
the report, and so are document urls that are not http(s) addresses, which are not stored
(the page's own address under the base URL takes one's place). With a ``base_url``, each
document is linked at its page on the published site.
Changed documents are written ``INGEST_BATCH`` at a time, one transaction each, and
``after_batch`` is called after each (the search index catches up there).
It deliberately knows nothing about how a store keeps or ranks documents.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from citeline.corpus.documents import Document, web_address
from citeline.corpus.errors import SourcePathError
from citeline.corpus.formats import Item, Omitted, Rejected, SiteName, read_source, source_files
from citeline.corpus.ingest_report import (
    IngestProblem,
    IngestProgress,
    IngestReport,
    ProgressCallback,
)
from citeline.corpus.passages import MAX_PASSAGE_CHARS, split_passages
from citeline.corpus.stores.base import CorpusStore, DocumentVersion, IndexedDocument

# A JSONL export can hold millions of records in one file; reporting every this many
# documents keeps a progress display moving without costing measurable time.
PROGRESS_EVERY_DOCUMENTS = 500


# Documents per store transaction, and the text that closes a batch early. Measured on
# SciFact (5,183 abstracts): one transaction per document wrote 400 MB of WAL for a 15 MB
# file; a batch bounds what a crash loses to redo (the search index follows each batch)
# and the memory a batch of large documents holds.
INGEST_BATCH = 500
INGEST_BATCH_CHARS = 16_000_000


# What the report calls a document url that was not an http(s) address, dropped.
NOT_WEB_URLS = "urls that were not http(s) addresses"

# What ``json.dumps(..., ensure_ascii=False, sort_keys=True)`` uses, made once: dumps builds
# an encoder per call when given options.
_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True)
# How that encoder writes a string (the C function it calls itself, ``ensure_ascii`` off).
_JSON_STRING = json.encoder.encode_basestring


def content_hash(document: Document) -> str:
    """A digest of everything that is indexed about ``document``, and how it is split."""
    # The encoder's text of [id, title, url, text, metadata, MAX_PASSAGE_CHARS], written
    # out: the encoder set up its C encoder for every call, 2 µs of a section's 3.6
    # (a page of 50,000 sections, ``benchmarks/hostile_files.py``); each field is written
    # by the encoder's own function, so the text and the digest are the same.
    url = "null" if document.url is None else _JSON_STRING(document.url)
    metadata = _CANONICAL.encode(dict(document.metadata)) if document.metadata else "{}"
    canonical = (
        f"[{_JSON_STRING(document.id)}, {_JSON_STRING(document.title)}, {url}, "
        f"{_JSON_STRING(document.text)}, {metadata}, {MAX_PASSAGE_CHARS}]"
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def ingest(
    store: CorpusStore,
    path: Path,
    *,
    prune: bool = False,
    progress: ProgressCallback | None = None,
    base_url: str | None = None,
    after_batch: Callable[[], object] | None = None,
    include_root: Path | None = None,
) -> IngestReport:
    """Bring ``store`` up to date with the documents under ``path``; with ``base_url``,
    the folder is a published site's and each document is linked at its page there.
    ``include_root`` bounds what Markdown include directives may read (``formats``)."""
    if not path.exists():
        raise SourcePathError(f"{path} does not exist; give a file or folder to ingest.")
    try:
        files = source_files(path, base_url=base_url, include_root=include_root)
    except OSError as error:
        raise SourcePathError(
            f"{path} cannot be listed ({error}); check its permissions."
        ) from error
    run = _Run(store, store.indexed(), after_batch)
    for done, source_file in enumerate(files, start=1):
        source = str(source_file.path.resolve())
        shown = str(source_file.path)
        for item in read_source(source_file):
            counted = run.take(item, source, shown, source_file.url)
            if counted and progress is not None and run.documents % PROGRESS_EVERY_DOCUMENTS == 0:
                progress(IngestProgress(source_file.path, done - 1, len(files), run.documents))
        if progress is not None:
            progress(IngestProgress(source_file.path, done, len(files), run.documents))
    run.flush()
    removed = run.prune() if prune else 0
    return IngestReport(
        run.added,
        run.updated,
        run.unchanged,
        removed,
        tuple(run.problems),
        run.omitted,
        run.site_name,
    )


@dataclass
class _Run:
    """One ingest's account: what it has seen, kept and found wrong, and the batch of
    changed documents it has yet to write."""

    store: CorpusStore
    indexed: Mapping[str, IndexedDocument]
    after_batch: Callable[[], object] | None
    first_source: dict[str, str] = field(default_factory=dict)
    kept_sources: set[str] = field(default_factory=set)
    kept_ids: set[str] = field(default_factory=set)
    problems: list[IngestProblem] = field(default_factory=list)
    omitted: dict[str, int] = field(default_factory=dict)
    site_name: str | None = None
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    documents: int = 0
    pending: list[DocumentVersion] = field(default_factory=list)
    pending_chars: int = 0

    def take(self, item: Item, source: str, shown: str, page_url: str | None) -> bool:
        """Account for one thing a source yielded; whether it was a document, counted.
        ``page_url`` is the page's own address under the base URL, if any."""
        if isinstance(item, Omitted):
            self.omitted[item.what] = self.omitted.get(item.what, 0) + item.count
            return False
        if isinstance(item, SiteName):
            self.site_name = item.name
            return False
        if isinstance(item, Rejected):
            self.problems.append(IngestProblem(shown, item.reason, item.doc_id))
            if item.doc_id is None:
                self.kept_sources.add(source)
            else:
                self.kept_ids.add(item.doc_id)
            return False
        if item.id in self.first_source:
            reason = (
                f"its id is already used by {self.first_source[item.id]}; "
                "give each document its own id"
            )
            self.problems.append(IngestProblem(shown, reason, item.id))
            return False
        self.first_source[item.id] = shown
        if item.url is not None and web_address(item.url) is None:
            # Not an http(s) address: the page's own address under the base URL, if any.
            item = dataclasses.replace(item, url=web_address(page_url))
            self.omitted[NOT_WEB_URLS] = self.omitted.get(NOT_WEB_URLS, 0) + 1
        self.documents += 1
        self._document(item, source, shown)
        return True

    def _document(self, item: Document, source: str, shown: str) -> None:
        # Not ``strip()``: that copies every text to ask whether it is all whitespace.
        if not item.text or item.text.isspace():
            self.problems.append(IngestProblem(shown, "it has no text to index", item.id))
            self.kept_ids.add(item.id)
            return
        digest = content_hash(item)
        before = self.indexed.get(item.id)
        if before is not None and before.content_hash == digest:
            self.unchanged += 1
            return
        self.pending.append(DocumentVersion(item, split_passages(item.text), digest, source))
        self.pending_chars += len(item.text)
        if len(self.pending) >= INGEST_BATCH or self.pending_chars >= INGEST_BATCH_CHARS:
            self.flush()
        if before is None:
            self.added += 1
        else:
            self.updated += 1

    def flush(self) -> None:
        if self.pending:
            self.store.put_many(self.pending)
            self.pending.clear()
            self.pending_chars = 0
            if self.after_batch is not None:
                self.after_batch()

    def prune(self) -> int:
        """Delete the documents no longer under the path (but those whose source or id
        failed this time: a bad file loses nothing); how many were deleted."""
        removed = 0
        for doc_id, before in self.indexed.items():
            if (
                doc_id in self.first_source
                or doc_id in self.kept_ids
                or before.source in self.kept_sources
            ):
                continue
            self.store.delete(doc_id)
            removed += 1
        if removed and self.after_batch is not None:
            self.after_batch()
        return removed
