"""The Sphinx development set: it loads, its follow-ups continue a question of the set, its
off-topic questions expect nothing, and every gold address names a section of Debian's
sphinx-doc site whose text holds an expected term, read from the pages apart from citeline and
as citeline indexes them (benchmarks/questions/sphinx)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser, LexborNode
from tests.support.gold_addresses import QUESTIONS, unheld_gold

from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion, load_questions

SPHINX = QUESTIONS / "sphinx"
QUESTION_FILE, FOLLOW_UPS, OFF_TOPIC = (
    "sphinx-docs.jsonl",
    "sphinx-docs-followups.jsonl",
    "sphinx-off-topic.jsonl",
)
BASE_URL = "https://www.sphinx-doc.org/en/5.x/"
# Debian's sphinx-doc, which .ci/run installs; the set's gold is read against it.
SITE = Path("/usr/share/doc/sphinx-doc/html")
needs_site = pytest.mark.skipif(
    not (SITE / "index.html").is_file(), reason="Debian's sphinx-doc is not installed"
)
_MARK = re.compile(r"\x00(\d+)\x00")


def _answerable() -> list[EvalQuestion]:
    return [q for name in (QUESTION_FILE, FOLLOW_UPS) for q in load_questions(SPHINX / name)]


def _anchor(heading: LexborNode) -> str | None:
    """The fragment a link to this heading's section uses: Sphinx 5 puts the id on the
    ``<section>`` the heading opens; a glossary term carries its own."""
    if heading.id:
        return str(heading.id)
    parent = heading.parent
    if parent is not None and parent.tag == "section" and parent.id:
        return str(parent.id)
    return None


@cache
def _page_sections(relative: str) -> dict[str, str]:
    """A page's main text from each heading (and each glossary term) to the next, by the
    anchor its address uses; "" is the page's own address, its title's section. Read apart
    from citeline's ingest: what a reader who follows the address sees."""
    tree = LexborHTMLParser((SITE / relative).read_text(encoding="utf-8"))
    main = tree.css_first('div[role="main"]')
    assert main is not None, relative
    for permalink in main.css("a.headerlink"):
        permalink.decompose()
    # Highlighted code is one span per token: read it as written, not a word per span.
    for code in main.css("pre, code"):
        code.replace_with(code.text(separator=""))
    anchors: list[str | None] = []
    for number, heading in enumerate(main.css("h1, h2, h3, h4, h5, h6, dl.glossary > dt[id]")):
        anchors.append("" if number == 0 and heading.tag == "h1" else _anchor(heading))
        heading.insert_before(f"\x00{number}\x00")
    parts = _MARK.split(str(main.text(separator=" ")))
    sections: dict[str, str] = {}
    for index in range(1, len(parts), 2):
        anchor = anchors[int(parts[index])]
        if anchor is not None:
            sections[anchor] = " ".join(parts[index + 1].split())
    return sections


@pytest.fixture(scope="module")
def sphinx_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site ingested as run.sh ingests it: sections linked at their published anchors."""
    db = tmp_path_factory.mktemp("sphinx") / "sphinx.sqlite"
    with Corpus.open(db) as corpus:
        report = corpus.ingest(SITE, base_url=BASE_URL)
    assert not report.skipped, report.skipped
    return db


def test_the_sphinx_set_loads_with_gold_addresses_terms_and_kinds() -> None:
    questions = load_questions(SPHINX / QUESTION_FILE)
    follow_ups = load_questions(SPHINX / FOLLOW_UPS)
    off_topic = load_questions(SPHINX / OFF_TOPIC)
    assert len(questions) >= 45 and len(follow_ups) >= 12 and len(off_topic) >= 6
    for question in [*questions, *follow_ups]:
        assert question.gold_ids and question.answer_terms, question.id
        assert all(url.startswith(BASE_URL) for url in question.gold_ids), question.id
        assert len(set(question.gold_ids)) == len(question.gold_ids), question.id
    assert not any(question.history for question in questions)
    ids = [question.id for question in [*questions, *follow_ups, *off_topic]]
    assert len(set(ids)) == len(ids)
    lines = (SPHINX / QUESTION_FILE).read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["kind"] for line in lines} == {"how", "what", "why", "difference"}


def test_each_follow_up_continues_a_question_of_the_set() -> None:
    asked = {question.question for question in load_questions(SPHINX / QUESTION_FILE)}
    for follow_up in load_questions(SPHINX / FOLLOW_UPS):
        assert len(follow_up.history) == 1 and follow_up.history[0] in asked, follow_up.id


def test_each_off_topic_question_expects_nothing_and_names_no_gold() -> None:
    for question in load_questions(SPHINX / OFF_TOPIC):
        assert question.expects == "nothing_found", question.id
        assert not question.gold_ids and not question.answer_terms and not question.history


@needs_site
def test_every_gold_address_is_a_section_of_the_pages_that_holds_an_expected_term() -> None:
    for question in _answerable():
        for url in question.gold_ids:
            page, _, anchor = url.removeprefix(BASE_URL).partition("#")
            assert (SITE / page).is_file(), (question.id, url)
            sections = _page_sections(page)
            assert anchor in sections, (question.id, url)
            # Each gold section holds a term, so an answer quoting any of them can pass.
            assert contains_expected_term(sections[anchor], question.answer_terms), (
                question.id,
                url,
            )


@needs_site
def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    sphinx_index: Path,
) -> None:
    assert unheld_gold(sphinx_index, _answerable()) == []
