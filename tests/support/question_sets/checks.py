"""What must hold of a development collection's question set, each check returning what is
wrong as (question id or file, detail) pairs, so a test asserts the list is empty and its
failure names every offender at once. tests/evaluation/test_question_set_checks.py holds each
to a set written to break it.

The gold checks take the site's sections as a function from a gold address to the text of
the section there (None where there is none): ``html_pages.site_sections`` for a built site,
a lookup in ``markdown_pages.published_sections`` for Markdown sources.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tests.support.question_sets.manifest import Collection

from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion, load_questions, read_jsonl

KINDS = frozenset({"how", "what", "why", "difference"})

Sections = Callable[[str], str | None]


@dataclass(frozen=True, slots=True)
class Least:
    """The fewest lines each of a set's three files may hold."""

    questions: int
    followups: int
    off_topic: int


def shape_problems(collection: Collection, least: Least) -> list[tuple[str, str]]:
    """Everything about the three files' shape that breaks the agreed format: too few lines,
    a repeated id, a question without gold or terms, gold outside the base URL or repeated,
    a question with a history, a follow-up that does not continue a question of the set,
    an off-topic line with gold, terms, a history or another outcome than nothing found, and
    a kind of question missing or unknown."""
    if collection.questions is None:
        return [("questions", "the manifest names no questions file")]
    main = load_questions(collection.questions)
    follow_ups = load_questions(collection.followups) if collection.followups else []
    unanswerable = load_questions(collection.off_topic) if collection.off_topic else []
    problems: list[tuple[str, str]] = []
    for file, lines, fewest in (
        ("questions", main, least.questions),
        ("follow-ups", follow_ups, least.followups),
        ("off-topic", unanswerable, least.off_topic),
    ):
        if len(lines) < fewest:
            problems.append((file, f"{len(lines)} lines, fewer than {fewest}"))
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
        if path is not None
        for _, record in read_jsonl(path)
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
        if question.gold_ids
        or question.answer_terms
        or question.history
        or question.expects != "nothing_found"
    ]
    kinds = [str(record.get("kind")) for _, record in read_jsonl(collection.questions)]
    problems += [("kind", kind) for kind in sorted(set(kinds) - KINDS)]
    problems += [("kind", f"no {kind} question") for kind in sorted(KINDS - set(kinds))]
    return problems


def unread_gold(questions: Iterable[EvalQuestion], sections: Sections) -> list[tuple[str, str]]:
    """(question id, gold address) of every gold address that is no section of the site, or
    whose section holds none of the question's expected terms: each address must, so an
    answer quoting any gold section can pass."""
    unread: list[tuple[str, str]] = []
    for question in questions:
        for url in question.gold_ids:
            text = sections(url)
            if text is None or not contains_expected_term(text, question.answer_terms):
                unread.append((question.id, url))
    return unread


def terms_outside_gold(
    questions: Iterable[EvalQuestion], sections: Sections
) -> list[tuple[str, str]]:
    """(question id, term) of every expected term that no gold section of its question holds:
    a term an answer quoting the gold could not contain measures nothing."""
    outside: list[tuple[str, str]] = []
    for question in questions:
        texts = [text for url in question.gold_ids if (text := sections(url)) is not None]
        outside += [
            (question.id, term)
            for term in question.answer_terms
            if not any(contains_expected_term(text, [term]) for text in texts)
        ]
    return outside
