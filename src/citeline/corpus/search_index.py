"""The lexical search index: tantivy over citeline's own terms, derived from the corpus store.

The store (SQLite, PostgreSQL) is the source of truth; this index is a copy of its passages'
terms that can always be rebuilt from it, kept in a folder of this machine (beside a SQLite
file; under a cache folder for PostgreSQL: ``search_index_folder``). Why tantivy: FTS5 and
the PostgreSQL postings computed BM25 for every matching passage before the ``LIMIT`` (a
median SciFact query matches half the collection), where tantivy's block-max WAND skips the
passages that cannot reach the top k. Measured on SciFact train (809 queries): nDCG@10
0.7056 against FTS5's 0.7050, 0.11 ms CPU per query inside tantivy.

Quality: the text is analysed by ``analysis.terms`` and handed to tantivy already split
(its ``whitespace`` tokenizer), so a term is what it was under FTS5. Title and heading
terms are written ``TITLE_WEIGHT`` and ``HEADING_WEIGHT`` times into the one field, which is
FTS5's weighted ``bm25()`` (weighted term frequency, one inverse document frequency over the
whole passage). Three tantivy fields with boosts score each field's BM25 apart instead, and
measured 0.6299 on the same queries. A query whose terms are exactly a title's
(``headings.title_key``), or a section's own heading's, puts that passage first when it is
among the ``TITLE_WINDOW`` best, or from anywhere when few passages carry that title.

Consistency: every store write bumps the store's generation in its own transaction; the
index records the generation it holds in a file beside tantivy's (``GENERATION_FILE``),
written after the tantivy commit that holds the passages, under the same writer lock, and
read before the index is reloaded: the generation an index says it holds is never ahead of
its passages. A crash between the two leaves it behind them, and catching up from there again
deletes and adds the same documents. Opening, and every search at most every
``FOLLOW_SECONDS``, compares the two and catches up with what changed since
(``ChangeFeed.changes_since``): after a crash mid-ingest, after another process's ingest, or
on a new machine (from generation 0, the whole collection). One process writes at a time
(tantivy's writer lock); one that finds the lock taken searches the last commit and looks
again later.

Determinism: tantivy's BM25 takes the document count, the terms' document frequencies and the
average length from every segment's documents, deleted ones too until a merge drops them
(a segment all deleted is dropped at once). The generation was a marker document, deleted and
added again at each commit; the deleted markers left among passages raised the document
count by a number that followed the commits, so the wall clock: a commit per batch changed
the scores of 134 of 135 questions on the Python docs, and two ingests of the same code on a
loaded machine disagreed on 134. The index now holds passages only, so a store ingested
afresh, in any number of commits, batches or processes, scores to the bit alike; passages of
equal score are ordered by id (``_best``), whichever segments hold them. A re-ingest's
replaced passages still count until tantivy merges their segment (its Python binding asks
for no merge); ``citeline reindex`` scores as a fresh ingest does.

It deliberately does not read files, decide what to re-ingest, or fetch hits' text: that is
``ingest``'s and the store's.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import tantivy
from filelock import FileLock

from citeline.corpus.documents import TITLE_SEPARATOR, Passage
from citeline.corpus.errors import DiskFullError, IndexUnreadableError
from citeline.corpus.headings import key_of, passage_headings, query_title_keys
from citeline.corpus.stores.base import Candidate, ChangeFeed, IndexableDocument
from citeline.text.identifiers import may_write_names
from citeline.text.index_terms import ANALYSIS_VERSION, INDEX, asked_terms, indexed_text

# Bump when what is indexed for a passage changes: an index of another format is rebuilt.
# 2: the passage id is a fast field, read for a search's hits in one call.
# 3: a section of a page is keyed by its own heading as well as by its whole title path.
# 4: a passage's document is named by a digest of its id (``_document_key``).
# 5: a name written as code is indexed by its parts too (``citeline.text.identifiers``); the
# store keeps no terms, so only this derived index is built again, on open.
# 6: a document is named by its own id where that is short (``_document_key``).
# 7: the generation is a file beside the index (``GENERATION_FILE``), no marker document.
INDEX_FORMAT = f"7/{ANALYSIS_VERSION}"
# Title terms count twice a body term: measured on SciFact's train split, nDCG@10 0.699 at
# 1:1, 0.703 at 2:1, 0.705 at 3:1; 2:1 keeps most of the gain without leaning on titles.
# Over ten documentation collections, searched by words alone, 2 puts the gold section in
# the first three for 0.022 more of the questions than 1; 3 and 4 are flat against 2
# (``benchmarks/questions/search_fusion.py --title-weight``, docs/benchmarks.md).
TITLE_WEIGHT = 2
# The headings in force over a passage (``headings.passage_headings``) count as a title does:
# they are the section's name where a page is not split into one document per section.
# The ten documentation collections, split per section, barely have such passages: 1 to 4
# move a gold section's place for at most two questions of a collection.
HEADING_WEIGHT = 2
# A query that names a section's title puts that section first when it is among this many
# best BM25 passages: measured on the bundled Python sample, every one of its 618 titles
# asked as a query has its section within the first 100.
TITLE_WINDOW = 100
# How a site's reader writes a section's title: the page's, then each heading's, to its own.
_TITLE_PATH = re.compile(f"{re.escape(TITLE_SEPARATOR)}| > ")
# A heading's number ("7.2.2. ", "E.20. ") is no word a reader names it by.
_SECTION_NUMBER = re.compile(r"^\s*(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+")
# Passages under the title a query names, at most, for them to be named from anywhere: a
# section or two (a long section is cut into several); a heading many sections share
# ("Examples") holds hundreds.
UNIQUE_TITLE_PASSAGES = 10
# How stale another process's writes may look: a search looks at the store's generation at
# most this often (a PostgreSQL round trip each time), so a commit elsewhere is searchable
# here within a second.
FOLLOW_SECONDS = 1.0
# How often an ingest commits the index while it writes batches (and once at its end): each
# commit costs a writer, a segment and merges, measured 0.17 s of CPU apiece on SciFact, so
# committing after every 500-document batch doubled the ingest's CPU; searches elsewhere
# see an ingest's documents this late at most. Wall time may choose the commits: no score
# depends on how many there were (the module's Determinism paragraph).
INGEST_COMMIT_SECONDS = 10.0
# The longest id that is its own document key in the index (``_document_key``); a longer one
# is named by a digest. A digest for every document cost more than the rest of indexing a
# one-passage section: random 64-character terms share no prefix in the term dictionary,
# and a page of 50,000 sections (``benchmarks/hostile_files.py``) spent 11 µs of CPU a
# section in tantivy with them, 4.5 µs with its ids, which share their page's name. Far
# under tantivy's 65,530 bytes a term at 4 bytes a character.
OWN_KEY_CHARS = 1000
# Documents read back from the store per tantivy batch while catching up: bounds memory on a
# million-passage rebuild; a batch is a few megabytes of text.
CATCH_UP_BATCH = 1000
# The writer's indexing memory (tantivy's floor is 15 MB per thread) and one indexing
# thread: ingest runs on machines that also serve, and one thread kept up with analysis.
WRITER_HEAP_BYTES = 50_000_000
# Free bytes under which a failed write of the index is taken for a full disk.
NEARLY_FULL = 1 << 20
# Words of a query looked up for ``unheld`` at most: a question has about ten, and each is
# a look-up in the term dictionary; a model's query is not bounded in length.
UNHELD_WORDS = 64
# Hits a search asks for at most to hold every passage tied with its k-th (``_best``): a
# tie past the k-th costs a search that cannot skip the tied passages, and a site of
# generated pages ties thousands (50,000 sections of one sentence each: 42 ms of CPU a
# query where tantivy's own choice of the tie took 0.48 ms).
TIED_HITS = 1000
# Hits a search asks for past its k-th at first (``_best``): synthetic passages of a small
# vocabulary tie at the k-th place in many queries, and asking one past it made each such
# tie a second search, 0.265 ms a query at 10,000 passages against 0.217 ms without the
# ties' order (2.40x tantivy where it was 2.00x); 8 past it: 0.204 ms, 2.07x in the same
# conditions, SciFact unchanged (benchmarks/retrieval.py --peers).
TIE_LOOKAHEAD = 8
# Where a PostgreSQL collection's index lives unless CITELINE_SEARCH_INDEX says.
SEARCH_INDEX_ENV = "CITELINE_SEARCH_INDEX"
# The format, collection and store generation the index holds, in its folder: a document of
# the index would count in every passage's BM25 (the module's Determinism paragraph).
GENERATION_FILE = "citeline-generation.json"
_HELD_DRAFT = GENERATION_FILE + ".draft"

logger = logging.getLogger(__name__)


def search_index_folder(database: str, sqlite_file: Path | None) -> Path:
    """Where the index of ``database`` lives: ``CITELINE_SEARCH_INDEX`` if set, else beside
    a SQLite file (``FILE.search-index``), else under the user's cache folder, one folder per
    PostgreSQL database (named by a digest of its address, without the password)."""
    chosen = os.environ.get(SEARCH_INDEX_ENV, "").strip()
    if chosen:
        return Path(chosen)
    if sqlite_file is not None:
        return sqlite_file.with_name(sqlite_file.name + ".search-index")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    name = hashlib.sha256(database.encode()).hexdigest()[:16]
    return cache / "citeline" / "search-index" / name


def _schema() -> Any:
    builder = tantivy.SchemaBuilder()
    # A fast (columnar) field: a search reads its 100 hits' ids in one call, where fetching
    # each stored document took 0.2 ms of a SciFact query.
    builder.add_integer_field("passage", stored=True, indexed=False, fast=True)
    builder.add_text_field("document", tokenizer_name="raw", index_option="basic")
    builder.add_text_field("title_key", tokenizer_name="raw", index_option="basic")
    # Term frequencies without positions: BM25 needs no more, and no query here is a phrase.
    builder.add_text_field("terms", tokenizer_name="whitespace", index_option="freq")
    return builder.build()


class SearchIndex:
    """The tantivy index of one store's passages, kept in step with the store."""

    def __init__(
        self,
        folder: Path,
        store: ChangeFeed,
        *,
        rebuild: bool = False,
        follow_seconds: float | None = None,
    ) -> None:
        """Open (or create) the index in ``folder`` and catch it up with ``store``; with
        ``rebuild``, an index whose files cannot be read is discarded and every passage is
        indexed afresh (``citeline reindex``)."""
        self._folder = folder
        self._store = store
        self._schema = _schema()
        self._follow_seconds = FOLLOW_SECONDS if follow_seconds is None else follow_seconds
        self._following = threading.Lock()
        self._collection = store.identity()
        self._checked = float("-inf")
        self._closed = False
        # Opening (which clears an index of another format or collection and builds it
        # afresh) is one process at a time per folder: two servers opening one collection
        # after an upgrade each cleared the other's new files, and the one that lost served
        # an empty index for as long as it ran. The lock is a file beside the folder, which
        # clearing the folder must not remove.
        folder.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(folder.with_name(folder.name + ".lock"))):
            self._index = self._open(discard_unreadable=rebuild)
            self._generation = self._indexed_generation()
            if rebuild:
                self.rebuild()
            else:
                self.follow()

    # -- opening -----------------------------------------------------------------------

    def _open(self, *, discard_unreadable: bool) -> Any:
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            if tantivy.Index.exists(str(self._folder)):
                try:
                    index = tantivy.Index.open(str(self._folder))
                    # Without the file: a format before 7, or a folder whose creation
                    # stopped between tantivy's files and it (``_held`` is written second).
                    readable = (_held(self._folder) or {}).get("format") == INDEX_FORMAT
                except ValueError:
                    if not discard_unreadable:
                        raise
                    readable = False
                if readable:
                    index.config_reader(reload_policy="Manual")
                    return index
                # Another format, or damaged and asked to rebuild: derived data, so it is
                # built again rather than refused.
                self._clear_folder()
            index = tantivy.Index(self._schema, str(self._folder), reuse=False)
            index.config_reader(reload_policy="Manual")
            _hold(self._folder, self._collection, 0)
            return index
        except (OSError, ValueError) as error:
            raise IndexUnreadableError(
                f"the search index at {self._folder} cannot be opened ({error}). Run "
                "`citeline reindex` (with the same --db) to build it again from the collection."
            ) from error

    def _clear_folder(self) -> None:
        # Only what tantivy wrote: a folder given by mistake loses nothing else.
        for entry in self._folder.iterdir():
            if entry.suffix in {
                ".idx",
                ".pos",
                ".term",
                ".store",
                ".fast",
                ".fieldnorm",
                ".del",
            } or (entry.name in {"meta.json", ".managed.json", GENERATION_FILE, _HELD_DRAFT}):
                entry.unlink()
            elif entry.is_dir():
                shutil.rmtree(entry)

    # -- following the store -----------------------------------------------------------

    @property
    def generation(self) -> int:
        """The store generation this index holds."""
        return self._generation

    def follow(self, *, strict: bool = False) -> bool:
        """Catch up with the store's writes since the index's generation; False when another
        process holds the writer (its commit is picked up at a later look), or when the disk
        is full: searches then answer from the last commit, and a later look catches up once
        there is space. With ``strict`` (an ingest, a rebuild), a full disk is a
        ``DiskFullError``."""
        with self._following:
            self._checked = time.monotonic()
            wanted = self._store.generation()
            if wanted == self._generation:
                return True
            # The file first: the commit it names is written before it, so the index then
            # reloaded holds at least that generation.
            self._generation = self._indexed_generation()
            self._index.reload()
            if wanted == self._generation:
                return True
            writer = self._writer()
            if writer is None:
                return False
            # Read again under the writer lock, where it is the last commit's: a process that
            # caught up in the meantime is not followed by a second catch-up of the same
            # documents, whose replaced passages would count in every score until merged.
            self._generation = self._indexed_generation()
            self._index.reload()
            if wanted == self._generation:
                del writer
                return True
            # An index ahead of its store (the database restored from an older backup) holds
            # passages the store lost: only a whole rebuild can say which.
            since = self._generation if self._generation <= wanted else 0
            try:
                self._generation = self._catch_up(writer, since)
            except (OSError, ValueError) as error:
                if not _is_disk_full(error, self._folder):
                    raise
                full = DiskFullError(
                    f"The disk holding the search index at {self._folder} is full ({error}): "
                    "free some space and run the command again. What was stored is kept, and "
                    "the index catches up with it then."
                )
                if strict:
                    raise full from error
                logger.warning("%s Searching the index's last commit meanwhile.", full)
                return False
            finally:
                del writer
            self._index.reload()
            return True

    def rebuild(self) -> int:
        """Index every passage of the store afresh; the number of passages indexed."""
        with self._following:
            writer = self._writer()
            if writer is None:
                raise IndexUnreadableError(
                    f"another process is writing the search index at {self._folder} (an ingest "
                    "or a catch-up); run `citeline reindex` again when it has finished."
                )
            try:
                self._generation = self._catch_up(writer, 0)
            except (OSError, ValueError) as error:
                if not _is_disk_full(error, self._folder):
                    raise
                raise DiskFullError(
                    f"The disk holding the search index at {self._folder} is full ({error}): "
                    "free some space and run `citeline reindex` again."
                ) from error
            finally:
                del writer
            self._index.reload()
            return int(self._index.searcher().num_docs)

    def _writer(self) -> Any | None:
        try:
            return self._index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
        except ValueError as error:
            if "LockBusy" in str(error) or "lock" in str(error).lower():
                return None
            raise

    def _catch_up(self, writer: Any, since: int) -> int:
        if since == 0:
            # From nothing: whatever the folder held (another format, another collection,
            # a commit from before a crash) goes.
            writer.delete_all_documents()
        # An index that holds no passages (built from nothing, or its first ingest) has
        # nothing to delete: each document is listed once in ``changes.changed``. SciFact's
        # first ingest spent 10 to 20 ms of CPU on 5,183 deletes of nothing.
        empty = since == 0 or self._index.searcher().num_docs == 0
        changes = self._store.changes_since(since)
        for doc_id in changes.removed:
            writer.delete_documents_by_term("document", _document_key(doc_id))
        for start in range(0, len(changes.changed), CATCH_UP_BATCH):
            batch = changes.changed[start : start + CATCH_UP_BATCH]
            # Deleted first, all of them: a document gone from the store since the list was
            # read is then gone from the index too.
            if not empty:
                for doc_id in batch:
                    writer.delete_documents_by_term("document", _document_key(doc_id))
            # A batch is analysed whole before any of it reaches the writer: added as each
            # passage was analysed, tantivy's indexing thread woke for every passage, and
            # SciFact's ingest cost 0.04 s more CPU (that thread's, mostly).
            titles = _Titles()
            rows = [
                tantivy.Document(passage=passage_id, document=owner, title_key=key, terms=text)
                for document in self._store.indexable(batch)
                for owner in [_document_key(document.doc_id)]
                for passage_id, text, key in _passage_rows(document, titles)
            ]
            for row in rows:
                writer.add_document(row)
            del rows
        writer.commit()
        # Before the lock goes with the writer (``wait_merging_threads`` consumes it).
        _hold(self._folder, self._collection, changes.generation)
        writer.wait_merging_threads()
        return changes.generation

    def _indexed_generation(self) -> int:
        """The generation the index holds; 0 (so it is built whole) when it holds another
        format or another collection's passages."""
        held = _held(self._folder)
        if held is None or held.get("format") != INDEX_FORMAT:
            return 0
        generation = held.get("generation")
        if held.get("collection") != self._collection or not isinstance(generation, int):
            return 0
        return generation

    def after_batch(self) -> None:
        """Told by an ingest after each batch it stored: follows every
        ``INGEST_COMMIT_SECONDS``, so a long ingest is searchable as it goes; a full disk
        stops the ingest."""
        self.follow_if_due(INGEST_COMMIT_SECONDS, strict=True)

    def follow_if_due(self, seconds: float | None = None, *, strict: bool = False) -> None:
        """``follow`` unless the last look was under ``seconds`` (default: the interval
        given at open) ago, or another thread is catching up now."""
        due = self._follow_seconds if seconds is None else seconds
        # A search never waits on another thread's catch-up: it reads the last commit.
        if time.monotonic() - self._checked >= due and not self._following.locked():
            self.follow(strict=strict)

    # -- searching ---------------------------------------------------------------------

    def lexical(self, query: str, k: int) -> list[Candidate]:
        """The ``k`` best passages for ``query`` by BM25, best first (equal scores by passage
        id), those whose title the query names first; [] when nothing matches."""
        if self._closed:
            raise RuntimeError("this corpus is closed; open it again to use it")
        # Analysed once: the terms searched for and the title keys both come from it.
        found = INDEX.terms(query)
        wanted = asked_terms(found)
        if not wanted or k < 1:
            return []
        self.follow_if_due()
        searcher = self._index.searcher()
        # A name the query writes as two words ("starts with") is looked for as one too
        # where the index holds it (``startswith``): most joins are no term at all.
        wanted += [
            term
            for term in INDEX.compound_terms(query)
            if term not in wanted and searcher.doc_freq("terms", term)
        ]
        matching = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "terms", term))
                for term in wanted
            ]
        )
        ranked = [Candidate(passage, score) for passage, score in _best(searcher, matching, k)]
        named = self._named(searcher, matching, query_title_keys(found))
        if not named:
            return ranked
        first = [Candidate(passage, score, True) for passage, score in named]
        rest = [c for c in ranked if c.passage not in {passage for passage, _ in named}]
        return (first + rest)[:k]

    def unheld(self, query: str) -> list[str]:
        """The words of ``query`` (folded, distinct, in the order written) no passage holds in
        its text, title or headings: none of their terms is in the index. A word without a
        term (a stop word) is held. Over fifteen documentation sites, 0.50 to 1.00 of the
        questions about another product wrote such a word, 0.00 to 0.29 of the answerable
        ones (docs/benchmarks.md, "A lead for off-topic questions")."""
        if self._closed:
            raise RuntimeError("this corpus is closed; open it again to use it")
        words = list(dict.fromkeys(INDEX.split(query)))[:UNHELD_WORDS]
        if not words:
            return []
        self.follow_if_due()
        searcher = self._index.searcher()
        unheld = []
        for word in words:
            terms = INDEX.terms(word)
            if terms and not any(searcher.doc_freq("terms", term) for term in terms):
                unheld.append(word)
        return unheld

    def _named(
        self, searcher: Any, matching: Any, keys: tuple[str, ...]
    ) -> list[tuple[int, float]]:
        """The passages titled exactly as the query asks (by any of ``keys``: see
        ``headings.query_title_keys``): among the ``TITLE_WINDOW`` best, or anywhere when
        ``UNIQUE_TITLE_PASSAGES`` or fewer carry the title."""
        keys = tuple(key for key in dict.fromkeys(keys) if searcher.doc_freq("title_key", key))
        # Most queries name no title: a look-up in the term dictionary spares them a search.
        if not keys:
            return []
        title_is = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "title_key", key))
                for key in keys
            ]
        )
        titled = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Must, matching),
                (tantivy.Occur.Must, tantivy.Query.const_score_query(title_is, 0.0)),
            ]
        )
        found = _best(searcher, titled, TITLE_WINDOW)
        if not found:
            return []
        # A title few sections carry (a FAQ's "What is <the product>?" in a manual of 4,462
        # sections, where the product's name matches a third of all passages) is named
        # however far down its words alone rank it; a common one ("Examples") only among
        # the best passages.
        if len(found) > UNIQUE_TITLE_PASSAGES:
            # Rare (most queries name no title), so the window's floor is only read then.
            window = searcher.search(matching, TITLE_WINDOW, count=False).hits
            floor = window[-1][0] if len(window) == TITLE_WINDOW else float("-inf")
            found = [hit for hit in found if hit[1] >= floor]
        return found

    def close(self) -> None:
        """Refuse further searches; tantivy's files are released with the last reference."""
        self._closed = True

    def count(self) -> int:
        """How many passages the index holds (its last reloaded commit)."""
        return int(self._index.searcher().num_docs)


