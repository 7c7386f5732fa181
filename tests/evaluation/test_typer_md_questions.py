"""The typer-md development set: it loads, its follow-ups continue a question of the set, its
off-topic questions expect nothing, and every gold address names a section of Typer 0.10.0's
published MkDocs site whose text (its include directives resolved) holds an expected term,
read from the Markdown sources apart from citeline and as citeline indexes them
(benchmarks/questions/typer-md). The sources come from PyPI through the set's prepare.sh; the
tests that read them skip when PyPI cannot be reached."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.gold_addresses import QUESTIONS, gold_ids_module, unheld_gold
from tests.support.mkdocs_pages import PublishedSection, page_address, page_sections

from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion, load_questions

TYPER = QUESTIONS / "typer-md"
QUESTION_FILE, FOLLOW_UPS, OFF_TOPIC = (
    "typer-md-docs.jsonl",
    "typer-md-docs-followups.jsonl",
    "typer-md-off-topic.jsonl",
)
BASE_URL = "https://typer.tiangolo.com/"
# Sections today's ingest links at another address than MkDocs publishes them, and that
# address (README.md, "What today's ingest makes of it"): a heading slug keeps a run of
# hyphens that toc collapses ("Only --force"), a page's repeated heading gets no "_1", and a
# page opening with "##" (MkDocs titles it from the nav) has its first section at the page's
# own address.
TODAYS_ADDRESS = {
    BASE_URL + "tutorial/parameter-types/bool/#only-force": (
        BASE_URL + "tutorial/parameter-types/bool/#only---force"
    ),
    BASE_URL + "tutorial/options/version/#first-version-of-version": (
        BASE_URL + "tutorial/options/version/#first-version-of---version"
    ),
    BASE_URL + "tutorial/printing/#typersecho-style-and-print": (
        BASE_URL + "tutorial/printing/#typersecho---style-and-print"
    ),
    BASE_URL + "tutorial/options/callback-and-context/#fix-completion-using-the-context": (
        BASE_URL + "tutorial/options/callback-and-context/#fix-completion---using-the-context"
    ),
    BASE_URL + "tutorial/options/name/#cli-option-short-names-together_1": (
        BASE_URL + "tutorial/options/name/#cli-option-short-names-together"
    ),
    BASE_URL + "tutorial/first-steps/#the-simplest-example": BASE_URL + "tutorial/first-steps/",
    BASE_URL + "tutorial/#python-types": BASE_URL + "tutorial/",
}


def _answerable() -> list[EvalQuestion]:
    return [q for name in (QUESTION_FILE, FOLLOW_UPS) for q in load_questions(TYPER / name)]


@pytest.fixture(scope="module")
def docs() -> Path:
    """Typer 0.10.0's docs folder, fetched and checked by the set's own prepare.sh."""
    environment = {**os.environ, "PIP": f"{sys.executable} -m pip"}
    try:
        done = subprocess.run(
            [str(TYPER / "prepare.sh")],
            capture_output=True,
            text=True,
            env=environment,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("typer-md/prepare.sh took over 5 minutes: PyPI is out of reach")
    if done.returncode != 0:
        pytest.skip(f"typer-md/prepare.sh could not fetch the sources: {done.stderr.strip()}")
    folder = Path(done.stdout.strip().splitlines()[-1])
    assert (folder / "index.md").is_file() and (folder.parent / "mkdocs.yml").is_file()
    return folder


@pytest.fixture(scope="module")
def published(docs: Path) -> dict[str, PublishedSection]:
    """Every section of the published site, by its address."""
    sections: dict[str, PublishedSection] = {}
    for page in sorted(docs.rglob("*.md")):
        relative = page.relative_to(docs).as_posix()
        for anchor, section in page_sections(docs, relative).items():
            address = BASE_URL + page_address(relative) + (f"#{anchor}" if anchor else "")
            sections[address] = section
    return sections


@pytest.fixture(scope="module")
def typer_index(docs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs folder ingested as run.sh ingests it, at the published base URL."""
    db = tmp_path_factory.mktemp("typer-md") / "typer-md.sqlite"
    with Corpus.open(db) as corpus:
        report = corpus.ingest(docs, base_url=BASE_URL)
    assert not report.skipped, report.skipped
    return db


def test_the_typer_set_loads_with_gold_addresses_terms_and_kinds() -> None:
    questions = load_questions(TYPER / QUESTION_FILE)
    follow_ups = load_questions(TYPER / FOLLOW_UPS)
    off_topic = load_questions(TYPER / OFF_TOPIC)
    assert len(questions) >= 45 and len(follow_ups) >= 12 and len(off_topic) >= 6
    for question in [*questions, *follow_ups]:
        assert question.gold_ids and question.answer_terms, question.id
        assert all(url.startswith(BASE_URL) for url in question.gold_ids), question.id
        assert len(set(question.gold_ids)) == len(question.gold_ids), question.id
    assert not any(question.history for question in questions)
    ids = [question.id for question in [*questions, *follow_ups, *off_topic]]
    assert len(set(ids)) == len(ids)
    lines = (TYPER / QUESTION_FILE).read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["kind"] for line in lines} == {"how", "what", "why", "difference"}


def test_each_follow_up_continues_a_question_of_the_set() -> None:
    asked = {question.question for question in load_questions(TYPER / QUESTION_FILE)}
    for follow_up in load_questions(TYPER / FOLLOW_UPS):
        assert len(follow_up.history) == 1 and follow_up.history[0] in asked, follow_up.id


def test_each_off_topic_question_expects_nothing_and_names_no_gold() -> None:
    for question in load_questions(TYPER / OFF_TOPIC):
        assert question.expects == "nothing_found", question.id
        assert not question.gold_ids and not question.answer_terms and not question.history


def test_every_gold_address_is_a_published_section_that_holds_an_expected_term(
    published: dict[str, PublishedSection],
) -> None:
    for question in _answerable():
        for url in question.gold_ids:
            assert url in published, (question.id, url)
            # With its includes resolved, as the built page shows it: each gold section holds
            # a term, so an answer quoting any of them can pass.
            assert contains_expected_term(published[url].text, question.answer_terms), (
                question.id,
                url,
            )


def test_the_set_asks_about_code_only_an_include_brings_in(
    published: dict[str, PublishedSection],
) -> None:
    """What the include-directive ingest (#26) is judged on: gold sections whose expected
    terms are only in the code files the page includes."""
    include_only = {
        url
        for question in _answerable()
        for url in question.gold_ids
        if not contains_expected_term(published[url].own_text, question.answer_terms)
    }
    assert len(include_only) >= 30


def test_gold_sections_that_hold_a_term_in_their_own_text_are_indexed_with_it(
    published: dict[str, PublishedSection], typer_index: Path
) -> None:
    """What today's ingest already reads: the page's own Markdown. A section it links at
    another address than MkDocs does (TODAYS_ADDRESS) counts at either."""
    gold_ids = gold_ids_module()
    with Corpus.open(typer_index) as corpus:
        by_url = gold_ids.sections_by_url(
            gold_ids.IndexedSection(document.id, document.url, document.text)
            for document in corpus.documents()
        )
    for question in _answerable():
        for url in question.gold_ids:
            if not contains_expected_term(published[url].own_text, question.answer_terms):
                continue
            addresses = (url, TODAYS_ADDRESS.get(url, url))
            assert any(
                contains_expected_term(section.text, question.answer_terms)
                for address in addresses
                for section in by_url.get(address, ())
            ), (question.id, url)


def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    typer_index: Path,
) -> None:
    assert unheld_gold(typer_index, _answerable()) == []
