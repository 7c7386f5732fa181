"""Prose carries no links: whatever link form the model writes, the pipeline's text renders
without one. A CommonMark renderer (markdown-it, HTML on) is the judge, since it is what
turns a missed form into a live link on a reader's page."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from citeline.stream import Anchor, Pipeline

from .test_properties import PIECES, split

RENDERER = MarkdownIt("commonmark")
# A raw anchor a browser would make a link of: an <a> tag, closed, with an href.
HTML_ANCHOR = re.compile(r"<a[\s/][^>]*href[^>]*>", re.IGNORECASE)


def links_in(markdown: str) -> list[str]:
    """Every link the renderer would make of ``markdown``: link tokens and raw <a> tags.

    Not a link whose text holds a code span with a bracket in it ("[`]`](u)"): the one
    form the stream does not reduce, as contracts/stream.md says.
    """
    found: list[str] = []

    def walk(tokens: list[Token]) -> None:
        for at, token in enumerate(tokens):
            if token.type == "link_open" and not _bracket_in_code_span(tokens[at + 1 :]):
                found.append(str(token.attrGet("href")))
            if token.type in {"html_inline", "html_block"} and HTML_ANCHOR.search(token.content):
                found.append(token.content)
            if token.children:
                walk(token.children)

    walk(RENDERER.parse(markdown))
    return found


def _bracket_in_code_span(after_open: list[Token]) -> bool:
    for token in after_open:
        if token.type == "link_close":
            return False
        if token.type == "code_inline" and ("[" in token.content or "]" in token.content):
            return True
    return False


def run(fragments: list[str]) -> tuple[str, list[Anchor]]:
    pipeline = Pipeline()
    chunks = [*(pipeline.feed(fragment) for fragment in fragments), pipeline.flush()]
    return "".join(c.text for c in chunks), [a for c in chunks for a in c.anchors]


# The forms a hostile-model probe got through to the page (issue 13, item 3), and the
# other CommonMark and HTML link forms beside them.
HOSTILE = {
    "an autolink": ("See <https://evil.example/x>.", "https://evil.example/x"),
    "an e-mail autolink": ("Write to <me@evil.example>.", "mailto:me@evil.example"),
    "a reference link": ("See [the site][1].\n\n[1]: https://evil.example/r\n", None),
    "a collapsed reference": ("[Evil]: https://evil.example/c\n\nSee [Evil][].", None),
    "a shortcut reference": ("See [Evil].\n\n[evil]: https://evil.example/s 'T'\n", None),
    "blanks around the destination": ("See [x]( https://evil.example/b ).", None),
    "a single-quoted title": ("See [x](https://evil.example/q 'title').", None),
    "a parenthesised title": ("See [x](https://evil.example/p (title)).", None),
    "a newline before the parenthesis": ("See [x](https://evil.example/n\n).", None),
    "a newline in the text": ("See [x\ny](https://evil.example/t).", None),
    "nested brackets": ("See [[1]](https://evil.example/1).", None),
    "escaped brackets": ("See [a \\] b](https://evil.example/e).", None),
    "an angled destination": ("See [x](<https://evil.example/a b>).", None),
    "nested parentheses": ("See [x](https://evil.example/((p))).", None),
    "a link in a link": ("See [a [b](https://evil.example/i) c](https://evil.example/o).", None),
    "an HTML anchor with > in a quoted value": ('<a href="https://e.example/?a>b">x</a>', None),
    "a definition in a block quote": ("See [q].\n\n> [q]: https://evil.example/bq\n", None),
    "a definition in a list item": ("See [l].\n\n- [l]: https://evil.example/li\n", None),
    "a ¹ marker to an outside site": ("Apoptosis[¹](https://evil.example/sup).", None),
    "a long link": ("[" + "y" * 500 + "](https://evil.example/long)", None),
    "a long tag": ('<a href="https://evil.example/' + "z" * 300 + '">x</a>', None),
}


@pytest.mark.parametrize("text", [case[0] for case in HOSTILE.values()], ids=list(HOSTILE))
def test_every_link_form_is_reduced_to_text_however_split(text: str) -> None:
    whole, anchors = run([text])
    assert links_in(text), "the case must be a link as written"
    assert links_in(whole) == []
    assert run(list(text)) == (whole, anchors)


def test_an_autolink_becomes_its_address_as_text_and_an_anchor() -> None:
    # The colon is escaped so that "<" and ">" around it can never make it a link again;
    # a renderer shows "https\\://" as "https://".
    text, anchors = run(["See <https://evil.example/x>."])
    assert text == "See https\\://evil.example/x."
    assert anchors == [Anchor("https://evil.example/x", "https\\://evil.example/x", 4, 27)]
    assert RENDERER.render(text) == "<p>See https://evil.example/x.</p>\n"


@pytest.mark.parametrize(
    "text",
    [
        "(relevant <<<me@e.org>>[1]: x",
        "'[<<https:<https://e.org/auto>\\#><`",
        'a:[[ \\\'!":-"*](!b*</A >\\[)<me@e.org>',
    ],
)
def test_markup_nested_around_removed_markup_cannot_rebuild_a_link(text: str) -> None:
    # Found by fuzzing: each needs the revival check to look two levels deep.
    whole, _ = run([text])
    assert links_in(whole) == []
    assert run(list(text))[0] == whole


def test_a_reference_link_defined_later_is_reported_by_its_definition() -> None:
    text, anchors = run(["See [the site][1].\n\n[1]: https://e.org/r\n"])
    assert text == "See the site.\n\n"
    assert anchors == [Anchor("https://e.org/r", "1", None, None)]


def test_a_reference_link_defined_earlier_keeps_its_offsets() -> None:
    text, anchors = run(["[1]: https://e.org/r\nSee [the site][1]."])
    assert text == "See the site."
    assert anchors == [
        Anchor("https://e.org/r", "1", None, None),
        Anchor("https://e.org/r", "the site", 4, 12),
    ]


CODE = {
    "a fenced block": '```html\n<a href="https://e.org">x</a>\n[y](https://e.org)\n```\n',
    "a tilde fence": "~~~\n[1]: https://e.org\n# References\n~~~\n",
}


@pytest.mark.parametrize("text", list(CODE.values()), ids=list(CODE))
def test_code_passes_through_verbatim(text: str) -> None:
    assert run([text]) == (text, [])
    assert run(list(text)) == (text, [])


def test_a_link_inside_a_code_span_is_code_and_no_anchor() -> None:
    # A model describing the citation format wrote this; reduced, it became a citation.
    answer = "Cite as `[Title](href)` or ``[a](b) `x` ``, then [y](https://e.org)."
    for fragments in ([answer], list(answer)):
        text, anchors = run(fragments)
        assert text == "Cite as `[Title](href)` or ``[a](b) `x` ``, then y."
        assert [anchor.href for anchor in anchors] == ["https://e.org"]


@pytest.mark.parametrize(
    "answer",
    [
        "5` ticks` then `[x](https://evil.example)`",  # a backtick before it on its line
        "| `[x](https://evil.example)|b` |",  # a table cell's edge inside it
        "`<b>[x](https://evil.example)`",  # raw HTML inside it
        "`[x](https://evil.example)`<a href=u>`</a>",  # removed markup right after it
        "`[x](https://evil.example)`[`](https://e.org)",  # a link whose text joins the run
        "`[x](https://evil.example)\nnext`",  # no closing run on its line
        "<a href=u>`</a>`[x](https://evil.example)`",  # a run that removed markup joins
    ],
)
def test_a_span_whose_pairing_could_change_shelters_no_link(answer: str) -> None:
    text, _ = run([answer.replace("\\n", "\n")])
    assert "evil.example)" not in text.replace("](https://evil.example)", "")
    assert links_in(text) == []
    assert links_in_gfm(text) == []


def links_in_gfm(markdown: str) -> list[str]:
    """Links a GitHub-flavoured renderer (tables on) would make, with raw HTML on."""
    return [
        str(token.attrGet("href"))
        for block in GFM.parse(markdown)
        for token in block.children or ()
        if token.type == "link_open"
    ]


GFM = MarkdownIt("commonmark").enable("table")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "`",
                "``",
                "[x](https://evil.example)",
                "<a href=u>",
                "</a>",
                "|",
                " ",
                "\n",
                "a",
                "<",
                "[",
                "]",
                "(u)",
                "<https://e.org>",
                "| b |\n|---|\n",
                "<b>",
                "\n\n",
                "# ",
                "- ",
                "> ",
                "[y]: https://e.org\n",
                "[y]",
                "![",
            ]
        ),
        max_size=20,
    ).map("".join)
)
def test_no_arrangement_of_backticks_and_markup_renders_a_link(answer: str) -> None:
    for fragments in ([answer], list(answer)):
        text, _ = run(fragments)
        assert links_in(text) == [], text
        # markdown-it's table rule reads a fence line before a delimiter row as a table
        # header, where GitHub opens the fence: fences are code_fences' own rule.
        if not FENCE_LINE.search(text):
            assert links_in_gfm(text) == [], text


FENCE_LINE = re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE)


def test_markup_removed_between_the_parts_of_a_link_does_not_join_them_into_one() -> None:
    for text in [
        "[a]</a>(https://evil.example)",
        "[a]<https://x.example>(https://evil.example)",
        '<a<a href="y"> href="https://evil.example">t</a>',
        "[a]</a></a>(https://evil.example)",
    ]:
        whole, _ = run([text])
        assert links_in(whole) == [], whole
        assert run(list(text))[0] == whole


def test_a_citation_number_inside_an_html_anchor_keeps_its_brackets() -> None:
    text, anchors = run(['Apoptosis <a href="https://e.org/1">[1]</a> is curated.'])
    assert text == "Apoptosis [1] is curated."
    assert [anchor.text for anchor in anchors] == ["[1]"]


def test_a_fence_that_a_list_item_would_close_is_not_taken_for_code() -> None:
    # Indented under a list item, the fence ends with the item on a renderer; taken for
    # code here, the link after it would have stayed live.
    text = "1. Steps\n   ```\n   x\nNot indented [x](https://e.org)\n"
    whole, _ = run([text])
    assert links_in(whole) == []


def test_a_fence_inside_an_html_block_is_not_taken_for_code() -> None:
    text = "<div>\n```\n</div>\n\nAfter [x](https://e.org)\n"
    whole, _ = run([text])
    assert links_in(whole) == []
    assert "After x" in whole


def test_a_line_opening_with_inline_code_is_not_a_fence() -> None:
    # A probe: "`ed()` ..." on a long line was kept as a possible fence line, compacted to
    # "```", and opened a block that sheltered every link after it.
    text = "`ed()` and " + "x" * 300 + " `more()`\n[a](https://e.org)\n"
    whole, anchors = run([text])
    assert links_in(whole) == [] and [anchor.href for anchor in anchors] == ["https://e.org"]


def test_bare_urls_stay_as_text() -> None:
    assert run(["See https://e.org/x and www.e.org."]) == ("See https://e.org/x and www.e.org.", [])


@st.composite
def answers_and_splits(draw: st.DrawFn) -> tuple[str, list[str]]:
    pieces = st.one_of(
        st.sampled_from(PIECES), st.text(alphabet="ab <[]()!\n:`\\>'\"~", max_size=6)
    )
    text = "".join(draw(st.lists(pieces, max_size=30)))
    return text, draw(split(text))


@settings(max_examples=300, deadline=None)
@given(answers_and_splits())
def test_no_answer_renders_a_link_after_the_pipeline(case: tuple[str, list[str]]) -> None:
    _, fragments = case
    text, _ = run(fragments)
    assert links_in(text) == []
