"""The PostgreSQL corpus: ranks as SQLite does, migrates in place, and says what is wrong.

The behaviour both stores share is tested once, in the other files of this folder, against
each store; this file holds what only the PostgreSQL store has: a schema ledger, in-place
migrations, a server that can be unreachable or drop connections.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from tests.conftest import fresh_schema
from tests.support.store_batches import (
    BATCH,
    FIRST,
    assert_a_batch_stores_what_one_at_a_time_stored,
    contents,
    version,
)

from citeline.corpus import Corpus, IndexUnreadableError, SchemaVersionError
from citeline.corpus.errors import CorpusUnavailableError
from citeline.corpus.stores.postgres import PostgresStore
from citeline.database import PostgresUrl, parse_database_url

QUERIES = (
    "pathway browser",
    "upgrading between releases",
    "apoptosis programmed cell death",
    "the installer",
    "cerebral tumour suppressor",
    "western blot report",
)


def test_postgres_ranks_the_collection_exactly_as_sqlite_does(
    postgres_url: str, tmp_path: Path, collection: Path
) -> None:
    with Corpus.open(tmp_path / "index.sqlite") as sqlite, Corpus.open(postgres_url) as postgres:
        sqlite.ingest(collection)
        postgres.ingest(collection)
        for query in QUERIES:
            expected = sqlite.search(query, k=20)
            assert expected, f"the fixture collection should match {query!r}"
            found = postgres.search(query, k=20)
            assert [(h.doc_id, h.start, h.end) for h in found] == [
                (h.doc_id, h.start, h.end) for h in expected
            ], query
            assert [h.score for h in found] == pytest.approx([h.score for h in expected])


def test_only_corpus_tables_and_the_schema_ledger_are_created(postgres_url: str) -> None:
    Corpus.open(postgres_url).close()
    with psycopg.connect(postgres_url) as connection:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        ]
    assert "citeline_schema" in names
    assert all(name.startswith("corpus_") for name in names if name != "citeline_schema")


def test_a_version_1_database_is_upgraded_in_place_and_keeps_its_documents(
    postgres_url: str,
) -> None:
    from citeline.corpus.stores.postgres import MIGRATIONS

    # Schema version 1 as an older citeline left it: its own postings, no totals, no
    # vectors, no title keys and no generations.
    with psycopg.connect(postgres_url) as connection:
        for statement in MIGRATIONS[0].statements:
            connection.execute(statement)
        connection.execute(
            "CREATE TABLE citeline_schema (component text PRIMARY KEY, version integer NOT "
            "NULL, migrated_at timestamptz NOT NULL DEFAULT now())"
        )
        connection.execute("INSERT INTO citeline_schema (component, version) VALUES ('corpus', 1)")
        connection.execute(
            "INSERT INTO corpus_documents (id, title, text, metadata, source, content_hash) "
            "VALUES ('old', 'Apoptosis', 'The apoptosis pathway ends a cell.', '{}', 'o', 'h')"
        )
        connection.execute(
            'INSERT INTO corpus_passages (document, start, "end", length) VALUES (1, 0, 34, 5)'
        )
        connection.execute(
            "INSERT INTO corpus_postings (term, passage, freq, length) VALUES "
            "('apoptosi', 1, 3, 5), ('pathway', 1, 1, 5)"
        )

    with Corpus.open(postgres_url) as corpus:
        assert len(corpus) == 1
        [hit] = corpus.search("apoptosis pathway")
        assert (hit.doc_id, hit.text) == ("old", "The apoptosis pathway ends a cell.")
    with psycopg.connect(postgres_url) as connection:
        version = connection.execute(
            "SELECT version FROM citeline_schema WHERE component = 'corpus'"
        ).fetchone()
        postings = connection.execute("SELECT to_regclass('corpus_postings')").fetchone()
    assert version == (len(MIGRATIONS),)
    assert postings == (None,)


def test_a_database_migrated_by_a_newer_citeline_is_refused_with_what_to_do(
    postgres_url: str,
) -> None:
    Corpus.open(postgres_url).close()
    with psycopg.connect(postgres_url) as connection:
        connection.execute("UPDATE citeline_schema SET version = 99 WHERE component = 'corpus'")
    with pytest.raises(SchemaVersionError, match=r"newer citeline than this one.*upgrade citeline"):
        Corpus.open(postgres_url)


def test_an_index_made_with_another_analysis_says_to_ingest_again(postgres_url: str) -> None:
    Corpus.open(postgres_url).close()
    with psycopg.connect(postgres_url) as connection:
        connection.execute("UPDATE corpus_meta SET value = '0' WHERE key = 'analysis_version'")
    with pytest.raises(SchemaVersionError, match="Ingest your sources again"):
        Corpus.open(postgres_url)


def test_an_unreachable_server_is_a_clear_error_naming_the_setting() -> None:
    # Port 9 (discard) on loopback: nothing listens there, so the refusal is immediate.
    url = "postgresql://citeline:secret@127.0.0.1:9/nothing"
    with pytest.raises(IndexUnreadableError, match="CITELINE_DATABASE_URL") as raised:
        Corpus.open(url)
    assert "cannot connect" in str(raised.value)
    assert "secret" not in str(raised.value)


def test_searches_carry_on_after_the_server_drops_every_connection(
    postgres_url: str, collection: Path
) -> None:
    with Corpus.open(postgres_url) as corpus:
        corpus.ingest(collection)
        expected = [h.doc_id for h in corpus.search("pathway")]
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        assert [h.doc_id for h in corpus.search("pathway")] == expected


@pytest.fixture
def other_postgres_url(postgres_url: str) -> Iterator[str]:
    """A second fresh schema beside ``postgres_url``'s, for a store to compare with."""
    with fresh_schema(postgres_url) as url:
        yield url


