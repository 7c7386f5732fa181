"""A stored document's url is an http(s) address or absent (issue 29, item 12).

Probed: a ``javascript:``, ``data:`` or ``vbscript:`` url from front matter (even under
``--base-url``), a page's canonical link or ``og:url``, or a JSONL record was stored,
served by ``GET /v1/search`` without a token, and shown to the model as the address to
cite; and under ``--base-url`` a front matter ``//host/`` named another site.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citeline.corpus import Corpus

UNSAFE = [
    "javascript:alert(document.cookie)",
    "data:text/html,<script>x</script>",
    "vbscript:msgbox(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "https:no-host",
]


def _stored_urls(
    folder: Path, tmp_path: Path, base_url: str | None = None
) -> dict[str, str | None]:
    with Corpus.open(tmp_path / "index.db") as corpus:
        report = corpus.ingest(folder, base_url=base_url)
        assert not report.skipped, report.skipped
        return {document.id: document.url for document in corpus.documents()}


@pytest.mark.parametrize("url", UNSAFE)
def test_an_address_that_is_not_http_is_not_stored_from_any_reader(
    tmp_path: Path, url: str
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "front.md").write_text(
        f"---\nid: front\nurl: {json.dumps(url)}\n---\n# Front\n\nText.\n"
    )
    escaped = url.replace('"', "&quot;")
    (folder / "canonical.html").write_text(
        f'<html><head><link rel="canonical" href="{escaped}"><title>C</title></head>'
        "<body><main><h1>Canonical</h1><p>Text of the page.</p></main></body></html>"
    )
    (folder / "og.html").write_text(
        f'<html><head><meta property="og:url" content="{escaped}"><title>O</title></head>'
        "<body><main><h1>Open graph</h1><p>Text of the page.</p></main></body></html>"
    )
    (folder / "records.jsonl").write_text(
        json.dumps({"_id": "record", "title": "Record", "text": "Text.", "url": url}) + "\n"
    )
    assert set(_stored_urls(folder, tmp_path).values()) == {None}


def test_under_a_base_url_an_unsafe_front_matter_url_gives_way_to_the_pages_address(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "guide.md").write_text(
        "---\nid: guide\nurl: javascript:alert(1)\n---\n# G\n\nText.\n"
    )
    with Corpus.open(tmp_path / "index.db") as corpus:
        report = corpus.ingest(folder, base_url="https://docs.example.org/")
        guide = corpus.get("guide")
        assert guide is not None and guide.url == "https://docs.example.org/guide/"
        assert "dropped 1 urls that were not http(s) addresses" in report.summary()


def test_under_a_base_url_a_protocol_relative_url_is_a_path_of_the_site(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "page.md").write_text("---\nid: page\nurl: //evil.example/x\n---\n# P\n\nText.\n")
    (folder / "other.md").write_text("---\nid: other\nurl: /guide/install/\n---\n# O\n\nText.\n")
    urls = _stored_urls(folder, tmp_path, base_url="https://docs.example.org/")
    assert urls == {
        "other": "https://docs.example.org/guide/install/",
        "page": "https://docs.example.org/evil.example/x",
    }


def test_http_and_https_addresses_are_stored_as_written(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "records.jsonl").write_text(
        json.dumps({"_id": "a", "title": "A", "text": "Text.", "url": "https://e.org/a"})
        + "\n"
        + json.dumps({"_id": "b", "title": "B", "text": "Text.", "url": "HTTP://e.org/b"})
        + "\n"
    )
    assert _stored_urls(folder, tmp_path) == {"a": "https://e.org/a", "b": "HTTP://e.org/b"}
