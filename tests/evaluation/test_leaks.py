"""The markup-leak check: model citation markup in the prose is found, prose is left alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.evaluation import find_leaks


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            'CDK5 acts in <a href="https://example.org/R-HSA-109581">Apoptosis</a>.',
            ("html_anchor",),
        ),
        ("An orphan closing tag </a> remains.", ("html_anchor",)),
        ("A bare <A>anchor</A>.", ("html_anchor",)),
        ("CDK5 acts in [Apoptosis](https://example.org/R-HSA-109581).", ("markdown_link",)),
        ("Half a link: ](cite:doc-1) was left.", ("markdown_link",)),
        ("Answer.\n\n## Sources\n- one", ("sources_heading",)),
        ("Answer.\n**Sources:**\n- one", ("sources_heading",)),
        ("Answer.\n### References\n", ("sources_heading",)),
        ("Answer.\n<citation>\n> quoted\n</citation>", ("quote_element",)),
        (
            'See [x](u) and <a href="v">y</a>.\n## Citations',
            ("html_anchor", "markdown_link", "sources_heading"),
        ),
    ],
)
def test_model_citation_markup_is_found(text: str, kinds: tuple[str, ...]) -> None:
    assert find_leaks(text) == kinds


@pytest.mark.parametrize(
    "text",
    [
        "## Sources of reactive oxygen species\nMitochondria produce them.",
        "## Cellular sources\nSeveral.",
        "A bolded **sources** word mid-sentence is prose.",
        "x < y and <abbr>WHO</abbr> and <b>bold</b> are not anchors.",
        "A figure: ![a plot](plot.png) is an image, not a citation.",
        "Brackets [like these] and (these) are prose.",
    ],
)
def test_prose_that_resembles_markup_is_not_a_leak(text: str) -> None:
    assert find_leaks(text) == ()


@settings(max_examples=200)
@given(st.text(alphabet=st.characters(blacklist_characters="<]#*")))
def test_text_without_markup_characters_never_leaks(text: str) -> None:
    assert find_leaks(text) == ()


def test_a_link_inside_a_closed_fenced_code_block_is_code_not_a_leak() -> None:
    template = "Write the link:\n\n```html\n<a href=\"{{ url_for('index') }}\">Home</a>\n```\n"
    assert find_leaks(template) == ()
    tildes = "~~~~\n[x](y)\n## Sources\n~~~~\nDone."
    assert find_leaks(tildes) == ()


def test_markup_after_a_fence_that_never_closes_or_is_indented_is_still_a_leak() -> None:
    assert find_leaks("```\n<a href='x'>x</a>\n") == ("html_anchor",)
    assert find_leaks("    ```\n[x](y)\n    ```\n") == ("markdown_link",)
    assert find_leaks("```\ncode\n```\nSee [the docs](y).") == ("markdown_link",)


def test_thousands_of_unclosed_fences_are_read_in_one_pass_and_still_looked_in() -> None:
    hostile = "```x\n" * 200_000 + "[x](y)\n"
    assert find_leaks(hostile) == ("markdown_link",)