def _store(url: str) -> PostgresStore:
    location = parse_database_url(url)
    assert isinstance(location, PostgresUrl)
    return PostgresStore(location)


def test_a_batch_stores_what_one_document_at_a_time_stored(
    postgres_url: str, other_postgres_url: str
) -> None:
    one_at_a_time, batched = _store(other_postgres_url), _store(postgres_url)
    try:
        assert_a_batch_stores_what_one_at_a_time_stored(one_at_a_time, batched)
    finally:
        one_at_a_time.close()
        batched.close()


def test_a_batch_that_fails_part_way_stores_none_of_it(postgres_url: str) -> None:
    store = _store(postgres_url)
    try:
        store.put_many(FIRST)
        before, generation = contents(store, ids=True), store.generation()
        # PostgreSQL refuses a NUL character in text: the batch's third document fails
        # after the first two were sent, replacing one stored document and adding one.
        failing = [
            version("a", "alpha replaced"),
            version("e", "epsilon"),
            version("f", "bad\x00"),
        ]
        with pytest.raises((psycopg.Error, CorpusUnavailableError)):
            store.put_many(failing)
        assert contents(store, ids=True) == before
        assert store.generation() == generation
        store.put_many(failing[:2])
        replaced = store.get("a")
        assert replaced is not None and replaced.text == "alpha replaced"
    finally:
        store.close()


# Run in a child process: puts ``FIRST`` then ``BATCH`` into the store at argv[1], and dies
# (os._exit, as a killed process does: no rollback sent) once the second batch's COPY is
# under way, with the batch's transaction open on the server.
_KILLED_MIDBATCH = """
import os, sys
import psycopg
from tests.support.store_batches import BATCH, FIRST
from tests.corpus.test_postgres_store import _store

store = _store(sys.argv[1])
store.put_many(FIRST)
real_write_row = psycopg.Copy.write_row
def write_row(self, row):
    real_write_row(self, row)
    os._exit(9)
psycopg.Copy.write_row = write_row
store.put_many(BATCH)
"""


def test_a_process_killed_mid_batch_leaves_the_store_as_the_batch_found_it(
    postgres_url: str, other_postgres_url: str
) -> None:
    child = subprocess.run(
        [sys.executable, "-c", _KILLED_MIDBATCH, postgres_url],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    assert child.returncode == 9, child.stderr
    expected = _store(other_postgres_url)
    store = _store(postgres_url)
    try:
        expected.put_many(FIRST)
        assert contents(store, ids=True) == contents(expected, ids=True)
        assert store.generation() == expected.generation()
        # The rows the dead transaction held locked are free: the batch goes in whole.
        store.put_many(BATCH)
        expected.put_many(BATCH)
        assert contents(store, ids=False) == contents(expected, ids=False)
    finally:
        store.close()
        expected.close()
