"""The embedded model: search, then read, then 2 to 4 cited sentences taken from what it read."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.models.embedded import (
    FRAGMENT_CHARS,
    MAX_SENTENCES,
    MIN_SENTENCES,
    NOTHING_FOUND,
    TOOLS_FAILED,
    ToolOutcome,
    ToolRequest,
    TurnView,
    next_step,
)

QUESTION = "Does vitamin D supplementation reduce fracture risk in older adults?"
DOCS = {
    "101": (
        "Vitamin D and fractures",
        "Falls are common in older adults. Vitamin D supplementation reduced the risk of hip "
        "fracture by a fifth in adults over 65. The effect depended on the dose given daily. "
        "Calcium alone showed no benefit.",
    ),
    "202": (
        "Bone density in the elderly",
        "Bone density declines with age in both sexes. Older adults given vitamin D had fewer "
        "non-vertebral fractures than those given placebo.",
    ),
    "303": ("Unrelated [bracketed] title", "Photosynthesis converts light into chemical energy."),
}


def _search(ids: list[str]) -> ToolOutcome:
    results = [
        {"id": i, "href": f"cite:{i}", "title": DOCS[i][0], "passage": DOCS[i][1][:80]} for i in ids
    ]
    return ToolOutcome("search", [{"query": QUESTION, "results": results}, "REMINDER"])


def _read(doc_id: str) -> ToolOutcome:
    title, text = DOCS[doc_id]
    return ToolOutcome(
        "read", {"id": doc_id, "href": f"cite:{doc_id}", "title": title, "text": text}
    )


def _answer(view: TurnView) -> str:
    step = next_step(view)
    assert not isinstance(step, tuple)
    return "".join(step)


def test_it_searches_first_with_the_question() -> None:
    assert next_step(TurnView(QUESTION)) == (ToolRequest("search", {"query": QUESTION}),)


def test_a_short_follow_up_is_searched_with_the_earlier_question() -> None:
    step = next_step(TurnView("and in men?", earlier_questions=(QUESTION,)))
    assert isinstance(step, tuple)
    assert step[0].args["query"] == f"{QUESTION} and in men?"


def test_after_searching_it_reads_the_two_best_documents() -> None:
    step = next_step(TurnView(QUESTION, outcomes=(_search(["101", "202", "303"]),)))
    assert step == (ToolRequest("read", {"id": "101"}), ToolRequest("read", {"id": "202"}))


def test_after_reading_it_writes_cited_sentences_taken_verbatim_and_a_sources_list() -> None:
    view = TurnView(QUESTION, outcomes=(_search(["101", "202"]), _read("101"), _read("202")))
    text = _answer(view)
    body, _, listing = text.partition("\n\n## Sources\n\n")
    assert listing, "the answer ends with a ## Sources list"
    cited = re.findall(r"\]\((cite:\d+)\)|href=\"(cite:\d+)\"", body)
    assert cited
    sentences = re.findall(r"([^()]+?) \((?:\[|<a)", body)
    assert MIN_SENTENCES <= len(sentences) <= MAX_SENTENCES
    corpus_text = " ".join(text for _, text in DOCS.values())
    for sentence in sentences:
        assert sentence.strip() in corpus_text
    assert "hip fracture" in body


def test_the_same_question_gives_the_same_fragments() -> None:
    view = TurnView(QUESTION, outcomes=(_search(["101", "202"]), _read("101"), _read("202")))
    first, second = next_step(view), next_step(view)
    assert not isinstance(first, tuple) and not isinstance(second, tuple)
    assert list(first) == list(second)


def test_fragments_are_small_and_uneven() -> None:
    view = TurnView(QUESTION, outcomes=(_search(["101", "202"]), _read("101"), _read("202")))
    step = next_step(view)
    assert not isinstance(step, tuple)
    sizes = [len(fragment) for fragment in step]
    low, high = FRAGMENT_CHARS
    assert all(low <= size <= high for size in sizes[:-1])
    assert len(set(sizes)) > 3


def test_some_answers_cite_with_an_html_anchor_and_others_with_markdown_only() -> None:
    forms = set()
    for n in range(12):
        question = f"{QUESTION} variant {n}"
        view = TurnView(question, outcomes=(_search(["101", "202"]), _read("101"), _read("202")))
        text = _answer(view)
        forms.add("<a href=" in text)
    assert forms == {True, False}


def test_a_search_that_found_nothing_is_said_plainly() -> None:
    empty = ToolOutcome("search", {"query": QUESTION, "results": []})
    assert _answer(TurnView(QUESTION, outcomes=(empty,))) == NOTHING_FOUND


def test_a_failed_search_is_said_plainly() -> None:
    failed = ToolOutcome("search", '{"error":"search failed: disk"}', failed=True)
    assert _answer(TurnView(QUESTION, outcomes=(failed,))) == TOOLS_FAILED


def test_a_failed_read_falls_back_to_the_search_passages() -> None:
    failed = ToolOutcome("read", '{"error":"read failed"}', failed=True)
    text = _answer(TurnView(QUESTION, outcomes=(_search(["101"]), failed)))
    assert "cite:101" in text


def test_brackets_in_a_title_never_break_the_link() -> None:
    text = _answer(
        TurnView("photosynthesis light energy", outcomes=(_search(["303"]), _read("303")))
    )
    assert "[Unrelated (bracketed) title](cite:303)" in text or 'href="cite:303"' in text


_ids = st.text("abcdefghij0123456789-", min_size=1, max_size=8)
_words = st.sampled_from(["vitamin", "fracture", "bone", "risk", "older", "dose", "light", "cell"])
_sentence = st.lists(_words, min_size=6, max_size=12).map(lambda w: " ".join(w).capitalize() + ".")


@settings(max_examples=40, deadline=None)
@given(
    docs=st.dictionaries(
        _ids,
        st.tuples(st.text(min_size=1, max_size=20), st.lists(_sentence, min_size=1, max_size=5)),
        min_size=1,
        max_size=4,
    ),
    question=st.lists(_words, min_size=1, max_size=6).map(" ".join),
)
def test_it_never_cites_an_href_that_no_tool_returned(
    docs: dict[str, tuple[str, list[str]]], question: str
) -> None:
    results = [
        {"id": i, "href": f"https://example.org/{i}", "title": t, "passage": s[0]}
        for i, (t, s) in docs.items()
    ]
    reads = [
        ToolOutcome(
            "read", {"id": i, "href": f"https://example.org/{i}", "title": t, "text": " ".join(s)}
        )
        for i, (t, s) in docs.items()
    ]
    view = TurnView(question, outcomes=(ToolOutcome("search", {"results": results}), *reads))
    text = _answer(view)
    hrefs = set(re.findall(r"\]\(([^)\s]+)\)", text)) | set(re.findall(r'href="([^"]+)"', text))
    assert hrefs
    assert hrefs <= {r["href"] for r in results}
