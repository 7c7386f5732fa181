"""The Flask development set: it loads, its follow-ups continue a question of the set, and
every gold address is a section of Debian's python-flask-doc site, as citeline indexes it,
whose text holds an expected term (benchmarks/questions/flask; the addresses become ids
through benchmarks/questions/gold_ids.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.gold_addresses import QUESTIONS, gold_ids_module, unheld_gold

from citeline.corpus import Corpus
from citeline.evaluation.questions import EvalQuestion, load_questions

FLASK = QUESTIONS / "flask"
FILES = ("flask-docs.jsonl", "flask-docs-followups.jsonl")
BASE_URL = "https://flask.palletsprojects.com/en/2.2.x/"
# Debian's python-flask-doc, which .ci/run installs; the set's gold is read against it.
SITE = Path("/usr/share/doc/python-flask-doc/html")
needs_site = pytest.mark.skipif(
    not SITE.is_dir(), reason="Debian's python-flask-doc is not installed"
)


def _all_questions() -> list[EvalQuestion]:
    return [question for name in FILES for question in load_questions(FLASK / name)]


@pytest.fixture(scope="module")
def flask_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site ingested as run.sh ingests it: sections linked at their published anchors."""
    db = tmp_path_factory.mktemp("flask") / "flask.sqlite"
    with Corpus.open(db) as corpus:
        report = corpus.ingest(SITE, base_url=BASE_URL)
    assert not report.skipped, report.skipped
    return db


def test_the_flask_set_loads_with_gold_addresses_terms_and_kinds() -> None:
    questions = load_questions(FLASK / FILES[0])
    follow_ups = load_questions(FLASK / FILES[1])
    assert len(questions) >= 50 and len(follow_ups) >= 15
    for question in [*questions, *follow_ups]:
        assert question.gold_ids and question.answer_terms, question.id
        assert all(url.startswith(BASE_URL) for url in question.gold_ids), question.id
    assert not any(question.history for question in questions)
    kinds = {json.loads(line)["kind"] for line in (FLASK / FILES[0]).read_text().splitlines()}
    assert kinds == {"how", "what", "why", "difference"}


def test_each_follow_up_continues_a_question_of_the_set() -> None:
    asked = {question.question for question in load_questions(FLASK / FILES[0])}
    for follow_up in load_questions(FLASK / FILES[1]):
        assert len(follow_up.history) == 1 and follow_up.history[0] in asked, follow_up.id


@needs_site
def test_every_gold_address_is_an_indexed_section_that_holds_an_expected_term(
    flask_index: Path,
) -> None:
    assert unheld_gold(flask_index, _all_questions()) == []


@needs_site
def test_gold_ids_writes_the_index_ids_and_stops_on_an_address_not_in_the_index(
    flask_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_ids = gold_ids_module()
    out = tmp_path / "ids.jsonl"
    arguments = ["--db", str(flask_index), "--base-url", BASE_URL]
    assert gold_ids.main([*arguments, str(FLASK / FILES[0]), str(out)]) == 0
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["id"] == "query-string-args"
    assert first["gold_ids"] == ["quickstart#the-request-object"]

    wrong = tmp_path / "wrong.jsonl"
    record = {
        "id": "q",
        "question": "How do I get query string parameters?",
        "gold_ids": [BASE_URL + "quickstart/#the-request-object"],  # the dirhtml form
        "answer_terms": ["request.args"],
    }
    wrong.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert gold_ids.main([*arguments, str(wrong), str(tmp_path / "wrong.ids.jsonl")]) == 1
    error = capsys.readouterr().err
    assert BASE_URL + "quickstart/#the-request-object" in error
    assert f"--base-url {BASE_URL}" in error
    assert not (tmp_path / "wrong.ids.jsonl").exists()
