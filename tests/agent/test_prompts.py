"""The prompts are files, and each answer prompt pins what the stream pipeline relies on."""

from __future__ import annotations

import pytest

from citeline.agent import load_prompt


@pytest.mark.parametrize("profile", ["search", "chat"])
def test_each_answer_prompt_asks_for_inline_anchors_to_the_given_hrefs(profile: str) -> None:
    prompt = load_prompt(profile)  # type: ignore[arg-type]
    assert "`[Title](href)`" in prompt
    assert "Never write an `href` that no tool returned" in prompt


@pytest.mark.parametrize("profile", ["search", "chat"])
def test_each_answer_prompt_pins_the_sources_heading_and_says_why(profile: str) -> None:
    prompt = load_prompt(profile)  # type: ignore[arg-type]
    assert "heading that is exactly\n  `## Sources`" in prompt or "exactly `## Sources`" in prompt
    assert "removes the list under exactly that heading" in prompt
    assert "duplicate" in prompt


def test_the_prompts_are_read_from_the_package_files() -> None:
    from importlib.resources import files

    on_disk = files("citeline").joinpath("prompts", "search.md").read_text(encoding="utf-8")
    assert load_prompt("search") == on_disk.rstrip("\n")


@pytest.mark.parametrize("profile", ["search", "chat"])
def test_each_answer_prompt_asks_for_quote_blocks_backing_what_a_passage_says(
    profile: str,
) -> None:
    prompt = load_prompt(profile)  # type: ignore[arg-type]
    assert "`<citation>`" in prompt and "`</citation>`" in prompt
    assert "copied exactly from\n  the passage" in prompt


def test_the_first_search_lead_names_the_results_as_the_only_sources() -> None:
    assert "only sources you may cite" in load_prompt("first-search")
