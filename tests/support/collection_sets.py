"""What the tests of a development collection's question set share (benchmarks/questions/<name>/).

A collection folder holds its manifest (``collection.toml``), its three question files and,
where the site is a subset or a relayout of what Debian installs, a ``prepare.sh`` that makes
the folder to ingest and prints its path last. These helpers read the manifest, run the
script into a test's own cache folder, read a page's sections from its HTML apart from
citeline's ingest, and ingest the folder as ``run.sh`` does.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser
from tests.support.gold_addresses import QUESTIONS

from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion, load_questions, read_jsonl

_MARK = re.compile(r"\x00(\d+)\x00")
# prepare.sh copies files only; a minute is ample for a few hundred pages and bounds a hang.
_PREPARE_TIMEOUT_S = 60


@dataclass(frozen=True, slots=True)
class Collection:
    """A collection folder's manifest, with its paths resolved."""

    folder: Path
    name: str
    site: Path
    base_url: str
    questions: Path
    followups: Path
    off_topic: Path
    prepare: Path | None

    def answerable(self) -> list[EvalQuestion]:
        """The questions and the follow-ups: every line that has gold."""
        return [*load_questions(self.questions), *load_questions(self.followups)]


def read_collection(name: str) -> Collection:
    """``benchmarks/questions/<name>/collection.toml``, read."""
    folder = QUESTIONS / name
    manifest = tomllib.loads((folder / "collection.toml").read_text(encoding="utf-8"))
    prepare = manifest.get("prepare")
    return Collection(
        folder=folder,
        name=str(manifest["name"]),
        site=Path(manifest["site"]),
        base_url=str(manifest["base_url"]),
        questions=folder / str(manifest["questions"]),
        followups=folder / str(manifest["followups"]),
        off_topic=folder / str(manifest["off_topic"]),
        prepare=folder / str(prepare) if prepare else None,
    )


def prepared_folder(collection: Collection, cache: Path) -> Path:
    """The folder ``collection`` is ingested from: its ``prepare.sh`` run from the repository
    root with ``cache`` as the collections' cache (the last line it prints), else its site."""
    if collection.prepare is None:
        return collection.site
    done = subprocess.run(
        [str(collection.prepare)],
        cwd=QUESTIONS.parents[1],
        env={**os.environ, "CITELINE_COLLECTIONS_CACHE": str(cache)},
        capture_output=True,
        text=True,
        timeout=_PREPARE_TIMEOUT_S,
        check=True,
    )
    return Path(done.stdout.splitlines()[-1])


def page_file(folder: Path, base_url: str, url: str) -> tuple[Path, str]:
    """The file under ``folder`` that serves ``url`` and the anchor it names (``""`` for
    none), as a web server answers: a folder's address is its ``index.html``."""
    page, _, anchor = url.removeprefix(base_url).partition("#")
    if page == "" or page.endswith("/"):
        page += "index.html"
    return folder / page, anchor


def page_sections(page: Path, main: str) -> dict[str, str]:
    """A page's sections as a reader who follows a link sees them, read from the HTML apart
    from citeline's ingest: the text of the element ``main`` selects, from each heading with
    an id to the next one, by id. The page's own address (``""``) holds its first heading's
    section, the title and what follows it. A heading without an id (MkDocs's home page)
    stays inside the section before it, since no link can point at it."""
    root = LexborHTMLParser(page.read_text(encoding="utf-8")).css_first(main)
    assert root is not None, (page, main)
    anchors: list[str] = []
    for number, heading in enumerate(root.css("h1, h2, h3, h4, h5, h6")):
        if heading.id or number == 0:
            heading.insert_before(f"\x00{len(anchors)}\x00")
            anchors.append(str(heading.id or ""))
    parts = _MARK.split(str(root.text(separator=" ")))
    sections: dict[str, str] = {}
    for index in range(1, len(parts), 2):
        number = int(parts[index])
        text = " ".join(parts[index + 1].split())
        if number == 0:
            sections[""] = " ".join(f"{parts[0]} {text}".split())
        sections.setdefault(anchors[number], text)
    return sections


def ingest(folder: Path, base_url: str, db: Path) -> Path:
    """``folder`` ingested into ``db`` at ``base_url``, as ``run.sh`` ingests it; nothing may
    be skipped."""
    with Corpus.open(db) as corpus:
        report = corpus.ingest(folder, base_url=base_url)
    assert not report.skipped, report.skipped
    return db


def check_question_files(
    collection: Collection, *, questions: int, followups: int, off_topic: int
) -> None:
    """The files hold at least so many lines; every answerable line has gold under the base
    URL (each address once) and terms; the questions span the four kinds and open
    conversations; each follow-up continues a question of the set; off-topic lines have no
    gold and expect nothing found; no id is used twice across the three files."""
    asked = load_questions(collection.questions)
    follow_ups = load_questions(collection.followups)
    unanswerable = load_questions(collection.off_topic)
    assert len(asked) >= questions and len(follow_ups) >= followups
    assert len(unanswerable) >= off_topic
    for question in [*asked, *follow_ups]:
        assert question.gold_ids and question.answer_terms, question.id
        assert all(url.startswith(collection.base_url) for url in question.gold_ids), question.id
        assert len(set(question.gold_ids)) == len(question.gold_ids), question.id
    assert not any(question.history for question in asked)
    kinds = {str(record["kind"]) for _, record in read_jsonl(collection.questions)}
    assert kinds == {"how", "what", "why", "difference"}
    texts = {question.question for question in asked}
    for follow_up in follow_ups:
        assert len(follow_up.history) == 1 and follow_up.history[0] in texts, follow_up.id
    for question in unanswerable:
        assert not question.gold_ids and not question.answer_terms, question.id
        assert question.expects == "nothing_found", question.id
    ids = [question.id for question in [*asked, *follow_ups, *unanswerable]]
    assert len(ids) == len(set(ids))


def unread_gold(collection: Collection, pages: Path, main: str) -> list[tuple[str, str]]:
    """(question id, gold address) of every gold address that is no section of the pages
    under ``pages`` (read by :func:`page_sections`), or whose section holds none of the
    question's terms: each must, so that an answer quoting any gold section can pass."""
    read: dict[Path, dict[str, str]] = {}
    unheld: list[tuple[str, str]] = []
    for question in collection.answerable():
        for url in question.gold_ids:
            page, anchor = page_file(pages, collection.base_url, url)
            if page not in read:
                read[page] = page_sections(page, main) if page.is_file() else {}
            text = read[page].get(anchor)
            if text is None or not contains_expected_term(text, question.answer_terms):
                unheld.append((question.id, url))
    return unheld
