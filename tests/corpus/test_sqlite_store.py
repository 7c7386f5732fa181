"""The SQLite file: shared with other tables, versioned, and clear about what it cannot read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.support.store_batches import assert_a_batch_stores_what_one_at_a_time_stored

from citeline.corpus import Corpus, IndexUnreadableError, SchemaVersionError
from citeline.corpus.stores.sqlite import SQLiteStore


def test_open_creates_the_file_with_only_corpus_prefixed_tables(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with Corpus.open(path) as corpus:
        assert len(corpus) == 0
    with sqlite3.connect(path) as connection:
        names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
        journal = connection.execute("PRAGMA journal_mode").fetchone()[0]
    assert names and all(name.startswith(("corpus_", "sqlite_")) for name in names)
    assert journal == "wal"


def test_the_corpus_shares_a_file_with_other_tables(tmp_path: Path, collection: Path) -> None:
    path = tmp_path / "shared.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE answers (id TEXT PRIMARY KEY, body TEXT)")
        connection.execute("INSERT INTO answers VALUES ('a1', 'kept')")
    with Corpus.open(path) as corpus:
        corpus.ingest(collection)
    with Corpus.open(path) as corpus:
        assert len(corpus) == 8
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT body FROM answers").fetchone() == ("kept",)


def test_an_index_from_another_schema_version_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    Corpus.open(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE corpus_meta SET value = '0' WHERE key = 'schema_version'")
    with pytest.raises(SchemaVersionError, match="Ingest your sources again into a new file"):
        Corpus.open(path)


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("these are not the tables you are looking for\n" * 100, "utf-8")
    with pytest.raises(IndexUnreadableError, match="cannot be opened as a citeline index"):
        Corpus.open(path)


def test_a_closed_corpus_refuses_further_use(tmp_path: Path) -> None:
    corpus = Corpus.open(tmp_path / "index.sqlite")
    corpus.close()
    with pytest.raises(RuntimeError, match="closed"):
        corpus.search("anything")


def test_a_batch_stores_what_one_document_at_a_time_stored(tmp_path: Path) -> None:
    one_at_a_time, batched = SQLiteStore(tmp_path / "one.db"), SQLiteStore(tmp_path / "batch.db")
    try:
        assert_a_batch_stores_what_one_at_a_time_stored(one_at_a_time, batched)
    finally:
        one_at_a_time.close()
        batched.close()
