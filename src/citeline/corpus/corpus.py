"""``Corpus``: the corpus layer's public face, over a store chosen when it is opened.

The agent, the server and evaluation use only this class and the dataclasses it returns.
It is safe to call from several threads at once (the store gives each thread its own
connection). It deliberately holds no logic of its own beyond choosing the store and
naming the release: ingestion is in ``ingest``, ranking in the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from citeline.corpus.documents import Document, Hit
from citeline.corpus.ingest import IngestReport, ProgressCallback, ingest
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.database import PostgresUrl, parse_database_url

# A release label made from the content digest: 12 hex digits tell collections apart in logs
# and answer records without being a wall of hex.
_RELEASE_DIGITS = 12


class Corpus:
    """A searchable collection of documents."""

    def __init__(self, store: CorpusStore) -> None:
        self._store = store

    @classmethod
    def open(cls, path: str | Path) -> Corpus:
        """Open the index at ``path``, creating its tables if missing.

        ``path`` is a SQLite file (or a ``sqlite:///`` URL), or a ``postgresql://`` URL
        (``CITELINE_DATABASE_URL``): the same corpus, shared by several processes.
        """
        location = parse_database_url(path)
        if isinstance(location, PostgresUrl):
            # Imported here so a default install never needs the PostgreSQL driver.
            from citeline.corpus.stores.postgres import PostgresStore

            return cls(PostgresStore(location))
        return cls(SQLiteStore(location.path))

    def ingest(
        self,
        path: str | Path,
        *,
        prune: bool = False,
        release: str | None = None,
        progress: ProgressCallback | None = None,
        base_url: str | None = None,
    ) -> IngestReport:
        """Index the documents under ``path``; see ``citeline.corpus.ingest``.

        ``release`` labels the collection as it stands after this ingest; without one, the
        label is dropped as soon as any document changes and ``release`` falls back to a
        digest of the content. ``base_url`` is the address of the published site whose
        source ``path`` is: each document is linked at its page (and section) there.
        """
        report = ingest(self._store, Path(path), prune=prune, progress=progress, base_url=base_url)
        if release is not None:
            self._store.set_release_label(release)
        return report

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The ``k`` best passages for ``query``, best first."""
        return self._store.search(query, k)

    def get(self, doc_id: str) -> Document | None:
        """The document with this id, or None."""
        return self._store.get(doc_id)

    def documents(self) -> Iterator[Document]:
        """Every document, in the order they were first added."""
        return self._store.documents()

    @property
    def release(self) -> str | None:
        """The label given at ingest, else a short digest of the content; None when empty."""
        label = self._store.release_label()
        if label is not None:
            return label
        digest = self._store.content_digest()
        return None if digest is None else digest[:_RELEASE_DIGITS]

    def __len__(self) -> int:
        return self._store.count()

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
