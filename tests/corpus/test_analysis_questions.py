"""Question words leave a query, so "how do I" does not match every FAQ title that says it."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus
from citeline.text.index_terms import query_terms


def test_question_words_are_dropped_from_a_query_but_not_when_they_are_all_it_has() -> None:
    assert query_terms("How do I sort a list of dictionaries by a key?") == [
        "sort",
        "list",
        "dictionari",
        "key",
    ]
    assert query_terms("What do you do?") == ["what", "do", "you"]


def test_a_faq_title_that_only_shares_how_do_i_does_not_outrank_the_answer(
    corpus: Corpus, tmp_path: Path
) -> None:
    (tmp_path / "faq.md").write_text(
        "---\ntitle: How do I get a beta version?\n---\n\nHow do I? How do I? Ask the list.\n",
        "utf-8",
    )
    (tmp_path / "sorting.md").write_text(
        "---\ntitle: Sorting\n---\n\nTo sort records by a field, pass key= to sorted().\n",
        "utf-8",
    )
    corpus.ingest(tmp_path)
    assert [h.doc_id for h in corpus.search("How do I sort records?")] == ["sorting"]