def _is_disk_full(error: BaseException, folder: Path) -> bool:
    """Whether ``error`` (the operating system's, or tantivy's ``ValueError``) came of a full
    disk: it says so, or the index's disk has under ``NEARLY_FULL`` bytes free (a writer
    thread's failure reaches Python as "An index writer was killed", without its cause)."""
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        return True
    text = str(error)
    if "No space left on device" in text or f"os error {errno.ENOSPC})" in text:
        return True
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL
    except OSError:
        return False


def _document_key(doc_id: str) -> str:
    """The term a document's passages are found by to be deleted: its id after "=", or a
    digest of it (which never starts with "=") where the id is over ``OWN_KEY_CHARS`` or is
    no UTF-8 (a lone surrogate). tantivy keeps no term over 65,530 bytes, so a longer id
    (the store accepts any) was indexed without one, its passages were never deleted, and
    when their ids were reused they answered searches for words that the passages now under
    those ids do not hold."""
    if len(doc_id) <= OWN_KEY_CHARS and (doc_id.isascii() or _is_utf8(doc_id)):
        return "=" + doc_id
    return hashlib.sha256(doc_id.encode("utf-8", "surrogatepass")).hexdigest()


def _is_utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _passage_rows(
    document: IndexableDocument, titles: _Titles | None = None
) -> Iterator[tuple[int, str, list[str]]]:
    """(passage id, its weighted terms as one text, the document's title keys) per passage;
    ``titles`` remembers the titles already met (``_Titles``).

    The terms text is for the ``whitespace`` tokenizer, so runs of spaces (a stop word's
    place, an empty heading's) count for nothing: no list of terms is built per passage."""
    weighted_title, key = (_Titles() if titles is None else titles)[document.title]
    text = document.text
    spans = document.passages
    # passage_headings answers "" for every passage of a text without a "#" (every BEIR
    # abstract): asked only of the others, no Passage objects are made for those.
    if "#" in text:
        passages = [Passage(start, end, text[start:end]) for _, start, end in spans]
        headings = passage_headings(text, passages)
    else:
        headings = [""] * len(spans)
    for (passage_id, start, end), heading in zip(spans, headings, strict=True):
        heading_terms = " ".join(INDEX.terms(heading) * HEADING_WEIGHT) if heading else ""
        body = indexed_text(text[start:end])
        yield passage_id, f"{weighted_title} {heading_terms} {body}", key


