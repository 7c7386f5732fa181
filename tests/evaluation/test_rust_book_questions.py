"""The Rust book development set: it loads, its follow-ups continue a question of the set, its
off-topic lines have no gold, and every gold address names a section of the book's chapter
pages whose text holds an expected term, read from the HTML and as citeline indexes the pages
(benchmarks/questions/rust-book)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.collection_sets import (
    check_question_files,
    ingest,
    prepared_folder,
    read_collection,
    unread_gold,
)
from tests.support.gold_addresses import unheld_gold

BOOK = read_collection("rust-book")
# mdBook puts a chapter's text in <main>; the sidebar, menu bar and navigation are outside it.
MAIN = "main"
needs_site = pytest.mark.skipif(
    not (BOOK.site / "index.html").is_file(), reason="Debian's rust-doc is not installed"
)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The chapter pages as prepare.sh lays them out, in this module's own cache folder."""
    return prepared_folder(BOOK, tmp_path_factory.mktemp("collections"))


def test_the_rust_book_set_loads_with_gold_terms_kinds_and_off_topic_lines() -> None:
    check_question_files(BOOK, questions=45, followups=12, off_topic=6)


@needs_site
def test_the_prepared_book_is_the_chapter_pages_without_the_print_page(pages: Path) -> None:
    names = {page.name for page in pages.iterdir()}
    assert {"ch04-01-what-is-ownership.html", "appendix-05-editions.html"} <= names
    # print.html repeats every chapter; associated-types.html is a first-edition pointer.
    assert not {"print.html", "associated-types.html"} & names
    assert all(page.is_file() and page.suffix == ".html" for page in pages.iterdir())


@needs_site
def test_every_gold_address_is_a_section_of_the_pages_that_holds_an_expected_term(
    pages: Path,
) -> None:
    assert unread_gold(BOOK, pages, MAIN) == []


@needs_site
def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    pages: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    index = ingest(pages, BOOK.base_url, tmp_path_factory.mktemp("rust-book") / "book.sqlite")
    assert unheld_gold(index, BOOK.answerable()) == []
