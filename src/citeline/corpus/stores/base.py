"""The one interface every corpus store implements (SQLite now, PostgreSQL later).

A store keeps documents, their passages and a text index, and answers ranked passage
searches. It owns transactions: ``put`` and ``delete`` each change one document completely
or not at all. Parsing, hashing and deciding what to (re)index belong to ``ingest``; a store
deliberately does not read files.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from citeline.corpus.documents import Document, Hit, Passage


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    """What ingest needs to know about a document already in the store."""

    doc_id: str
    content_hash: str
    source: str


class CorpusStore(ABC):
    """Documents, passages and a ranked text index behind one small interface."""

    @abstractmethod
    def indexed(self) -> dict[str, IndexedDocument]:
        """Every stored document's id, content hash and source, keyed by id."""

    @abstractmethod
    def put(
        self, document: Document, passages: Sequence[Passage], content_hash: str, source: str
    ) -> None:
        """Add or replace one document and its passages in one transaction."""

    @abstractmethod
    def delete(self, doc_id: str) -> None:
        """Remove one document and its passages in one transaction; absent ids are ignored."""

    @abstractmethod
    def search(self, query: str, k: int) -> list[Hit]:
        """The ``k`` best passages for ``query``, best first; [] when nothing matches."""

    @abstractmethod
    def get(self, doc_id: str) -> Document | None:
        """The stored document with this id, or None."""

    @abstractmethod
    def documents(self) -> Iterator[Document]:
        """Every stored document, in the order they were first added."""

    @abstractmethod
    def count(self) -> int:
        """How many documents are stored."""

    @abstractmethod
    def content_digest(self) -> str | None:
        """A hex digest of every (id, content hash) pair, or None when the store is empty.

        It changes whenever any document is added, changed or removed, in the same
        transaction as that change.
        """

    @abstractmethod
    def release_label(self) -> str | None:
        """The label given at the last ingest, or None once any document has changed since."""

    @abstractmethod
    def set_release_label(self, label: str | None) -> None:
        """Record the label that names the collection as it is now."""

    @abstractmethod
    def close(self) -> None:
        """Release every connection; the store cannot be used afterwards."""
