"""Leave-one-collection-out: each development collection measured with everything fitted on
the others. The number that decides whether a change to the embedded model's answers is kept.

Run from the repository root (the dev extra installed; scikit-learn for the fitted modes):

    .venv/bin/python benchmarks/questions/crossval.py            # fitted ranker, leave one out
    .venv/bin/python benchmarks/questions/crossval.py --engine   # the answerer as it ships
    .venv/bin/python benchmarks/questions/crossval.py --held-out # the same, on held-out sites

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
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dev_collections
import ranker_fit
from ranker_diagnosis import diagnosis, diagnosis_table, margins, margins_table
from ranker_features import QuestionRecord, question_records
from ranker_fit import fit, simulate

from citeline import answer
from citeline.agent.meaning import MEANING_ENV
from citeline.corpus import Corpus
from citeline.corpus.embedding import dense_installed
from citeline.evaluation import EvaluatedAnswer, evaluate_answers
from citeline.evaluation.questions import EvalQuestion
from citeline.events import Event
from citeline.models import ChatMessage, resolve_model
from citeline.models.embedded.features import FEATURES
from citeline.models.embedded.tuning import (
    WEIGHTS_FILE,
    Fitted,
    Tuning,
    shipped_tuning,
    tuning_to_json,
    use_tuning,
)

ALL_FEATURES = FEATURES
WEIGHTS = dev_collections.REPOSITORY / "src" / "citeline" / "models" / "embedded" / WEIGHTS_FILE

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
    # How many answers each figure judges, in the order of ``values``.
    judged: tuple[int, ...] = ()

    def counted(self) -> tuple[float | None, ...]:
        """Each figure in answers rather than as a share (precision: the sum of shares)."""
        return tuple(
            None if v is None else v * n for v, n in zip(self.values(), self.judged, strict=True)
        )

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
        (len(terms), len(gold), len(precision), len(fu_gold), len(off_topic), len(answerable)),
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
    index = dev_collections.built_index(collection, retrieval=RETRIEVAL)
    sets = dev_collections.collection_questions(collection, index)
    with Corpus.open(index) as corpus:
        outcomes = [
            asyncio.run(_engine_outcomes(corpus, questions))
            for questions in (sets.questions, sets.followups, sets.off_topic)
        ]
    return row_of(collection.name, *outcomes)


# -- the fitted ranker, leave one collection out ----------------------------------------


# The sentence model's answers kept, by its arithmetic: every text alone in int8 since
# main's meaning work (an earlier cache held full-precision section vectors).
SIMILARITIES = "similarities-int8-alone"
RETRIEVAL = ""  # ingest's --retrieval for every index (main sets it: hybrid with the extra)


def collection_records(
    collection: dev_collections.Collection, tuning: Tuning, meaning: bool, retrieval: str = ""
) -> list[QuestionRecord]:
    """Every question of the collection with its candidates' features (cached per index),
    over its index built with ``retrieval`` (``RETRIEVAL`` when empty)."""
    index = dev_collections.built_index(collection, retrieval=retrieval or RETRIEVAL)
    sets = dev_collections.collection_questions(collection, index)
    found = question_records(
        index,
        {"question": sets.questions, "followup": sets.followups, "off_topic": sets.off_topic},
        cache=index.parent,
        similarities=dev_collections.cache_root() / SIMILARITIES / f"{collection.name}.pickle.gz",
        tuning=tuning,
        meaning=meaning,
    )
    if collection.kind == "claims":
        for record in found:
            record.kind = "claim"
    return found


TRAIN_EVERY: dict[str, int] = {}  # a claims collection's subsampling, by name


def training(records: dict[str, list[QuestionRecord]], leave_out: str = "") -> list[QuestionRecord]:
    """Every collection's records but ``leave_out``'s, a claims collection's subsampled."""
    return [
        record
        for name, found in records.items()
        if name != leave_out
        for at, record in enumerate(found)
        if at % TRAIN_EVERY.get(name, 1) == 0
    ]


def resampled(records: Sequence[QuestionRecord], seed: int) -> list[QuestionRecord]:
    """A bootstrap resample of ``records``: as many, drawn with replacement by ``seed``. A fit
    on it is one that other questions of the same kinds could as well have given."""
    draw = random.Random(seed)
    return [records[draw.randrange(len(records))] for _ in records]


