"""The PostgreSQL development set: it loads, its gold addresses are sections of the installed
manual whose text holds an expected term, and its gold addresses become the ids an index
gives the sections at them (benchmarks/questions/gold_ids.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser
from tests.support.gold_addresses import gold_ids_module

from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import load_questions

POSTGRESQL = Path(__file__).parents[2] / "benchmarks" / "questions" / "postgresql"
FILES = ("postgresql-docs.jsonl", "postgresql-docs-followups.jsonl")
BASE_URL = "https://www.postgresql.org/docs/15/"
# Debian's postgresql-doc-15, which .ci/run installs; the set's gold is read against it.
MANUAL = Path("/usr/share/doc/postgresql-doc-15/html")


def test_the_postgresql_set_loads_with_gold_addresses_and_terms() -> None:
    questions = load_questions(POSTGRESQL / FILES[0])
    follow_ups = load_questions(POSTGRESQL / FILES[1])
    assert len(questions) >= 40 and len(follow_ups) >= 10
    for question in [*questions, *follow_ups]:
        assert question.gold_ids and question.answer_terms, question.id
        assert all(url.startswith(BASE_URL) for url in question.gold_ids), question.id
    assert all(question.history and not question.figures for question in follow_ups)
    assert not any(question.history for question in questions)


@pytest.mark.skipif(not MANUAL.is_dir(), reason="Debian's postgresql-doc-15 is not installed")
def test_every_gold_address_is_a_section_of_the_manual_that_holds_an_expected_term() -> None:
    pages: dict[str, LexborHTMLParser] = {}
    for name in FILES:
        for question in load_questions(POSTGRESQL / name):
            texts = []
            for url in question.gold_ids:
                page, _, anchor = url.removeprefix(BASE_URL).partition("#")
                if page not in pages:
                    pages[page] = LexborHTMLParser((MANUAL / page).read_text(encoding="utf-8"))
                node = pages[page].css_first(f'[id="{anchor}"]') if anchor else pages[page].body
                assert node is not None, (question.id, url)
                texts.append(str(node.text(separator=" ")))
            # The element's text includes its subsections', so this is the weaker half of
            # the authoring check (each gold section as indexed holds a term); gold_ids.py
            # reports the stronger one against a real index.
            assert any(contains_expected_term(text, question.answer_terms) for text in texts), (
                question.id
            )


def test_a_gold_address_becomes_every_id_indexed_at_it() -> None:
    gold_ids = gold_ids_module()
    page = BASE_URL + "sql-createindex.html"
    sections = [
        gold_ids.IndexedSection("sql-createindex", page, "CREATE INDEX — define a new index"),
        gold_ids.IndexedSection("sql-createindex#synopsis", page, "CREATE [ UNIQUE ] INDEX"),
        gold_ids.IndexedSection(
            "sql-createindex#SQL-CREATEINDEX-CONCURRENTLY",
            page + "#SQL-CREATEINDEX-CONCURRENTLY",
            "Building Indexes Concurrently: CREATE INDEX CONCURRENTLY ...",
        ),
        gold_ids.IndexedSection("no-address", None, "CONCURRENTLY"),
    ]
    record = {
        "id": "q",
        "question": "How do I create an index without locking the table?",
        "gold_ids": [page + "#SQL-CREATEINDEX-CONCURRENTLY", page],
        "answer_terms": ["CONCURRENTLY"],
        "kind": "how",
    }
    result = gold_ids.rewrite(record, gold_ids.sections_by_url(sections))
    assert result.record["gold_ids"] == [
        "sql-createindex#SQL-CREATEINDEX-CONCURRENTLY",
        "sql-createindex",
        "sql-createindex#synopsis",
    ]
    assert result.record["kind"] == "how" and record["gold_ids"][1] == page  # not edited
    assert result.missing_urls == () and not result.terms_absent


def test_an_address_missing_from_the_index_is_named_and_absent_terms_are_flagged() -> None:
    gold_ids = gold_ids_module()
    sections = [gold_ids.IndexedSection("sql-vacuum", BASE_URL + "sql-vacuum.html", "VACUUM")]
    record = {
        "id": "q",
        "question": "What does VACUUM do?",
        "gold_ids": [BASE_URL + "sql-vacuum.html", BASE_URL + "sql-vacuum.html#id-1.9.3.184.5"],
        "answer_terms": ["dead tuples"],
    }
    result = gold_ids.rewrite(record, gold_ids.sections_by_url(sections))
    assert result.missing_urls == (BASE_URL + "sql-vacuum.html#id-1.9.3.184.5",)
    assert result.record["gold_ids"] == ["sql-vacuum"]
    assert result.terms_absent


def test_a_relative_address_inside_a_pages_one_section_names_that_section() -> None:
    # The Python-docs sample's glossary entries are sections of their own; the whole site keeps
    # them inside the glossary's one section (python-site/run.sh).
    gold_ids = gold_ids_module()
    base = "https://docs.python.org/3.11/"
    sections = [gold_ids.IndexedSection("glossary", base + "glossary.html", "lambda: anonymous")]
    record = {"id": "q", "gold_ids": ["glossary.html#term-lambda"], "answer_terms": ["anonymous"]}
    strict = gold_ids.rewrite(record, gold_ids.sections_by_url(sections), prefix=base)
    assert strict.missing_urls == (base + "glossary.html#term-lambda",)
    lenient = gold_ids.rewrite(
        record, gold_ids.sections_by_url(sections), prefix=base, within_page=True
    )
    assert lenient.record["gold_ids"] == ["glossary"]
    assert not lenient.missing_urls and not lenient.terms_absent
