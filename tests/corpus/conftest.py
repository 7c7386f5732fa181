"""Fixtures for the corpus tests: every test that takes ``corpus`` (or ``store``, the store
itself without the search index) runs against each store.

Each store is one entry in ``STORES`` (and ``BACKENDS``), and the whole suite runs against each.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citeline.corpus import Corpus
from citeline.corpus.stores.base import CorpusStore
from citeline.corpus.stores.postgres import PostgresStore
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.database import PostgresUrl

FIXTURES = Path(__file__).parent / "fixtures"

# Each entry opens its store given the test's request (for fixtures such as ``postgres_url``,
# which skips the PostgreSQL runs when no server is configured) and a private folder.
STORES: dict[str, Callable[[pytest.FixtureRequest, Path], Corpus]] = {
    "sqlite": lambda request, folder: Corpus.open(folder / "index.sqlite"),
    "postgres": lambda request, folder: Corpus.open(request.getfixturevalue("postgres_url")),
}


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], CorpusStore]] = {
    "sqlite": lambda request, folder: SQLiteStore(folder / "store.sqlite"),
    "postgres": lambda request, folder: PostgresStore(
        PostgresUrl(request.getfixturevalue("postgres_url"))
    ),
}


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CorpusStore]:
    """An empty store of each backend, closed on teardown."""
    opened = BACKENDS[request.param](request, tmp_path)
    yield opened
    opened.close()


@pytest.fixture(params=sorted(STORES))
def open_corpus(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Corpus]]:
    """Opens (and on teardown closes) the store under test; each call opens it again."""
    opened: list[Corpus] = []

    def factory() -> Corpus:
        corpus = STORES[request.param](request, tmp_path)
        opened.append(corpus)
        return corpus

    yield factory
    for corpus in opened:
        corpus.close()


@pytest.fixture
def corpus(open_corpus: Callable[[], Corpus]) -> Corpus:
    return open_corpus()


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """A private copy of the fixture collection, free to edit."""
    target = tmp_path / "collection"
    shutil.copytree(FIXTURES / "collection", target)
    return target
