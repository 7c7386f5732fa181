"""The pytest development set: it loads in the agreed format, its follow-ups continue a
question of the set, its off-topic lines have no gold, and every gold address is a section of
Debian's python-pytest-doc pages, read apart from citeline and as citeline indexes them,
whose text holds an expected term (benchmarks/questions/pytest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.gold_addresses import QUESTIONS, unheld_gold
from tests.support.question_sets import (
    Collection,
    shape_problems,
    terms_outside_gold,
    unread_gold,
)

from citeline.corpus import Corpus

PYTEST = Collection.load(QUESTIONS / "pytest")
# Debian's python-pytest-doc, which .ci/run installs; the set's gold is read against it.
needs_site = pytest.mark.skipif(
    not (PYTEST.site / "index.html").is_file(),
    reason="Debian's python-pytest-doc is not installed",
)


@pytest.fixture(scope="module")
def pytest_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site ingested as run.sh ingests it: sections linked at their published anchors."""
    db = tmp_path_factory.mktemp("pytest") / "pytest.sqlite"
    with Corpus.open(db) as corpus:
        report = corpus.ingest(PYTEST.site, base_url=PYTEST.base_url)
    assert not report.skipped, report.skipped
    return db


def test_the_manifest_names_the_debian_site_and_the_projects_own_address() -> None:
    assert PYTEST.name == "pytest"
    assert PYTEST.site == Path("/usr/share/doc/python-pytest-doc/html")
    assert PYTEST.base_url == "https://docs.pytest.org/en/7.2.x/"


def test_the_set_loads_with_enough_questions_of_every_kind_and_unique_ids() -> None:
    assert shape_problems(PYTEST, questions=45, followups=12, off_topic=6) == []


@needs_site
def test_every_gold_address_is_a_section_of_the_pages_that_holds_an_expected_term() -> None:
    assert unread_gold(PYTEST) == []


@needs_site
def test_every_expected_term_occurs_in_a_gold_section_of_its_question() -> None:
    assert terms_outside_gold(PYTEST) == []


@needs_site
def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    pytest_index: Path,
) -> None:
    assert unheld_gold(pytest_index, PYTEST.answerable()) == []