def left_out_rows(
    records: dict[str, list[QuestionRecord]],
    tuning: Tuning,
    dropped: frozenset[str],
    resample: int = 0,
    chooser: Fitted | None = None,
) -> list[Row]:
    """Each documentation collection's row, answered by the models fitted on every other
    collection (claims included), or on a bootstrap resample of them drawn by ``resample``
    (when not 0); with ``chooser``, only the confidence model is fitted, over its choices."""
    rows: list[Row] = []
    for name, own in records.items():
        if name in TRAIN_EVERY:
            continue
        found = training(records, name)
        fitted = fit(resampled(found, resample) if resample else found, tuning, dropped, chooser)
        outcomes = simulate(own, fitted, tuning)
        rows.append(
            row_of(
                name,
                [o for o in outcomes if o.kind == "question"],
                [o for o in outcomes if o.kind == "followup"],
                [o for o in outcomes if o.kind == "off_topic"],
            )
        )
    return rows


def claims_line(
    name: str, records: dict[str, list[QuestionRecord]], tuning: Tuning, dropped: frozenset[str]
) -> str:
    """A claims collection's figures, answered by the models fitted on every collection (it
    is in its own training: its every n-th claim)."""
    outcomes = simulate(records[name], fit(training(records), tuning, dropped), tuning)
    precision = _mean([o.precision for o in outcomes if o.precision is not None])
    recall = _mean([o.recall for o in outcomes if o.recall is not None])
    gold = _mean([float(o.cites_gold) for o in outcomes if o.cites_gold is not None])
    nothing = _mean([float(o.nothing_found) for o in outcomes])
    return (
        f"{name} ({len(outcomes)} claims, in its own fit): precision {_cell(precision)}, "
        f"recall {_cell(recall)}, cites gold {_cell(gold)}, nothing found {_cell(nothing)}"
    )


def diagnose(
    records: dict[str, list[QuestionRecord]], tuning: Tuning, dropped: frozenset[str]
) -> str:
    """Where each collection's answers miss, by class (``ranker_diagnosis``), every
    collection answered by the models fitted on the others."""
    rows = []
    found = None
    for name, own in records.items():
        if name in TRAIN_EVERY:
            continue
        fitted = fit(training(records, name), tuning, dropped)
        rows.append((name, *diagnosis(own, fitted, tuning)))
        found = margins(own, fitted, tuning, found)
    return diagnosis_table(rows) + (margins_table(found) if found else "")


def resample_seeds(first: int, count: int) -> range:
    """The seeds of ``count`` resampled fits from ``first``: a run from seed 3 continues one
    of seeds 1 and 2, and the two runs' figures averaged are those of seeds 1 to 4."""
    return range(first, first + count)


def mean_rows(runs: Sequence[Sequence[Row]]) -> list[Row]:
    """Each collection's row averaged over several runs of ``left_out_rows`` (one row a
    collection each, in one order)."""
    rows: list[Row] = []
    for found in zip(*runs, strict=True):
        term, gold, precision, followup_gold, off_topic, answerable = _means(found)
        rows.append(
            Row(
                found[0].name,
                found[0].questions,
                term,
                gold,
                precision,
                followup_gold,
                off_topic,
                answerable,
                found[0].judged,
            )
        )
    return rows


