"""The interfaces of the corpus store, split by who calls them, and the records they pass.

A store keeps documents, their passages and, for dense retrieval, one vector per passage
(and the vectors of the texts the embedded model reads for meaning, ``citeline.text.meaning``);
it is the source of truth that the lexical search index (``citeline.corpus.search_index``)
is derived from, and it hands its vectors to the in-process vector index
(``citeline.corpus.vectors``). It owns transactions: ``put_many`` changes a batch of
documents completely or not at all, and every write bumps the store's generation in the
same transaction, which is how the search index knows what it has not seen.

Each caller sees the part it uses, as ``collections.abc`` splits ``Sequence`` into its
parts: ``DocumentStore`` (ingest, retrieval and ``Corpus``: documents, hits, labels,
settings), ``ChangeFeed`` (the search index: what changed since a generation),
``PassageVectors`` and ``MeaningVectors`` (the two kinds of vector, one interface a kind: the
embedding stages and their readers). ``CorpusStore`` is all of them, and what one backend
implements; ``citeline.corpus.stores.sql`` implements it once for every SQL backend.

Parsing, hashing and deciding what to (re)index belong to ``ingest``; ranking to the search
index; a store deliberately does not read files.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from citeline.corpus.documents import Document, Hit, Passage


class Candidate(NamedTuple):
    """One passage a ranking found: its store id, its score (higher is better), and whether
    the query's terms are exactly its title's (``headings.title_key``).

    A named tuple rather than a frozen dataclass: a hybrid search makes about 210 of them,
    and a frozen dataclass's ``__init__`` (``object.__setattr__`` per field) measured 405 ns
    against 201 ns (about 0.04 ms of a SciFact query)."""

    passage: int
    score: float
    names_title: bool = False


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    """What ingest needs to know about a document already in the store."""

    doc_id: str
    content_hash: str
    source: str


class DocumentVersion(NamedTuple):
    """One document as ingest hands it to the store: its text split, hashed and sourced.

    A named tuple, as ``Candidate`` is: ingest makes one a document, and a page of 50,000
    sections (``benchmarks/hostile_files.py``) spent 0.4 µs more on each as a frozen
    dataclass."""

    document: Document
    passages: Sequence[Passage]
    content_hash: str
    source: str


class IndexableDocument(NamedTuple):
    """What the search index needs of a stored document: its passages' store ids and spans
    (``(passage id, start, end)``) over its text. A named tuple, as ``DocumentVersion`` is:
    the index reads one a document."""

    doc_id: str
    title: str
    text: str
    passages: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class StoreChanges:
    """The documents written (``changed``) and removed since a generation, up to
    ``generation``; ``since`` 0 lists every stored document."""

    generation: int
    changed: list[str]
    removed: list[str]


class Settings(ABC):
    """Values a collection keeps about itself (``retrieval``, ``embedding_model``)."""

    @abstractmethod
    def setting(self, key: str) -> str | None:
        """A value the collection keeps about itself, or None."""

    @abstractmethod
    def set_setting(self, key: str, value: str | None) -> None:
        """Record (or, with None, forget) one of the collection's own values."""


class DocumentStore(Settings):
    """The documents and what is said of them: what ingest writes, and what retrieval and
    ``Corpus`` read."""

    @abstractmethod
    def indexed(self) -> dict[str, IndexedDocument]:
        """Every stored document's id, content hash and source, keyed by id."""

    @abstractmethod
    def put_many(self, versions: Sequence[DocumentVersion]) -> None:
        """Add or replace each document and its passages, all in one transaction; of an id
        given twice the last version wins, as if each had been put in turn."""

    def put(
        self, document: Document, passages: Sequence[Passage], content_hash: str, source: str
    ) -> None:
        """Add or replace one document and its passages in one transaction."""
        self.put_many([DocumentVersion(document, passages, content_hash, source)])

    @abstractmethod
    def delete(self, doc_id: str) -> None:
        """Remove one document and its passages in one transaction; absent ids are ignored."""

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
    def hits(self, candidates: Sequence[Candidate]) -> list[Hit]:
        """The passages of ``candidates`` as hits, in the same order, scores kept."""

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


class ChangeFeed(ABC):
    """What the search index follows: the store's name, its generation, what changed."""

    @abstractmethod
    def identity(self) -> str:
        """A random name the collection was given when its tables were made: an index of
        another collection (a database emptied and ingested again) is told apart by it."""

    @abstractmethod
    def generation(self) -> int:
        """A number bumped in the same transaction as any document is written or removed."""

    @abstractmethod
    def changes_since(self, generation: int) -> StoreChanges:
        """The ids written and removed after ``generation``, read in one snapshot."""

    @abstractmethod
    def indexable(self, doc_ids: Sequence[str]) -> Iterator[IndexableDocument]:
        """The stored documents among ``doc_ids`` with their passages; absent ids skipped."""


class PassageVectors(ABC):
    """One vector a passage, of its title and text (dense retrieval): what the embedding
    stage writes and the vector index reads."""

    @abstractmethod
    def unembedded(self, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` passages that have no vector: (passage id, title and text)."""

    @abstractmethod
    def count_unembedded(self) -> int:
        """How many passages have no vector."""

    @abstractmethod
    def put_vectors(self, rows: Sequence[tuple[int, bytes]]) -> None:
        """Store each passage's vector in one transaction; a passage gone since is skipped."""

    @abstractmethod
    def clear_vectors(self) -> None:
        """Remove every vector (another model's vectors cannot be compared with this one's)."""

    @abstractmethod
    def vectors(self) -> Iterator[tuple[int, bytes]]:
        """Every stored (passage id, vector) pair."""

    @abstractmethod
    def vectors_version(self) -> int:
        """A number that changes in the same transaction as any vector is added or removed."""

    @abstractmethod
    def document_vectors(self, ids: Sequence[str]) -> dict[str, list[bytes]]:
        """The stored vectors of the passages of each document among ``ids``, by its id;
        a document without any is left out."""


class MeaningVectors(ABC):
    """The vectors of the texts each document is read by for meaning, kept on its first
    passage and found by the text's key: what the meaning stage writes and answers read."""

    @abstractmethod
    def without_meaning(self, limit: int) -> list[IndexableDocument]:
        """Up to ``limit`` documents whose meaning texts have no stored vectors (none on
        their first passage, which holds them all), with every passage's id and span."""

    @abstractmethod
    def count_without_meaning(self) -> int:
        """How many documents have no meaning vectors."""

    @abstractmethod
    def put_meanings(self, rows: Sequence[tuple[int, bytes, bytes]]) -> None:
        """Store each (passage id, text key, vector) in one transaction; a passage gone
        since is skipped."""

    @abstractmethod
    def clear_meanings(self) -> None:
        """Remove every meaning vector (another model's cannot stand in for this one's)."""

    @abstractmethod
    def meanings(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """The stored meaning vectors among ``keys``, by key; keys no passage has are left
        out."""


class CorpusStore(DocumentStore, ChangeFeed, PassageVectors, MeaningVectors):
    """Every part of a corpus store: what one backend implements."""

    @property
    @abstractmethod
    def local(self) -> bool:
        """Whether reads are this process's own work on a file, with no database server
        to wait on."""

    @abstractmethod
    def close(self) -> None:
        """Release every connection; the store cannot be used afterwards."""
