"""One answer's rendering (static/answer-view.js): markdown, markers, chips, and no tricks.

These feed the view directly, as the stream would, so each case states exactly what
reached the page. The end-to-end tests in test_search_page.py cover the same ground
through the real server.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest
from playwright.sync_api import Page

TEMPLATE = "https://docs.python.org/3.11/{id}"

RENDER = """
async ([texts, citations, template]) => {
  const { AnswerView } = await import("/answer-view.js");
  const view = new AnswerView(
    document.getElementById("prose"), document.getElementById("chips"), template);
  for (const text of texts) view.addText(text);
  for (const citation of citations) view.addCitation(citation);
  view.flush();
  return {
    html: document.getElementById("prose").innerHTML,
    text: document.getElementById("prose").textContent,
    markers: [...document.querySelectorAll("#prose sup.marker")].map((sup) => {
      // All the prose before the marker, however the view split its text nodes.
      const range = document.createRange();
      range.setStart(document.getElementById("prose"), 0);
      range.setEndBefore(sup);
      return {
        n: sup.textContent,
        before: range.toString(),
        inCode: sup.closest("code, pre") !== null,
        href: sup.querySelector("a").getAttribute("href"),
      };
    }),
    chips: [...document.querySelectorAll("#chips li")].map((li) => ({
      id: li.id,
      text: li.textContent,
      href: li.querySelector("a") ? li.querySelector("a").getAttribute("href") : null,
    })),
  };
}
"""


def render(
    page: Page, texts: list[str], citations: list[dict[str, Any]], template: str | None = TEMPLATE
) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(RENDER, [texts, citations, template])
    return result


def cite(n: int, start: int | None, end: int | None, **source: str) -> dict[str, Any]:
    return {"n": n, "display_name": f"Source {n}", "start": start, "end": end, **source}


def test_markdown_is_rendered_from_fragments_split_mid_syntax(module_page: Page) -> None:
    result = render(module_page, ["Use **so", "rted()** to ", "sort:\n\n- a\n- b"], [])
    assert "<strong>sorted()</strong>" in result["html"]
    assert "<li>a</li>" in result["html"]


def test_a_marker_goes_in_at_the_end_offset_counted_in_code_points(module_page: Page) -> None:
    # "😀" is one code point but two UTF-16 units: a count in JS units would land one early.
    text = "😀 The sorting HOWTO explains key functions."
    end = text.index("sorting HOWTO") + len("sorting HOWTO")  # Python counts code points
    placed = module_page.evaluate(
        """async ([text, end]) => {
          const { withMarkers } = await import("/answer-view.js");
          return withMarkers(text, [{ n: 1, end }]);
        }""",
        [text, end],
    )
    assert placed == text[:end] + "\ue0001\ue001" + text[end:]


def test_a_marker_is_shown_at_the_end_of_the_sentence_it_supports(module_page: Page) -> None:
    text = "😀 The sorting HOWTO explains key functions. It also covers stability."
    start = text.index("sorting HOWTO")
    end = start + len("sorting HOWTO")
    result = render(module_page, [text], [cite(1, start, end, id="howto/sorting.html")])
    chip_id = result["chips"][0]["id"]
    assert result["markers"] == [
        {
            "n": "1",
            "before": "😀 The sorting HOWTO explains key functions.",
            "inCode": False,
            "href": f"#{chip_id}",
        }
    ]


def test_a_citation_without_offsets_gets_a_chip_but_no_marker(module_page: Page) -> None:
    result = render(module_page, ["Plain prose."], [cite(1, None, None, id="glossary.html")])
    assert result["markers"] == []
    assert [chip["href"] for chip in result["chips"]] == [
        "https://docs.python.org/3.11/glossary.html"
    ]


def test_chips_link_by_url_else_by_the_template_with_the_id(module_page: Page) -> None:
    citations = [
        cite(1, None, None, id="tutorial/introduction.html#numbers"),
        cite(2, None, None, url="https://example.org/review"),
    ]
    result = render(module_page, ["x"], citations)
    assert [chip["href"] for chip in result["chips"]] == [
        "https://docs.python.org/3.11/tutorial/introduction.html#numbers",
        "https://example.org/review",
    ]
    assert render(module_page, ["x"], citations[:1], template=None)["chips"][-1]["href"] is None


def test_a_measure_or_query_source_is_shown_as_code_and_never_linked(module_page: Page) -> None:
    query = "SELECT count(*) AS count FROM penguins"
    citations = [
        {"n": 1, "display_name": query, "id": "query:a72971914096", "start": 0, "end": 3},
        {
            "n": 2,
            "display_name": "average_body_mass(species='Gentoo')",
            "id": "measure:average_body_mass?species=Gentoo",
            "start": None,
            "end": None,
        },
    ]
    result = render(module_page, ["344 penguins."], citations)
    assert [chip["text"] for chip in result["chips"]] == [
        f"1{query}",
        "2average_body_mass(species='Gentoo')",
    ]
    assert [chip["href"] for chip in result["chips"]] == [None, None]
    assert module_page.locator("#chips .chip-code").count() == 2
    assert module_page.locator("#chips li > span").first.get_attribute("title") == query


def test_a_source_cited_twice_gets_one_chip(module_page: Page) -> None:
    result = render(module_page, ["x"], [cite(1, 0, 1, id="a"), cite(1, 0, 1, id="a")])
    assert len(result["chips"]) == 1


def test_script_html_and_javascript_links_in_the_text_stay_inert(module_page: Page) -> None:
    texts = [
        "Hello <script>window.__pwned = 'script'</script> ",
        "<img src=x onerror=\"window.__pwned = 'img'\"> ",
        "[click](javascript:window.__pwned='markdown') ",
        "<a href=\"javascript:window.__pwned='anchor'\">anchor</a> ",
        "[data](data:text/html,<script>alert(1)</script>)",
    ]
    result = render(module_page, texts, [])
    module_page.wait_for_timeout(100)  # any handler that could fire has had its chance
    assert module_page.evaluate("window.__pwned") is None
    assert module_page.locator("#prose script, #prose img, #prose [onerror]").count() == 0
    hrefs = module_page.eval_on_selector_all(
        "a[href]", "links => links.map((a) => a.getAttribute('href'))"
    )
    assert not [href for href in hrefs if not href.startswith(("http", "#"))]
    assert "click" in result["text"]


def test_links_in_the_prose_are_shown_as_their_text(module_page: Page) -> None:
    # The stream reduces every link form; the page holds the line for any it missed, and
    # for autolinks and reference links that markdown-it would render.
    texts = [
        "See [the site](https://evil.example/a), <https://evil.example/b> and [r][1].\n\n",
        "[1]: https://evil.example/c\n",
    ]
    result = render(module_page, texts, [cite(1, 0, 3, url="https://e.org/source")])
    assert result["text"] == "See the site, https://evil.example/b and r.1\n"
    prose_links = module_page.eval_on_selector_all(
        "#prose a", "links => links.map((a) => a.getAttribute('href'))"
    )
    assert prose_links == ["#" + result["chips"][0]["id"]]


def test_a_source_whose_url_is_javascript_gets_a_chip_without_a_link(module_page: Page) -> None:
    citations = [
        cite(1, None, None, url="javascript:window.__pwned='chip'"),
        {
            "n": 2,
            "display_name": "<img src=x onerror=alert(1)>",
            "id": "javascript:alert(2)",
            "start": None,
            "end": None,
        },
    ]
    result = render(module_page, ["x"], citations, template="{id}")
    assert [chip["href"] for chip in result["chips"]] == [None, None]
    assert result["chips"][1]["text"] == "2<img src=x onerror=alert(1)>"
    assert module_page.locator("#chips img").count() == 0


def test_text_cannot_forge_a_marker(module_page: Page) -> None:
    result = render(module_page, ["Forged \ue0007\ue001 marker."], [])
    assert result["markers"] == []


def marker_after(page: Page, text: str, cited: str, *, occurrence: int = 0) -> dict[str, Any]:
    """The one marker of a citation whose display text is the ``occurrence``-th ``cited``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(cited, start + 1)
    result = render(page, [text], [cite(1, start, start + len(cited), id="a")])
    (marker,) = result["markers"]
    return marker