def spread_table(runs: Sequence[Sequence[Row]]) -> str:
    """How far each collection's figures move between the runs: the highest less the lowest,
    in questions (the share times the questions judged; the follow-up and off-topic columns
    in their own questions), the unit of the keep rule."""
    lines = [
        "How far each figure moves between the resampled fits (highest less lowest, in questions)",
        "",
        "| collection | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---:|" * len(COLUMNS),
    ]
    for found in zip(*runs, strict=True):
        cells = []
        for column in zip(*(row.counted() for row in found), strict=True):
            judged = [v for v in column if v is not None]
            cells.append(f"{max(judged) - min(judged):.1f}" if judged else "-")
        lines.append(f"| {found[0].name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _means(rows: Sequence[Row]) -> list[float | None]:
    columns = list(zip(*(row.values() for row in rows), strict=True))
    return [_mean([v for v in column if v is not None]) for column in columns]


def worth_table(
    records: dict[str, list[QuestionRecord]], tuning: Tuning, features: Sequence[str]
) -> str:
    """Each feature's cross-validated worth: the leave-one-out means with it dropped (every
    model refitted without it), against all features."""
    base = _means(left_out_rows(records, tuning, frozenset()))
    lines = [
        "| feature dropped | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---:|" * len(COLUMNS),
        "| (none) | " + " | ".join(_cell(v) for v in base) + " |",
    ]
    for feature in features:
        means = _means(left_out_rows(records, tuning, frozenset({feature})))
        cells = [
            "-" if v is None or b is None else f"{v:.3f} ({v - b:+.3f})"
            for v, b in zip(means, base, strict=True)
        ]
        lines.append(f"| {feature} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


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
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="Ask the answer engine as it ships over the held-out collections "
        "(benchmarks/held-out/*/collection.toml), which nothing is fitted or tuned on: what "
        "a site nobody measured gets, beside this command's leave-one-out mean.",
    )
    parser.add_argument(
        "--folds",
        action="store_true",
        help="With --engine: answer each collection with the models fitted on the others "
        "(the real engine's figures for what the default mode simulates).",
    )
    parser.add_argument(
        "--words",
        action="store_true",
        help="Fit and measure the words-only models (no sentence model).",
    )
    parser.add_argument(
        "--ablate",
        default="",
        help="Comma-separated features to leave out of every fit (see --worth).",
    )
    parser.add_argument(
        "--worth",
        nargs="?",
        const="all",
        help="Print each feature's cross-validated worth: the means with it left out (every "
        "feature, or the comma-separated ones named: ten refits a feature, about two CPU "
        "minutes each).",
    )
    parser.add_argument(
        "--diagnose",
        action="store_true",
        help="Print where each collection's answers miss, by class (retrieval, section, "
        "passage), leave one out, and which features put a wrong section first.",
    )
    parser.add_argument(
        "--confidence-only",
        action="store_true",
        help="Fit only whether the answer answers (the confidence model and its threshold), "
        "over the answers the shipped models choose (leave one out, or --write-weights).",
    )
    parser.add_argument(
        "--meaning-only",
        action="store_true",
        help="With --write-weights: refit only the models that read with the sentence model; "
        "the words-only set stays the file's (a change to features of meaning alone leaves "
        "its records as they were, and it spares building every collection lexically).",
    )
    parser.add_argument(
        "--write-weights",
        action="store_true",
        help="Fit on every collection, with and without meaning, and write the shipped "
        "weights file.",
    )
    parser.add_argument(
        "--retrieval",
        choices=("lexical", "dense", "hybrid"),
        help="Build the indexes with this ingest --retrieval (default: hybrid where the dense "
        "extra is installed, as ingest builds a collection, else and with --words lexical).",
    )
    parser.add_argument(
        "--lost-answerable",
        type=float,
        default=ranker_fit.LOST_ANSWERABLE,
        help="The share of the training collections' answerable questions the confidence "
        f"threshold may lose to nothing found (default {ranker_fit.LOST_ANSWERABLE}).",
    )
    parser.add_argument(
        "--regularisation",
        type=float,
        default=ranker_fit.C,
        metavar="C",
        help="Every model's inverse regularisation strength (the ranking and confidence "
        "models' on standardised features, the second citation's on its raw values; "
        f"default {ranker_fit.C}; smaller is stronger).",
    )
    parser.add_argument(
        "--pairs-in-turn",
        action="store_true",
        help="Draw the ranking models' pairs with one generator through every question in "
        "turn, as fits did before each question drew its own (ranker_fit.PAIRS_BY_GROUP): "
        "the old fits, to measure the noise that draw added.",
    )
    parser.add_argument(
        "--second-threshold",
        type=float,
        help="Hold every fit's second-citation threshold at this probability instead of "
        "choosing it per fit from ranker_fit.SECOND_THRESHOLDS (above 1: never a second). "
        "One grid step moves 3 to 5 questions in a collection left out; holding it compares "
        "two first-choice arms without that step.",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="Answer with a Tuning setting changed (a number), e.g. documents_to_read=3; "
        "repeatable. A setting the features depend on extracts them again.",
    )
    parser.add_argument(
        "--resamples",
        type=int,
        default=0,
        metavar="K",
        help="Fit each fold K times, on bootstrap resamples of its training questions (seeds "
        "1 to K, or from --first-seed), and print the figures averaged over the K fits with "
        "how far each moves between them: the noise a change's figures must clear. About "
        "two CPU minutes a fit.",
    )
    parser.add_argument(
        "--first-seed",
        type=int,
        default=1,
        metavar="N",
        help="The first resample's seed (seeds N to N+K-1): more fits of an arm already "
        "measured, paired with another arm's run with the same seeds.",
    )
    parser.add_argument("--out", type=Path, help="Write the rows as JSON.")
    options = parser.parse_args(argv)
    global RETRIEVAL
    # What a user's collection is: ingest builds it hybrid where the dense extra is installed
    # (the words-only models answer the plain install's, lexical, collections).
    RETRIEVAL = options.retrieval or (
        "hybrid" if dense_installed() and not options.words else "lexical"
    )
    if options.resamples < 0:
        raise SystemExit(
            "--resamples is a count of fits: 0 (the training questions as they are) or more."
        )
    if not 0 <= options.lost_answerable < 1:
        raise SystemExit("--lost-answerable is a share: from 0 up to, not including, 1.")
    ranker_fit.LOST_ANSWERABLE = options.lost_answerable
    if not options.regularisation > 0:
        raise SystemExit("--regularisation is an inverse strength: a number above 0.")
    ranker_fit.C = options.regularisation
    ranker_fit.PAIRS_BY_GROUP = not options.pairs_in_turn
    if options.second_threshold is not None:
        if options.second_threshold <= 0:
            raise SystemExit("--second-threshold is a probability above 0 (above 1: never).")
        ranker_fit.SECOND_THRESHOLDS = (options.second_threshold,)
    names = options.collections.split(",") if options.collections else None
    if options.held_out:
        if options.folds or options.write_weights:
            raise SystemExit(
                "--held-out asks the engine as it ships: no --folds or --write-weights."
            )
        options.engine = True
    collections = dev_collections.load_collections(names, held_out=options.held_out)
    TRAIN_EVERY.update(
        {c.name: c.train_every for c in dev_collections.load_collections() if c.kind == "claims"}
    )
    started = time.perf_counter()
    cpu = time.process_time()
    tuning = with_settings(shipped_tuning(), options.set)
    meaning = not options.words and dense_installed()
    if not meaning:
        # The engine reads for meaning unless told not to, as a deployment is.
        os.environ[MEANING_ENV] = "0"
    dropped = frozenset(f for f in options.ablate.split(",") if f)
    worth_features = (
        ALL_FEATURES
        if options.worth in (None, "all")
        else tuple(f for f in options.worth.split(",") if f)
    )
    unknown = (dropped | set(worth_features)) - set(ALL_FEATURES)
    if unknown:
        raise SystemExit(f"Unknown features {sorted(unknown)}; known: {', '.join(ALL_FEATURES)}.")
    if options.write_weights:
        write_weights(
            collections,
            tuning,
            dropped,
            argv,
            confidence_only=options.confidence_only,
            meaning_only=options.meaning_only,
        )
        return 0
    rows: list[Row] = []
    if options.engine:
        # Each fold is fitted on every other collection, chosen for the run or not.
        records = (
            {
                c.name: collection_records(c, tuning, meaning)
                for c in dev_collections.load_collections()
            }
            if options.folds
            else {}
        )
        for collection in collections:
            if collection.kind == "claims" and not names:
                continue  # 505 claims: asked only when named (citeline eval citations does)
            if options.folds:
                fitted = fit(training(records, collection.name), tuning, dropped)
                fold = dataclasses.replace(
                    tuning, with_meaning=fitted, words_only=fitted, ablated=dropped
                )
                with use_tuning(fold):
                    rows.append(engine_row(collection))
            else:
                rows.append(engine_row(collection))
            print(f"{collection.name}: done", file=sys.stderr, flush=True)
        title = "The answer engine " + (
            "with each collection's models fitted on the others" if options.folds else "as it ships"
        )
        if options.held_out:
            title += ", over the held-out collections"
    else:
        records = {c.name: collection_records(c, tuning, meaning) for c in collections}
        if options.worth:
            print(worth_table(records, tuning, worth_features))
            return 0
        if options.diagnose:
            print(diagnose(records, tuning, dropped))
            return 0
        if options.resamples > 0:
            runs = []
            for seed in resample_seeds(options.first_seed, options.resamples):
                runs.append(left_out_rows(records, tuning, dropped, resample=seed))
                print(f"resample {seed}: done", file=sys.stderr, flush=True)
            rows = mean_rows(runs)
            print(spread_table(runs) + "\n")
        else:
            chooser = tuning.fitted(meaning) if options.confidence_only else None
            rows = left_out_rows(records, tuning, dropped, chooser=chooser)
        for name in TRAIN_EVERY.keys() & records.keys():
            print(claims_line(name, records, tuning, dropped), file=sys.stderr)
        kind = "with meaning" if meaning else "words only"
        title = f"Leave one collection out, fitted ranker ({kind})"
        if dropped:
            title += f", without {', '.join(sorted(dropped))}"
        title += f", threshold losing {options.lost_answerable:.1%} of training answerable"
        title += f", regularisation C {options.regularisation:g}"
        if options.pairs_in_turn:
            title += ", pairs drawn in turn"
        if options.resamples > 0:
            seeds = resample_seeds(options.first_seed, options.resamples)
            title += (
                f", the mean of {options.resamples} fits on resampled training questions "
                f"(seeds {seeds[0]} to {seeds[-1]})"
            )
    print(table(rows, title))
    print(
        f"\n{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU",
        file=sys.stderr,
    )
    if options.out is not None:
        options.out.write_text(json.dumps([_row_dict(row) for row in rows], indent=1) + "\n")
    return 0


def write_weights(
    collections: Sequence[dev_collections.Collection],
    tuning: Tuning,
    dropped: frozenset[str],
    argv: list[str] | None,
    *,
    confidence_only: bool = False,
    meaning_only: bool = False,
) -> None:
    """Fit on every collection, with and without the sentence model, without the ``dropped``
    features (``--ablate``: they get no weight), and write the weights file the package
    ships. Each set is fitted over the indexes its users have: the sentence model's over
    ``RETRIEVAL``'s (hybrid, as ingest builds a collection where the dense extra is
    installed), the words-only set over lexical ones (the plain install has no vectors); with
    ``meaning_only``, the words-only set is the file's as it was."""
    fitted = {False: tuning.words_only}
    sets = ((True, RETRIEVAL),) if meaning_only else ((True, RETRIEVAL), (False, "lexical"))
    for meaning, retrieval in sets:
        records = {c.name: collection_records(c, tuning, meaning, retrieval) for c in collections}
        chooser = tuning.fitted(meaning) if confidence_only else None
        fitted[meaning] = fit(training(records), tuning, dropped, chooser)
    shipped = dataclasses.replace(tuning, with_meaning=fitted[True], words_only=fitted[False])
    command = "benchmarks/questions/crossval.py " + " ".join(argv or sys.argv[1:])
    notes: dict[str, object] = {"collections": [c.name for c in collections]}
    if meaning_only:
        before = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        notes["words_only"] = before.get("notes", {}).get("words_only") or {
            "command": before.get("command", ""),
            "collections": before.get("notes", {}).get("collections", []),
        }
    if confidence_only:
        # The section, passage, read and second models are the file's as it was: say which
        # fit made them (the first one's, however many confidence refits followed).
        before = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        notes["choosers"] = before.get("notes", {}).get("choosers") or {
            "command": before.get("command", ""),
            "collections": before.get("notes", {}).get("collections", []),
        }
    WEIGHTS.write_text(tuning_to_json(shipped, command=command.strip(), notes=notes))
    print(f"Wrote {WEIGHTS}", file=sys.stderr)


def with_settings(tuning: Tuning, settings: Sequence[str]) -> Tuning:
    """``tuning`` with each ``NAME=VALUE`` of ``settings`` set (a number, of the setting's
    own type)."""
    known = {f.name: f for f in dataclasses.fields(Tuning)}
    changed: dict[str, object] = {}
    for setting in settings:
        name, _, value = setting.partition("=")
        current = getattr(tuning, name, None) if name in known else None
        if not isinstance(current, int | float) or isinstance(current, bool):
            numbers = sorted(
                n for n, v in dataclasses.asdict(tuning).items() if isinstance(v, int | float)
            )
            raise SystemExit(f"--set takes NAME=NUMBER of a numeric setting: {', '.join(numbers)}.")
        try:
            changed[name] = type(current)(value)
        except ValueError:
            raise SystemExit(
                f"--set {name}= needs a {type(current).__name__}, not {value!r}."
            ) from None
    return dataclasses.replace(tuning, **changed)  # type: ignore[arg-type]


def _row_dict(row: Row) -> dict[str, object]:
    return {name: getattr(row, name) for name in Row.__slots__}


if __name__ == "__main__":
    raise SystemExit(main())
