"""The held-out collections (benchmarks/held-out/*/collection.toml): sites whose questions were
written before any answer over them was seen, which nothing is fitted or tuned on
(``crossval.py --held-out`` asks the answer engine as it ships over them). Their manifests and
files keep the agreed format, none shares a development collection's name (indexes are cached
by name), and every gold address is a section citeline indexes that holds an expected term,
so a figure over them measures the answers, not the set.

A site Debian installs is skipped where its package is not, and sources fetched from PyPI by
the set's prepare.sh where PyPI cannot be reached.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.gold_addresses import unheld_gold
from tests.support.question_sets.checks import Least, shape_problems
from tests.support.question_sets.manifest import every_collection, folder_or_reason

from citeline.corpus import Corpus
from citeline.evaluation.collections import find_collections

HELD_OUT = Path(__file__).parents[2] / "benchmarks" / "held-out"
# Smaller than the development sets' 45 / 12 / 6: a held-out set measures, it trains nothing.
LEAST = Least(questions=30, followups=8, off_topic=5)
COLLECTIONS = find_collections(HELD_OUT)
every_set = pytest.mark.parametrize("name", sorted(COLLECTIONS))


def test_no_held_out_collection_is_named_as_a_development_one() -> None:
    assert not COLLECTIONS.keys() & every_collection().keys()


@every_set
def test_the_held_out_manifest_names_a_site_an_address_and_its_three_files(name: str) -> None:
    collection = COLLECTIONS[name]
    assert collection.name == name and collection.kind == "site"
    assert collection.base_url.startswith("https://") and collection.base_url.endswith("/")
    named = (collection.questions, collection.followups, collection.off_topic)
    assert all(path is not None and path.is_file() for path in named)
    # A Debian package's site, or sources its prepare.sh fetches.
    assert (collection.site is not None and collection.debian_package) or (
        collection.fetched and collection.prepare is not None and collection.prepare.is_file()
    )


@every_set
def test_the_held_out_set_loads_with_enough_questions_of_every_kind(name: str) -> None:
    assert shape_problems(COLLECTIONS[name], LEAST) == []


@every_set
def test_every_held_out_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    name: str, tmp_path: Path
) -> None:
    collection = COLLECTIONS[name]
    site = folder_or_reason(collection, tmp_path / "prepared")
    if isinstance(site, str):
        pytest.skip(site)
    db = tmp_path / "index.sqlite"
    with Corpus.open(db) as corpus:
        corpus.ingest(site, base_url=collection.base_url)
    assert unheld_gold(db, collection.answerable()) == []
