"""The MkDocs development set: it loads, its follow-ups continue a question of the set, its
off-topic lines have no gold, and every gold address (www.mkdocs.org's directory form,
``user-guide/configuration/#site_name``) names a section of the documentation's pages whose
text holds an expected term, read from the HTML and as citeline indexes the pages
(benchmarks/questions/mkdocs)."""

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

DOCS = read_collection("mkdocs")
# The mkdocs theme puts a page's text in <div class="col-md-9" role="main">; the navigation
# bar, the table of contents and the search and keyboard dialogs are outside it.
MAIN = 'div[role="main"]'
needs_site = pytest.mark.skipif(
    not (DOCS.site / "user-guide" / "configuration.html").is_file(),
    reason="Debian's mkdocs-doc is not installed",
)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pages as prepare.sh lays them out, in this module's own cache folder."""
    return prepared_folder(DOCS, tmp_path_factory.mktemp("collections"))


def test_the_mkdocs_set_loads_with_gold_terms_kinds_and_off_topic_lines() -> None:
    check_question_files(DOCS, questions=45, followups=12, off_topic=6)


@needs_site
def test_the_prepared_site_has_directory_urls_and_documentation_pages_only(
    pages: Path,
) -> None:
    files = {page.relative_to(pages).as_posix() for page in pages.rglob("*") if page.is_file()}
    assert {"index.html", "user-guide/index.html", "user-guide/configuration/index.html"} <= files
    assert all(name.endswith("index.html") for name in files)
    # Not pages of documentation: the 404 page and the redirect to dev-guide/plugins/.
    assert not {"404/index.html", "404.html", "user-guide/plugins/index.html"} & files


@needs_site
def test_every_gold_address_is_a_section_of_the_pages_that_holds_an_expected_term(
    pages: Path,
) -> None:
    assert unread_gold(DOCS, pages, MAIN) == []


@needs_site
def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    pages: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    index = ingest(pages, DOCS.base_url, tmp_path_factory.mktemp("mkdocs") / "mkdocs.sqlite")
    assert unheld_gold(index, DOCS.answerable()) == []
