"""benchmarks/questions/gold_ids.py's lookup of a gold address among an index's sections: a
folder's address is answered by the folder's index.html, as a web server answers it."""

from __future__ import annotations

from typing import Any

from tests.support.gold_addresses import gold_ids_module

BASE = "https://www.example.org/"


def _index(*urls: str) -> Any:
    """An index's sections by address, one section (``doc-N``) at each of ``urls``."""
    gold_ids = gold_ids_module()
    return gold_ids.sections_by_url(
        gold_ids.IndexedSection(f"doc-{number}", url, "text") for number, url in enumerate(urls)
    )


def test_a_folder_address_with_an_anchor_is_its_index_page_section() -> None:
    by_url = _index(BASE + "guide/config/index.html#site_name", BASE + "guide/config/index.html")
    found = gold_ids_module().sections_at(by_url, BASE + "guide/config/#site_name")
    assert [section.id for section in found] == ["doc-0"]


def test_a_folder_address_is_its_index_page() -> None:
    by_url = _index(BASE + "index.html", BASE + "guide/index.html")
    sections_at = gold_ids_module().sections_at
    assert [section.id for section in sections_at(by_url, BASE)] == ["doc-0"]
    assert [section.id for section in sections_at(by_url, BASE + "guide/")] == ["doc-1"]


def test_a_page_address_is_not_read_as_another_file() -> None:
    by_url = _index(BASE + "quickstart.html#routing", BASE + "quickstart/index.html#other")
    sections_at = gold_ids_module().sections_at
    # The dirhtml form of a page built as quickstart.html is not that page: it stays missing.
    assert sections_at(by_url, BASE + "quickstart/#routing") == []
    assert [s.id for s in sections_at(by_url, BASE + "quickstart.html#routing")] == ["doc-0"]


def test_an_address_the_index_has_is_taken_as_it_is() -> None:
    by_url = _index(BASE + "guide/", BASE + "guide/index.html")
    assert [s.id for s in gold_ids_module().sections_at(by_url, BASE + "guide/")] == ["doc-0"]