class _Titles(dict[str, tuple[str, list[str]]]):
    """Each title's terms, ``TITLE_WEIGHT`` times as one text, and its keys: its whole
    title's, and its own heading's where the title is a path (a FAQ entry titled
    "Programming FAQ › What is X?" is named by the question "What is X?").

    Worked out the first time a title is met: a page's sections can share one title, and a
    page of 20,000 sections all titled "Same" (``benchmarks/hostile_files.py``) spent 2.5 µs
    a section of the catch-up's 20 analysing it again. One is made per catch-up batch, so
    it holds ``CATCH_UP_BATCH`` titles at most, and as many of their paths' heads."""

    def __init__(self) -> None:
        super().__init__()
        self._heads: dict[str, list[str]] = {}

    def __missing__(self, title: str) -> tuple[str, list[str]]:
        parts = _TITLE_PATH.split(title)
        last = parts[-1]
        own = _SECTION_NUMBER.sub("", last)
        if len(parts) > 1 and not may_write_names(title):
            # The path's terms are its head's, then its last part's: no word spans the
            # separator (non-word characters between spaces), and no name is written. The
            # head is the page's title, shared by its sections, and the last part is
            # analysed once for both keys: 1.5 µs of a section's 5.8 on a page of 50,000
            # ("H0 › H1", ``benchmarks/hostile_files.py``), 1.2 of 11 on the Python docs.
            head = title[: len(title) - len(last)]
            head_terms = self._heads.get(head)
            if head_terms is None:
                head_terms = self._heads[head] = INDEX.terms(head)
            last_terms = INDEX.terms(last)
            title_terms = head_terms + last_terms
            own_terms: list[str] | None = last_terms if own == last else INDEX.terms(own)
        else:
            title_terms = INDEX.terms(title)
            own_terms = INDEX.terms(own) if own != title else None
        key = [key_of(title_terms)]
        if own_terms is not None and (own_key := key_of(own_terms)) not in key:
            key.append(own_key)
        found = self[title] = (" ".join(title_terms * TITLE_WEIGHT), key)
        return found


