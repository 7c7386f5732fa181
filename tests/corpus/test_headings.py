"""Titles and headings weigh more than body text, and a query naming a title finds it first."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Corpus
from citeline.corpus.headings import passage_headings, title_key
from citeline.corpus.passages import split_passages


def test_a_passage_inherits_the_heading_path_above_it() -> None:
    text = (
        "# Guide\n\nIntro.\n\n## Windows\n\nStep one.\n\n### Paths\n\nStep two.\n\n## Linux\n\nEnd."
    )
    passages = split_passages(text, max_chars=12)
    headings = passage_headings(text, passages)

    def governing(words: str) -> str:
        [found] = [h for p, h in zip(passages, headings, strict=True) if words in p.text]
        return found

    assert governing("Step two.") == "Guide Windows Paths"
    assert governing("End.") == "Guide Linux"


def test_a_comment_in_a_fenced_code_block_is_not_a_heading() -> None:
    text = "# Real\n\n```python\n# not a heading\nx = 1\n```\n\nAfter the code."
    passages = split_passages(text)
    assert passage_headings(text, passages) == ["Real"]


@given(st.text(alphabet="#` \n~abc", max_size=300), st.integers(min_value=1, max_value=60))
def test_every_passage_gets_one_heading_string_whatever_the_markup(text: str, size: int) -> None:
    passages = split_passages(text, max_chars=size)
    headings = passage_headings(text, passages)
    assert len(headings) == len(passages)


def test_a_query_naming_a_title_ranks_that_section_first(corpus: Corpus, tmp_path: Path) -> None:
    # BM25 alone prefers the short entry that repeats "argument" (measured: "Glossary:
    # argument" asked of the bundled sample found "Glossary: keyword argument" first).
    (tmp_path / "argument.md").write_text(
        "---\ntitle: 'Glossary: argument'\n---\n\nA value passed to a function when calling "
        "it. There are two kinds: keyword and positional, and each is described at length "
        "in the reference, with examples of calls and of the errors a wrong call raises.\n",
        "utf-8",
    )
    (tmp_path / "keyword.md").write_text(
        "---\ntitle: 'Glossary: keyword argument'\n---\n\nAn argument named in a call: "
        "an argument preceded by its name.\n",
        "utf-8",
    )
    corpus.ingest(tmp_path)
    assert corpus.search("Glossary: argument", k=2)[0].title == "Glossary: argument"
    assert corpus.search("keyword argument", k=1)[0].title == "Glossary: keyword argument"


def test_a_question_about_a_title_ranks_that_section_first(corpus: Corpus, tmp_path: Path) -> None:
    # "What does VACUUM do?" names the reference page titled "VACUUM"; the question words
    # are no part of that title, and sections repeating the word are about something else.
    (tmp_path / "vacuum.md").write_text(
        "---\ntitle: VACUUM\n---\n\nGarbage-collect and optionally analyze a database.\n",
        "utf-8",
    )
    (tmp_path / "progress.md").write_text(
        "---\ntitle: Progress of VACUUM\n---\n\nWhile VACUUM runs, each vacuum worker "
        "reports the phase of its vacuum in a view.\n",
        "utf-8",
    )
    (tmp_path / "faq.md").write_text(
        "---\ntitle: How do I vacuum?\n---\n\nRun VACUUM, or let the vacuum daemon do it.\n",
        "utf-8",
    )
    corpus.ingest(tmp_path)
    assert corpus.search("What does VACUUM do?", k=3)[0].title == "VACUUM"
    # A title that is itself a question is still named by that question, whole.
    assert corpus.search("How do I vacuum?", k=3)[0].title == "How do I vacuum?"


def test_a_question_naming_a_sections_own_heading_finds_it_among_a_thousand_alike(
    corpus: Corpus, tmp_path: Path
) -> None:
    # A site's section is titled by its path ("Programming FAQ › What is self?"), and the
    # word the question asks about fills a thousand other sections' text.
    for n in range(1000):
        (tmp_path / f"method{n}.md").write_text(
            f"---\ntitle: Method {n}\n---\n\nThe method takes self, and self again, then "
            f"returns self.attribute{n} to self.\n",
            "utf-8",
        )
    (tmp_path / "faq.md").write_text(
        "---\ntitle: Programming FAQ › General Questions › 4.2. What is self?\n---\n\n"
        "Self is merely a conventional name for the first argument of a method.\n",
        "utf-8",
    )
    corpus.ingest(tmp_path)
    assert corpus.search("What is self?", k=3)[0].title.endswith("What is self?")
    # A heading that many sections share is named only among the best of them.
    assert not corpus.search("Method", k=3)[0].title.endswith("What is self?")


def test_a_heading_counts_for_passages_that_come_long_after_it(
    corpus: Corpus, tmp_path: Path
) -> None:
    # A JSONL record keeps its Markdown as written (Markdown files are split into sections
    # whose titles carry the headings), so its headings are found in the text itself.
    filler = " ".join(f"Set option {n} to the value your site needs." for n in range(80))
    text = f"# Installing\n\n## On Windows\n\n{filler}\n\n## On Linux\n\nUse the package.\n"
    records = [
        {"_id": "install", "title": "Install guide", "text": text},
        {"_id": "other", "title": "Other", "text": "Windows and doors."},
    ]
    (tmp_path / "export.jsonl").write_text(
        "".join(json.dumps(record) + "\n" for record in records), "utf-8"
    )
    corpus.ingest(tmp_path)
    later = [h for h in corpus.search("windows option", k=10) if h.doc_id == "install"]
    assert any("Windows" not in h.text for h in later)
    linux = [h for h in corpus.search("linux", k=10) if h.doc_id == "install"]
    assert all("Set option 79" not in h.text or "Linux" in h.text for h in linux)


def test_a_title_key_ignores_case_order_punctuation_and_stop_words() -> None:
    assert title_key("Sorting HOW TO: Key Functions") == title_key("key functions, sorting how to")
    assert title_key("Glossary: argument") != title_key("Glossary: keyword argument")
