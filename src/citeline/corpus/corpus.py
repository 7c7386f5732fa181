"""``Corpus``: the corpus layer's public face, over a store chosen when it is opened.

The agent, the server and evaluation use only this class and the dataclasses it returns.
It is safe to call from several threads at once (the store gives each thread its own
connection). It deliberately holds no logic of its own beyond choosing the store, its
search index's folder, the retrieval mode and naming the release: ingestion is in
``ingest`` and ``embed``, ranking in ``search_index``, ``vectors`` and ``fusion``
(``retrieval`` says which).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

from citeline.corpus.documents import Document, Hit
from citeline.corpus.embed import EmbedProgressCallback
from citeline.corpus.ingest import IngestReport, ProgressCallback, ingest
from citeline.corpus.meaning import meaning_key
from citeline.corpus.retrieval import (
    RETRIEVAL_ENV,
    Retrieval,
    Retriever,
    chosen_retrieval,
    default_retrieval,
    parse_retrieval,
)
from citeline.corpus.search_index import SearchIndex, search_index_folder
from citeline.corpus.site_name import folder_name, site_name
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.database import PostgresUrl, parse_database_url

# The store setting that keeps the collection's own name (``citeline.corpus.site_name``).
SITE_NAME_SETTING = "site_name"
# A release label made from the content digest: 12 hex digits tell collections apart in logs
# and answer records without being a wall of hex.
_RELEASE_DIGITS = 12


class Corpus:
    """A searchable collection of documents."""

    def __init__(
        self,
        store: CorpusStore,
        search_index: Path,
        retrieval: Retrieval | str | None = None,
        *,
        rebuild_index: bool = False,
    ) -> None:
        self._store = store
        self._requested = retrieval
        try:
            self._index = SearchIndex(search_index, store, rebuild=rebuild_index)
            self._retriever = Retriever(store, self._index, chosen_retrieval(store, retrieval))
        except BaseException:
            store.close()
            raise

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        retrieval: Retrieval | str | None = None,
        search_index: Path | None = None,
        rebuild_index: bool = False,
    ) -> Corpus:
        """Open the index at ``path``, creating its tables if missing.

        ``path`` is a SQLite file (or a ``sqlite:///`` URL), or a ``postgresql://`` URL
        (``CITELINE_DATABASE_URL``): the same corpus, shared by several processes.
        ``retrieval`` (lexical, dense, hybrid) overrides ``CITELINE_RETRIEVAL``, which
        overrides the mode the collection was ingested for. ``search_index`` is the folder
        of this machine's search index (default: ``search_index.search_index_folder``); it
        is brought up to date with the collection here, built whole if missing. With
        ``rebuild_index`` (``citeline reindex``) it is built whole again, even from damaged
        files.
        """
        location = parse_database_url(path)
        if isinstance(location, PostgresUrl):
            # Imported here so a default install never needs the PostgreSQL driver.
            from citeline.corpus.stores.postgres import PostgresStore

            folder = search_index or search_index_folder(location.redacted, None)
            return cls(PostgresStore(location), folder, retrieval, rebuild_index=rebuild_index)
        folder = search_index or search_index_folder(str(location.path), location.path)
        return cls(SQLiteStore(location.path), folder, retrieval, rebuild_index=rebuild_index)

    @property
    def local(self) -> bool:
        """Whether searches and reads are this process's own work on a file (SQLite), with
        no database server to wait on."""
        return isinstance(self._store, SQLiteStore)

    @property
    def retrieval(self) -> Retrieval:
        """The mode searches run in."""
        return self._retriever.mode

    def ingest(
        self,
        path: str | Path,
        *,
        prune: bool = False,
        release: str | None = None,
        progress: ProgressCallback | None = None,
        base_url: str | None = None,
        include_root: str | Path | None = None,
        retrieval: Retrieval | str | None = None,
        embed_progress: EmbedProgressCallback | None = None,
        meaning_progress: EmbedProgressCallback | None = None,
    ) -> IngestReport:
        """Index the documents under ``path``; see ``citeline.corpus.ingest``.

        ``release`` labels the collection as it stands after this ingest; without one, the
        label is dropped as soon as any document changes and ``release`` falls back to a
        digest of the content. ``base_url`` is the address of the published site whose
        source ``path`` is: each document is linked at its page (and section) there.
        ``include_root`` is the folder Markdown include directives may read files under
        (default: the project ``path`` lies in).
        ``retrieval`` is the mode the collection is built for (default:
        ``CITELINE_RETRIEVAL``, else the mode it was built for before, else lexical); for
        dense and hybrid, every passage without a vector is embedded after the documents are
        stored (``citeline.corpus.embed``), and ``embed_progress`` is told (done, total); then
        every passage without a meaning vector (what the embedded model reads of a section,
        ``citeline.corpus.meaning``) gets one, and ``meaning_progress`` is told likewise.
        """
        mode = self._ingest_mode(retrieval)
        embedder = None
        if mode is not Retrieval.LEXICAL:
            from citeline.corpus.embedding import load_embedder

            # Loaded before any document is read, so a missing extra costs no work.
            embedder = load_embedder()
        try:
            report = ingest(
                self._store,
                Path(path),
                prune=prune,
                progress=progress,
                base_url=base_url,
                after_batch=self._index.after_batch,
                include_root=Path(include_root) if include_root is not None else None,
            )
        except BaseException:
            # Also when the ingest failed part way: the batches it stored are searchable
            # (as far as the disk allows: the failure raised is the ingest's).
            self._index.follow()
            raise
        self._index.follow(strict=True)
        if embedder is not None:
            from citeline.corpus.embed import embed_meanings, embed_missing

            embed_missing(self._store, embedder, embed_progress)
            # The model is loaded and such an ingest is minutes long already: on SciFact the
            # meaning vectors took 75 s of CPU beside 107 s for the rest (load 7); a lexical
            # ingest (1.2 s) is left without them (docs/corpus.md says why).
            embed_meanings(self._store, embedder, meaning_progress)
        else:
            if self._store.setting("embedding_model") is not None:
                self._store.clear_vectors()
                self._store.set_setting("embedding_model", None)
            if self._store.setting("meaning_model") is not None:
                # Passages written from now on would have none, and the answer would read
                # some sections from the store and some on demand: all on demand, then.
                self._store.clear_meanings()
                self._store.set_setting("meaning_model", None)
        self._store.set_setting("retrieval", mode.value)
        if release is not None:
            self._store.set_release_label(release)
        self._remember_name(Path(path))
        self._retriever = Retriever(
            self._store, self._index, chosen_retrieval(self._store, self._requested)
        )
        return report

    @property
    def site_name(self) -> str | None:
        """What the collection's owner calls it, as its ingests read it from the site
        (``citeline.corpus.site_name``); None for a collection ingested before that."""
        return self._store.setting(SITE_NAME_SETTING)

    def _remember_name(self, path: Path) -> None:
        # A site's own name replaces any; a folder's name only stands in until one is read,
        # so adding a loose file to a site's collection does not rename it.
        named = site_name(path)
        if named is None and self.site_name is not None:
            return
        self._store.set_setting(SITE_NAME_SETTING, named or folder_name(path))

    @property
    def indexed_passages(self) -> int:
        """How many passages this machine's search index holds."""
        return self._index.count()

    def _ingest_mode(self, retrieval: Retrieval | str | None) -> Retrieval:
        chosen = retrieval or os.environ.get(RETRIEVAL_ENV) or self._store.setting("retrieval")
        if not chosen:
            return default_retrieval()
        return chosen if isinstance(chosen, Retrieval) else parse_retrieval(chosen)

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The ``k`` best passages for ``query``, best first, in the ``retrieval`` mode."""
        return self._retriever.search(query, k)

    def meaning_vectors(self, texts: Sequence[str], model_id: str) -> dict[str, bytes]:
        """The vectors ingest stored for those of ``texts`` that are a passage's meaning text
        (``citeline.corpus.meaning``), as ``MEANING_DTYPE`` bytes, when ``model_id`` made
        them; texts without one are left out (none at all for a lexical collection)."""
        if not texts or self._store.setting("meaning_model") != model_id:
            return {}
        keys = {meaning_key(text): text for text in texts}
        return {keys[key]: vector for key, vector in self._store.meanings(list(keys)).items()}

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
        self._index.close()
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
