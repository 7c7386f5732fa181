"""Leave-one-collection-out: each development collection measured with everything fitted on
the others. The number that decides whether a change to the embedded model's answers is kept.

Run from the repository root (the dev extra installed; scikit-learn for the fitted modes):

    .venv/bin/python benchmarks/questions/crossval.py            # fitted ranker, leave one out
    .venv/bin/python benchmarks/questions/crossval.py --engine   # the answerer as it ships

It discovers every ``benchmarks/questions/*/collection.toml`` (``dev_collections.py``), builds
each collection's index once per version of the ingest code, and prints, per collection and
as the mean and the worst: expected term / cites gold / precision over the questions, cites
gold over the follow-ups, the share of off-topic questions answered ``nothing_found``, and the
share of answerable questions (questions and follow-ups) answered ``nothing_found``.

``--engine`` asks every question of the real answer engine (``citeline.answer``, the embedded
model) with the tuning it ships, or with each fold's fitted tuning under ``--folds``; the
default mode reads each question's candidates and their features once per index (cached,
keyed by the index and the feature code's version), fits on the other collections and
applies the fit to the one left out, in seconds. See docs/benchmarks.md for the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dev_collections

from citeline import answer
from citeline.corpus import Corpus
from citeline.evaluation import EvaluatedAnswer, evaluate_answers
from citeline.evaluation.questions import EvalQuestion
from citeline.events import Event
from citeline.models import ChatMessage, resolve_model

COLUMNS = ("term", "gold", "precision", "fu gold", "off-topic nf", "answerable nf")


@dataclass(frozen=True, slots=True)
class Row:
    """One collection's figures (``None``: nothing to judge)."""

    name: str
    questions: int
    term: float | None
    gold: float | None
    precision: float | None
    followup_gold: float | None
    off_topic_nothing: float | None
    answerable_nothing: float | None

    def values(self) -> tuple[float | None, ...]:
        return (
            self.term,
            self.gold,
            self.precision,
            self.followup_gold,
            self.off_topic_nothing,
            self.answerable_nothing,
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one answer did, as the figures read it."""

    has_term: bool | None
    cites_gold: bool | None
    precision: float | None
    nothing_found: bool


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def row_of(
    name: str,
    questions: Sequence[Outcome],
    followups: Sequence[Outcome],
    off_topic: Sequence[Outcome],
) -> Row:
    """A collection's row from its answers' outcomes."""
    terms = [float(o.has_term) for o in questions if o.has_term is not None]
    gold = [float(o.cites_gold) for o in questions if o.cites_gold is not None]
    precision = [o.precision for o in questions if o.precision is not None]
    fu_gold = [float(o.cites_gold) for o in followups if o.cites_gold is not None]
    answerable = [*questions, *followups]
    return Row(
        name,
        len(questions),
        _mean(terms),
        _mean(gold),
        _mean(precision),
        _mean(fu_gold),
        _mean([float(o.nothing_found) for o in off_topic]),
        _mean([float(o.nothing_found) for o in answerable]),
    )


def table(rows: Sequence[Row], title: str) -> str:
    """The rows, their mean and their worst, as a Markdown table."""
    lines = [
        f"{title}",
        "",
        "| collection | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---:|" * len(COLUMNS),
    ]
    for row in rows:
        cells = [_cell(v) for v in row.values()]
        lines.append(f"| {row.name} ({row.questions}) | " + " | ".join(cells) + " |")
    columns = list(zip(*(row.values() for row in rows), strict=True))
    means = [_mean([v for v in column if v is not None]) for column in columns]
    # The worst is the lowest, but for the share of answerable questions lost (the highest).
    worst = [
        (max if index == len(COLUMNS) - 1 else min)(
            [v for v in column if v is not None], default=None
        )
        for index, column in enumerate(columns)
    ]
    lines.append("| **mean** | " + " | ".join(f"**{_cell(v)}**" for v in means) + " |")
    lines.append("| worst | " + " | ".join(_cell(v) for v in worst) + " |")
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# -- the answer engine, as it ships --------------------------------------------------------


def _outcome_of(result: EvaluatedAnswer) -> Outcome:
    score = result.score
    return Outcome(
        score.has_expected_term,
        score.cites_gold,
        score.precision,
        score.state == "nothing_found",
    )


async def _engine_outcomes(corpus: Corpus, questions: Sequence[EvalQuestion]) -> list[Outcome]:
    handle = resolve_model("embedded")

    def ask(question: str, history: Sequence[ChatMessage]) -> AsyncIterator[Event]:
        return answer(
            question,
            corpus=corpus,
            model=handle,
            profile="chat" if history else "search",
            history=history,
        )

    results = await evaluate_answers(list(questions), ask)
    return [_outcome_of(result) for result in results]


def engine_row(collection: dev_collections.Collection) -> Row:
    """The collection's row from the real answer engine."""
    index = dev_collections.built_index(collection)
    sets = dev_collections.collection_questions(collection, index)
    with Corpus.open(index) as corpus:
        outcomes = [
            asyncio.run(_engine_outcomes(corpus, questions))
            for questions in (sets.questions, sets.followups, sets.off_topic)
        ]
    return row_of(collection.name, *outcomes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--collections", help="Comma-separated names (default: every collection found)."
    )
    parser.add_argument(
        "--engine",
        action="store_true",
        help="Ask the real answer engine, with the tuning it ships.",
    )
    parser.add_argument("--out", type=Path, help="Write the rows as JSON.")
    options = parser.parse_args(argv)
    names = options.collections.split(",") if options.collections else None
    collections = dev_collections.load_collections(names)
    started = time.perf_counter()
    cpu = time.process_time()
    rows: list[Row] = []
    for collection in collections:
        rows.append(engine_row(collection))
        print(f"{collection.name}: done", file=sys.stderr, flush=True)
    title = "The answer engine as it ships (embedded model)"
    print(table(rows, title))
    print(
        f"\n{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU",
        file=sys.stderr,
    )
    if options.out is not None:
        options.out.write_text(json.dumps([_row_dict(row) for row in rows], indent=1) + "\n")
    return 0


def _row_dict(row: Row) -> dict[str, object]:
    return {name: getattr(row, name) for name in Row.__slots__}


if __name__ == "__main__":
    raise SystemExit(main())
