"""A development collection as its tests read it: the manifest (``collection.toml``), the three
question files, and a built Sphinx site's sections read straight off its HTML.

The checks return what is wrong, as (question id, detail) pairs, so a test asserts that the
list is empty and its failure names every offender at once. The pages are read here apart from
citeline's ingest, so a gold section that the site has and the index lacks shows as an index
failure, not as a wrong question.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion, load_questions

KINDS = frozenset({"how", "what", "why", "difference"})
_MARK = re.compile(r"\x00(\d+)\x00")


@dataclass(frozen=True, slots=True)
class Collection:
    """One ``benchmarks/questions/<name>/`` folder, as its manifest names its parts."""

    folder: Path
    name: str
    site: Path
    base_url: str
    questions: Path
    followups: Path
    off_topic: Path

    @classmethod
    def load(cls, folder: Path) -> Collection:
        manifest = tomllib.loads((folder / "collection.toml").read_text(encoding="utf-8"))
        return cls(
            folder=folder,
            name=str(manifest["name"]),
            site=Path(manifest["site"]),
            base_url=str(manifest["base_url"]),
            questions=folder / str(manifest["questions"]),
            followups=folder / str(manifest["followups"]),
            off_topic=folder / str(manifest["off_topic"]),
        )

    def answerable(self) -> list[EvalQuestion]:
        """The questions and the follow-ups: every line that has gold."""
        return [*load_questions(self.questions), *load_questions(self.followups)]


def _records(path: Path) -> Iterator[dict[str, object]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def shape_problems(
    collection: Collection, *, questions: int, followups: int, off_topic: int
) -> list[tuple[str, str]]:
    """Everything about the three files' shape that breaks the agreed format: too few lines,
    a repeated id, a question without gold or terms, gold outside the base URL or repeated,
    a follow-up that does not continue a question of the set, an off-topic line with gold."""
    main = load_questions(collection.questions)
    follow_ups = load_questions(collection.followups)
    unanswerable = load_questions(collection.off_topic)
    problems: list[tuple[str, str]] = []
    for file, lines, least in (
        ("questions", main, questions),
        ("follow-ups", follow_ups, followups),
        ("off-topic", unanswerable, off_topic),
    ):
        if len(lines) < least:
            problems.append((file, f"{len(lines)} lines, fewer than {least}"))
    ids = [question.id for question in [*main, *follow_ups, *unanswerable]]
    problems += [(qid, "id used twice") for qid in sorted({i for i in ids if ids.count(i) > 1})]
    for question in [*main, *follow_ups]:
        if not question.gold_ids or not question.answer_terms:
            problems.append((question.id, "no gold or no answer terms"))
        problems += [
            (question.id, url)
            for url in question.gold_ids
            if not url.startswith(collection.base_url)
        ]
    # The loader drops a repeated gold address, so the file's own lines are read for it.
    problems += [
        (str(record["id"]), "a gold address twice")
        for path in (collection.questions, collection.followups)
        for record in _records(path)
        if isinstance(gold := record.get("gold_ids"), list) and len(set(gold)) != len(gold)
    ]
    asked = {question.question for question in main}
    problems += [(question.id, "has a history") for question in main if question.history]
    problems += [
        (question.id, "does not continue a question of the set")
        for question in follow_ups
        if len(question.history) != 1 or question.history[0] not in asked
    ]
    problems += [
        (question.id, "answerable")
        for question in unanswerable
        if question.gold_ids or question.answer_terms or question.expects != "nothing_found"
    ]
    kinds = [str(record.get("kind")) for record in _records(collection.questions)]
    problems += [("kind", kind) for kind in sorted(set(kinds) - KINDS)]
    problems += [("kind", f"no {kind} question") for kind in sorted(KINDS - set(kinds))]
    return problems


@cache
def sphinx_sections(page: Path) -> dict[str, str]:
    """A built Sphinx page's text by section, as a reader who follows a link sees it: from each
    heading to the next, under the id of the section the heading opens; the page's opening
    section (its first heading's, or the whole text of a page without headings) under ``""``,
    the key a link to the page itself names."""
    tree = LexborHTMLParser(page.read_text(encoding="utf-8"))
    main = tree.css_first('div[role="main"]') or tree.body
    assert main is not None, page
    for permalink in main.css("a.headerlink"):
        permalink.decompose()
    anchors: list[str] = []
    for number, heading in enumerate(main.css("h1, h2, h3, h4, h5, h6")):
        # Sphinx puts a section's id on its <section> (docutils' HTML5 writer) or on its
        # <div class="section"> (the older one), not on the heading.
        section = heading.parent
        anchors.append(str(section.id) if section is not None and section.id else "")
        heading.insert_before(f"\x00{number}\x00")
    # No separator between nodes: a code line is many <span>s, and "params=payload" must read
    # as the page shows it; blocks are apart already by the page's own line breaks.
    parts = _MARK.split(str(main.text(separator="")))
    sections: dict[str, str] = {}
    if len(parts) == 1:
        sections[""] = " ".join(parts[0].split())
    for index in range(1, len(parts), 2):
        text = " ".join(parts[index + 1].split())
        anchor = anchors[int(parts[index])]
        sections.setdefault("" if index == 1 else anchor, text)
        if anchor:
            sections.setdefault(anchor, text)
    return sections


def unread_gold(collection: Collection) -> list[tuple[str, str]]:
    """(question id, gold address) of every gold address that is no section of the site's
    pages, read as :func:`sphinx_sections` reads them, or whose section holds none of the
    question's expected terms: each address must, so an answer quoting any gold section can
    pass."""
    unread: list[tuple[str, str]] = []
    for question in collection.answerable():
        for url in question.gold_ids:
            page, _, anchor = url.removeprefix(collection.base_url).partition("#")
            path = collection.site / page
            section = sphinx_sections(path).get(anchor) if path.is_file() else None
            if section is None or not contains_expected_term(section, question.answer_terms):
                unread.append((question.id, url))
    return unread


def terms_outside_gold(collection: Collection) -> list[tuple[str, str]]:
    """(question id, term) of every expected term that no gold section of its question holds:
    a term an answer quoting the gold could not contain measures nothing."""
    outside: list[tuple[str, str]] = []
    for question in collection.answerable():
        texts = []
        for url in question.gold_ids:
            page, _, anchor = url.removeprefix(collection.base_url).partition("#")
            path = collection.site / page
            if path.is_file():
                texts.append(sphinx_sections(path).get(anchor, ""))
        outside += [
            (question.id, term)
            for term in question.answer_terms
            if not any(contains_expected_term(text, [term]) for text in texts)
        ]
    return outside