def _best(searcher: Any, query: Any, k: int) -> list[tuple[int, float]]:
    """The ``k`` best passages for ``query``, (passage id, score), best first and those of
    equal score by id.

    tantivy orders equal scores by where the passages lie in its segments, which follows
    when they were committed and merged, and of a tie at the ``k``-th place keeps those it
    met first. So hits are asked for past the ``k``-th until one scores below it: every
    passage scoring as the ``k``-th is then among them (twice as many each time, so a tie of
    n passages costs about two searches of n), up to ``TIED_HITS``: past it, which of a
    larger tie are kept is tantivy's choice. The first search asks ``TIE_LOOKAHEAD`` past
    the k-th, so a short tie costs no second search."""
    limit = k + TIE_LOOKAHEAD
    while True:
        hits = searcher.search(query, limit, count=False).hits
        if len(hits) < limit or hits[-1][0] < hits[k - 1][0] or limit >= TIED_HITS:
            break
        limit = max(limit, min(2 * limit, TIED_HITS))
    scores = [score for score, _ in hits]
    found = list(zip(_passages(searcher, hits), scores, strict=True))
    # Sorted only where two scores tie: 15 µs of a 0.22 ms query at k = 100.
    if len(set(scores)) < len(scores):
        found.sort(key=lambda hit: (-hit[1], hit[0]))
    return found[:k]


def _passages(searcher: Any, hits: Sequence[tuple[float, Any]]) -> list[int]:
    """The passage ids of search hits, from the fast field."""
    if not hits:
        return []
    return [int(passage) for passage in searcher.fast_field_values("passage", [a for _, a in hits])]


def _held(folder: Path) -> dict[str, Any] | None:
    """What ``GENERATION_FILE`` in ``folder`` says (format, collection, generation); None
    when there is none or it cannot be read."""
    try:
        held = json.loads((folder / GENERATION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return held if isinstance(held, dict) else None


def _hold(folder: Path, collection: str, generation: int) -> None:
    """Write ``GENERATION_FILE``: whole or not at all (a draft, synced, then renamed over
    it), so a reader or a crash never meets half of it."""
    draft = folder / _HELD_DRAFT
    with draft.open("w", encoding="utf-8") as file:
        json.dump(
            {"format": INDEX_FORMAT, "collection": collection, "generation": generation}, file
        )
        file.flush()
        os.fsync(file.fileno())
    os.replace(draft, folder / GENERATION_FILE)
