"""Where a reader follows a citation: ``contracts/fixtures/citation-links.json`` held against
the events' own encoding, and ``href`` held to being an http(s) address and nothing else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.events import from_json, web_address

FIXTURE = json.loads(
    (
        Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "citation-links.json"
    ).read_text("utf-8")
)


@pytest.mark.parametrize("case", FIXTURE["valid"], ids=lambda case: case["name"])
def test_each_valid_citation_reads_and_writes_back_exactly(case: dict[str, Any]) -> None:
    citation = from_json("citation", case["citation"])
    assert citation.payload() == case["citation"]
    if "href" in case["citation"]:
        # A client links by href alone whenever the server sends one.
        assert case["link"] == case["citation"]["href"]


@pytest.mark.parametrize("case", FIXTURE["invalid"], ids=lambda case: case["name"])
def test_each_invalid_citation_is_refused(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        from_json("citation", case["citation"])


@pytest.mark.parametrize(
    "candidate",
    [
        "https://tidewater.example/docs/faq.html#why",
        "http://127.0.0.1:8000/x?q=1",
    ],
)
def test_an_absolute_http_address_is_a_web_address(candidate: str) -> None:
    assert web_address(candidate) == candidate


@pytest.mark.parametrize(
    "candidate",
    [
        None,
        "",
        "/docs/a.html",
        "docs/a.html",
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "file:///etc/passwd",
        "data:text/html,<script>",
        "https://",
        " https://example.org/",
        "https://example.org/a b",
        "https://example.org/\na",
        "https://[::1",
    ],
)
def test_anything_else_is_not(candidate: str | None) -> None:
    assert web_address(candidate) is None


@given(st.sampled_from(["", "http://", "https://", "javascript:", "//"]), st.text(max_size=60))
def test_a_web_address_is_the_text_itself_and_opens_over_http(scheme: str, rest: str) -> None:
    text = scheme + rest
    found = web_address(text)
    if found is not None:
        assert found == text
        assert text.lower().startswith(("http://", "https://"))
        assert all(character.isprintable() and not character.isspace() for character in text)