def test_a_marker_after_a_figure_moves_to_the_end_of_its_sentence(module_page: Page) -> None:
    text = "The average body mass of Gentoo penguins is 5,076.0 (123 penguins). More."
    marker = marker_after(module_page, text, "5,076.0")
    assert marker["before"] == "The average body mass of Gentoo penguins is 5,076.0 (123 penguins)."


def test_a_marker_never_follows_a_digit_even_where_the_block_ends_on_one(module_page: Page) -> None:
    marker = marker_after(module_page, "The period of S2 is 12", "12")
    assert marker["before"] == "The period of S2 is 12\u202f"
    assert not marker["before"][-1].isdigit()


def test_a_marker_in_inline_code_moves_out_of_it_to_the_end_of_the_clause(
    module_page: Page,
) -> None:
    text = "Collect them with `result = [x for x in items]`; then sort them."
    marker = marker_after(module_page, text, "result")
    assert marker["before"] == "Collect them with result = [x for x in items];"
    assert marker["inCode"] is False


def test_a_marker_in_a_code_block_goes_to_the_prose_that_introduces_it(module_page: Page) -> None:
    text = "Build the list as follows:\n\n```\nresult = [1, 2]\n```\n\nThat is all."
    marker = marker_after(module_page, text, "result")
    assert marker["before"] == "Build the list as follows:"
    assert marker["inCode"] is False


