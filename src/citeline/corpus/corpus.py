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
from citeline.corpus.embedding import Embedder, EmbedProgressCallback, dense_installed
from citeline.corpus.ingest_report import IngestReport, ProgressCallback
from citeline.corpus.retrieval import (
    RETRIEVAL_ENV,
    Retrieval,
    Retriever,
    chosen_retrieval,
    default_retrieval,
    parse_retrieval,
    words_only_note,
)
from citeline.corpus.search_index import SearchIndex, search_index_folder
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.database import PostgresUrl, parse_database_url
from citeline.text.meaning import MeaningReader, meaning_key

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
            self._retriever = self._new_retriever()
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
        return self._store.local

    @property
    def retrieval(self) -> Retrieval:
        """The mode searches run in."""
        return self._retriever.mode

    @property
    def built_for(self) -> Retrieval:
        """The mode the collection was built for, as its last ingest recorded it."""
        return parse_retrieval(self._store.setting("retrieval") or Retrieval.LEXICAL)

    @property
    def retrieval_note(self) -> str | None:
        """Why searches run by words alone, as a sentence to say once: a machine without
        the extra, or vectors the collection does not hold yet; None where they run as the
        collection was built and the extra is installed."""
        if self._retriever.note is not None:
            return self._retriever.note
        return None if dense_installed() else words_only_note()

    def searched_as_built(self) -> tuple[Retrieval, str | None]:
        """The mode searches of the collection run in on this machine when nobody names one,
        and why that is words alone though it was built for more (``retrieval_note``)."""
        retriever = Retriever(self._store, self._index, self.built_for, explicit=False)
        note = retriever.note or (None if dense_installed() else words_only_note())
        return retriever.mode, note

    def _new_retriever(self) -> Retriever:
        mode, explicit = chosen_retrieval(self._store, self._requested)
        return Retriever(self._store, self._index, mode, explicit=explicit)

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
        reading: MeaningReader | None = None,
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
        ``CITELINE_RETRIEVAL``, else the mode it was built for before, else hybrid where the
        ``citeline[dense]`` extra is installed and lexical where it is not).

        Where the extra is installed, the vectors searches and answers read are made here,
        once (``citeline.corpus.embed``): for dense and hybrid, every passage without a
        vector, telling ``embed_progress`` (done, total); and, given a ``reading`` (the
        texts an answer reads each document by for meaning: the command line passes the
        embedded model's, ``citeline.agent.meaning.reading``), in every mode the vectors of
        those texts for each document that has none, telling ``meaning_progress`` (documents
        done, total).
        """
        mode, explicit = self._ingest_mode(retrieval)
        # A lexical ingest with nothing to read for meaning embeds nothing: loading the model
        # anyway cost 104 MB and 0.26 s of CPU.
        needs_model = mode is not Retrieval.LEXICAL or reading is not None
        embedder = _ingest_embedder(mode, explicit) if needs_model else None
        report = self._read_files(
            Path(path),
            prune=prune,
            progress=progress,
            base_url=base_url,
            include_root=Path(include_root) if include_root is not None else None,
        )
        self._index.follow(strict=True)
        self._vectors_after_ingest(mode, embedder, reading, embed_progress, meaning_progress)
        self._store.set_setting("retrieval", mode.value)
        if release is not None:
            self._store.set_release_label(release)
        self._remember_name(Path(path), report.site_name)
        self._retriever = self._new_retriever()
        return report

    def _read_files(
        self,
        path: Path,
        *,
        prune: bool,
        progress: ProgressCallback | None,
        base_url: str | None,
        include_root: Path | None,
    ) -> IngestReport:
        """``ingest`` over this collection's store, its search index following each batch."""
        # Here, not at the top: a server never ingests, and the readers of every source
        # format (``ingest``, ``site_name``) are 4 MB of its memory (``ingest_report``).
        from citeline.corpus.ingest import ingest

        try:
            return ingest(
                self._store,
                path,
                prune=prune,
                progress=progress,
                base_url=base_url,
                after_batch=self._index.after_batch,
                include_root=include_root,
            )
        except BaseException:
            # Also when the ingest failed part way: the batches it stored are searchable
            # (as far as the disk allows: the failure raised is the ingest's).
            self._index.follow()
            raise

    def _vectors_after_ingest(
        self,
        mode: Retrieval,
        embedder: Embedder | None,
        reading: MeaningReader | None,
        embed_progress: EmbedProgressCallback | None,
        meaning_progress: EmbedProgressCallback | None,
    ) -> None:
        """The passage vectors ``mode`` needs made (or dropped, built lexical on purpose),
        and the meaning vectors of ``reading``'s texts."""
        if embedder is not None:
            from citeline.corpus.embed import embed_missing, read_for_meaning

            if mode is not Retrieval.LEXICAL:
                embed_missing(self._store, embedder, embed_progress)
            elif self._store.setting("embedding_model") is not None:
                self._store.clear_vectors()
                self._store.set_setting("embedding_model", None)
            if reading is not None:
                read_for_meaning(self._store, embedder, reading, meaning_progress)
        elif mode is Retrieval.LEXICAL and self._store.setting("embedding_model") is not None:
            # Built lexical on purpose: the passage vectors go. A machine without the extra
            # leaves a hybrid collection's vectors (and its meaning vectors) for the next
            # ingest with it to complete.
            self._store.clear_vectors()
            self._store.set_setting("embedding_model", None)

    @property
    def site_name(self) -> str | None:
        """What the collection's owner calls it, as its ingests read it from the site
        (``citeline.corpus.site_name``, with the title part the ingest learned its pages
        share); None for a collection ingested before that."""
        return self._store.setting(SITE_NAME_SETTING)

    def _remember_name(self, path: Path, shared_title: str | None) -> None:
        # Imported by the ingest that calls this, as ``ingest`` is (its readers).
        from citeline.corpus.site_name import folder_name, site_name

        # A site's own name replaces any; a folder's name only stands in until one is read,
        # so adding a loose file to a site's collection does not rename it.
        named = site_name(path, shared_title)
        if named is None and self.site_name is not None:
            return
        self._store.set_setting(SITE_NAME_SETTING, named or folder_name(path))

    @property
    def indexed_passages(self) -> int:
        """How many passages this machine's search index holds."""
        return self._index.count()

    def _ingest_mode(self, retrieval: Retrieval | str | None) -> tuple[Retrieval, bool]:
        """The mode this ingest builds for, and whether it was asked for by name."""
        chosen = retrieval or os.environ.get(RETRIEVAL_ENV)
        if chosen:
            return (chosen if isinstance(chosen, Retrieval) else parse_retrieval(chosen)), True
        recorded = self._store.setting("retrieval")
        return (parse_retrieval(recorded) if recorded else default_retrieval()), False

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The ``k`` best passages for ``query``, best first, in the ``retrieval`` mode."""
        return self._retriever.search(query, k)

    def unheld_words(self, query: str) -> list[str]:
        """The words of ``query`` that no passage of the collection holds (folded, in the order
        written): what it asks about that the collection never writes, whatever the mode."""
        return self._index.unheld(query)

    def meaning_vectors(self, texts: Sequence[str], model_id: str) -> dict[str, bytes]:
        """The vectors ingest stored for those of ``texts`` that are a passage's meaning text
        (``citeline.text.meaning``), as ``citeline.text.vector_bytes``'s meaning bytes, when
        ``model_id`` made them; texts without one are left out (none at all for a lexical
        collection)."""
        if not texts or self._store.setting("meaning_model") != model_id:
            return {}
        keys = {meaning_key(text): text for text in texts}
        return {keys[key]: vector for key, vector in self._store.meanings(list(keys)).items()}

    def passage_vectors(self, ids: Sequence[str], model_id: str) -> dict[str, list[bytes]]:
        """The vectors dense retrieval stored for the passages of each document among
        ``ids`` (``citeline.text.vector_bytes``'s passage bytes), by its id, when ``model_id``
        made them; documents without any are left out (all of a lexical collection's)."""
        if not ids or self._store.setting("embedding_model") != model_id:
            return {}
        return self._store.document_vectors(ids)

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


def _ingest_embedder(mode: Retrieval, explicit: bool) -> Embedder | None:
    """The sentence model an ingest embeds with, where the extra is installed; a mode that
    needs it, asked for by name without it, is refused before any document is read, so a
    missing extra costs no work."""
    if not dense_installed():
        if mode is not Retrieval.LEXICAL and explicit:
            from citeline.corpus.embedding import load_embedder

            load_embedder()  # raises DenseUnavailableError, saying how to install it
        return None
    from citeline.corpus.embedding import load_embedder

    return load_embedder()