def test_a_marker_in_an_answer_that_is_only_code_is_left_to_its_chip(module_page: Page) -> None:
    text = "```\nresult = [1, 2]\n```\n"
    start = text.index("result")
    result = render(module_page, [text], [cite(1, start, start + 6, id="a")])
    assert result["markers"] == [] and len(result["chips"]) == 1


def test_a_marker_mid_list_item_goes_to_the_end_of_the_item(module_page: Page) -> None:
    text = "You can match on:\n\n- the methods, or headers\n- the path\n"
    marker = marker_after(module_page, text, "methods")
    assert marker["before"] == "You can match on:\n\nthe methods, or headers"


def test_abbreviations_and_decimals_end_no_sentence(module_page: Page) -> None:
    text = "Give a key, e.g. len, for periods of 12.42 hours. Then sort."
    marker = marker_after(module_page, text, "key")
    assert marker["before"] == "Give a key, e.g. len, for periods of 12.42 hours."


def test_a_marker_already_at_a_sentence_end_stays_there(module_page: Page) -> None:
    text = "Sorting is stable. Keys are called once."
    marker = marker_after(module_page, text, "Sorting is stable.")
    assert marker["before"] == "Sorting is stable."


def test_two_markers_at_one_sentence_end_keep_their_order_and_stay_apart(
    module_page: Page,
) -> None:
    text = "Use sorted with a key function. Done."
    citations = [
        cite(1, 4, 10, id="a"),  # "sorted"
        cite(2, 18, 30, id="b"),  # "key function"
    ]
    result = render(module_page, [text], citations)
    assert [(m["n"], m["before"]) for m in result["markers"]] == [
        ("1", "Use sorted with a key function."),
        ("2", "Use sorted with a key function.1"),
    ]


def test_markers_settle_in_the_same_places_however_the_text_is_split(module_page: Page) -> None:
    text = (
        "The mass is 5,076.0 (123 penguins). Use `key=len` here, e.g. for names:\n\n"
        "```\nsorted(names, key=len)\n```\n\n- methods, or headers\n- paths\n"
    )
    citations = [
        cite(1, text.index("5,076.0"), text.index("5,076.0") + 7, id="a"),
        cite(2, text.index("key=len"), text.index("key=len") + 3, id="b"),
        cite(3, text.index("sorted("), text.index("sorted(") + 6, id="c"),
        cite(4, text.index("methods"), text.index("methods") + 7, id="d"),
    ]

    def placed(pieces: list[str]) -> list[tuple[str, str, bool]]:
        markers = render(module_page, pieces, citations)["markers"]
        return [(m["n"], m["before"], m["inCode"]) for m in markers]

    whole = placed([text])
    assert [n for n, _, _ in whole] == ["1", "2", "3", "4"]
    random = Random(28)
    for _ in range(3):
        cuts = sorted(random.sample(range(1, len(text)), 12))
        assert (
            placed([text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)])
            == whole
        )


LINKS = json.loads(
    (
        Path(__file__).resolve().parents[2] / "contracts" / "fixtures" / "citation-links.json"
    ).read_text("utf-8")
)


@pytest.mark.parametrize("case", LINKS["valid"], ids=lambda case: case["name"])
def test_the_page_links_each_contract_citation_where_the_contract_says(
    module_page: Page, case: dict[str, Any]
) -> None:
    link = module_page.evaluate(
        """async ([citation, template]) => {
          const { sourceHref } = await import("/answer-view.js");
          return sourceHref(citation, template);
        }""",
        [case["citation"], case["link_template"]],
    )
    assert link == case["link"]
