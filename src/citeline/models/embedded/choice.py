"""The fitted models applied: which sections to read, which run answers, and whether it does.

Four linear models (``tuning.Fitted``) over the features ``ranking`` and ``passages`` give: a
score per section the search returned (the best ``documents_to_read`` are read); a score per
run of a read section (each section's best run is its answer); a score per read section from
its score before reading, its best run's and what its whole text holds (the best one
answers); and the probability that this answers at all, below ``threshold`` the answer is
``nothing_found``. Plain Python over tuples, since the plain install has no numpy: a few
hundred short dot products an answer. The evaluation harness
(``benchmarks/questions/crossval.py``) applies these same functions to cached features, so
the figures it reports are the answerer's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citeline.models.embedded.passages import PASSAGE_FEATURES, READ_FEATURES
from citeline.models.embedded.ranking import (
    CONFIDENCE_FEATURES,
    SECOND_FEATURES,
    SECTION_FEATURES,
)
from citeline.models.embedded.tuning import Fitted, LinearModel, Scales, dot

_S = {name: at for at, name in enumerate(SECTION_FEATURES)}
_P = {name: at for at, name in enumerate(PASSAGE_FEATURES)}
_R = {name: at for at, name in enumerate(READ_FEATURES)}

# What a read section's best run (by the passage model) holds, beside the section's own
# features once read: the share of the question's weight in it and its likest paragraph in
# meaning. The best passage anywhere in the section, not its opening, is what answers; the
# read model weighs it to choose among the sections read.
BEST_RUN_FEATURES = ("read_run_coverage", "read_run_meaning")
# The read model's features, in the order ``read_values`` gives them.
READ_MODEL_FEATURES = (*READ_FEATURES, *BEST_RUN_FEATURES)
# The features the read and confidence models take from another model's rows, by the
# feature that takes each: a read section's best run's, the answer's section's, run's and
# read text's, the likest section's (whose meaning also scales ``answer_unindexed``). An
# answer computes each one that a feature it weighs takes, weighted itself or not.
READ_FROM: Mapping[str, str] = {
    "read_run_coverage": "run_coverage",
    "read_run_meaning": "run_meaning_max",
    "answer_coverage": "coverage",
    "answer_own_coverage": "own_coverage",
    "answer_title_coverage": "run_title_coverage",
    "answer_run_coverage": "run_coverage",
    "answer_read_coverage": "read_coverage",
    "answer_meaning": "meaning",
    "answer_meaning_max": "meaning",
    "answer_run_meaning": "run_meaning",
    "answer_unindexed": "meaning",
    "answer_unfamiliar": "meaning",
}


def needed_features(fitted: Fitted, ablated: frozenset[str] = frozenset()) -> frozenset[str]:
    """The features an answer by ``fitted`` needs computed: those its models weigh, and
    those they take from another model's rows (``READ_FROM``). Any other counts nothing
    (its weight is absent, zero or ablated), so the choice is the same without it: as
    shipped, ``history_coverage`` and ``run_names``, and without the sentence model every
    feature of meaning but the sections' likeness (which scales ``answer_unindexed``)."""
    weighted = fitted.weighted(ablated)
    return weighted | {READ_FROM[name] for name in weighted if name in READ_FROM}


@dataclass(frozen=True, slots=True)
class Choice:
    """What the models chose: the answering run (``section``, ``run``: indices into the
    candidates and that section's runs, ``None`` when no read section has one), its read
    section's score, and whether it answers; ``order`` is every section, best first before
    reading (the closest results of a ``nothing_found``); ``features`` the confidence
    model's (``CONFIDENCE_FEATURES``; one it does not weigh may be 0, what it is read from
    not computed: ``needed_features``)."""

    order: tuple[int, ...]
    section: int | None
    run: int | None
    score: float
    confidence: float
    answers: bool
    features: tuple[float, ...] = ()
    # A second read section's answering run, (section, run), when it answers too.
    second: tuple[int, int] | None = None


def section_scores(
    fitted: Fitted, rows: Sequence[Sequence[float]], ablated: frozenset[str] = frozenset()
) -> list[float]:
    """Each section's score by the section model."""
    return fitted.section.scores(SECTION_FEATURES, rows, ablated)


def run_scores(
    fitted: Fitted, rows: Sequence[Sequence[float]], ablated: frozenset[str] = frozenset()
) -> list[float]:
    """Each run's score by the passage model (comparable within one section)."""
    return fitted.passage.scores(PASSAGE_FEATURES, rows, ablated)


def section_order(scores: Sequence[float]) -> tuple[int, ...]:
    """Section indices, best score first; the search's order breaks ties."""
    return tuple(sorted(range(len(scores)), key=lambda i: (-scores[i], i)))


def best_run(
    fitted: Fitted, runs: Sequence[Sequence[float]], ablated: frozenset[str] = frozenset()
) -> tuple[int, float]:
    """The number and score of a section's best run by the passage model (the first of
    equals), of a section with at least one run."""
    ranked = run_scores(fitted, runs, ablated)
    number = max(range(len(ranked)), key=lambda n: (ranked[n], -n))
    return number, ranked[number]


def read_values(
    section: float, best: float, read: Sequence[float], run: Sequence[float]
) -> list[float]:
    """A read section's features (``READ_MODEL_FEATURES``): its score before reading, its
    best run's score, its own (``passages.read_features``) and what its best run (``run``,
    that run's ``PASSAGE_FEATURES``) holds."""
    return [section, best, *read, *(run[_P[READ_FROM[name]]] for name in BEST_RUN_FEATURES)]


def choose(
    fitted: Fitted,
    section_rows: Sequence[Sequence[float]],
    run_rows: Mapping[int, Sequence[Sequence[float]]],
    read_rows: Mapping[int, Sequence[float]],
    *,
    read: int,
    judge: int = 0,
    found: float,
    terms: int,
    missing: int = 0,
    passing: int = 0,
    names: int = 0,
    unindexed: int = 0,
    unfamiliar: int = 0,
    ablated: frozenset[str] = frozenset(),
    scales: Scales = Scales(),
) -> Choice:
    """The answer among the ``read`` best sections (their runs in ``run_rows`` and their own
    features in ``read_rows``, by section index), and whether it answers, judged by the
    answer among the ``judge`` best (the answer itself when 0, or when none of them has a
    run). ``found`` is the
    share of the question's own weight that some result holds, ``terms`` how many subject
    terms it has, ``missing`` how many of them no result holds, ``passing`` how many only one
    result holds and in no title, ``names`` how many of the names it writes are held nowhere
    or in passing, ``unindexed`` how many no document holds, ``unfamiliar`` nor a dictionary."""
    scores = section_scores(fitted, section_rows, ablated)
    order = section_order(scores)
    read_weights = fitted.read.aligned(READ_MODEL_FEATURES, ablated)
    answers: list[tuple[float, int, int, float]] = []
    for index in order[:read]:
        runs = run_rows.get(index, ())
        if not runs:
            continue
        number, run_score = best_run(fitted, runs, ablated)
        values = read_values(scores[index], run_score, read_rows[index], runs[number])
        answers.append((fitted.read.bias + dot(read_weights, values), index, number, run_score))
    if not answers:
        return Choice(order, None, None, float("-inf"), 0.0, False)
    # The best read section answers; ties go to the one ranked first before reading.
    answers.sort(key=lambda found: -found[0])
    chosen = answers[0]
    second = _second(fitted, answers, terms, ablated, scales)
    judged = order[:judge] if judge else order
    score, index, number, run_score = next((a for a in answers if a[1] in judged), chosen)
    likest = max((row[_S[READ_FROM["answer_meaning_max"]]] for row in section_rows), default=0.0)
    values = [
        score,
        scores[index],
        run_score,
        *_answer_values(section_rows, index, run_rows[index][number], read_rows[index]),
        found,
        section_rows[index][_S[READ_FROM["answer_meaning"]]],
        likest,
        run_rows[index][number][_P[READ_FROM["answer_run_meaning"]]],
        *_question_values((terms, missing, passing, names, unindexed, unfamiliar), likest, scales),
    ]
    probability = confidence(fitted, values, ablated)
    sure = probability >= fitted.threshold
    return Choice(order, chosen[1], chosen[2], chosen[0], probability, sure, tuple(values), second)


def _second(
    fitted: Fitted,
    answers: Sequence[tuple[float, int, int, float]],
    terms: int,
    ablated: frozenset[str],
    scales: Scales,
) -> tuple[int, int] | None:
    """The runner-up read section and its run, when the second-citation model says it is
    worth citing beside the best (``answers`` sorted best first)."""
    if len(answers) < 2:
        return None
    values = second_values(answers[0][0] - answers[1][0], terms, scales)
    if _probability(fitted.second, SECOND_FEATURES, values, ablated) < fitted.second_threshold:
        return None
    return answers[1][1], answers[1][2]


def _answer_values(
    section_rows: Sequence[Sequence[float]],
    index: int,
    run: Sequence[float],
    read: Sequence[float],
) -> list[float]:
    """The shares of the question the chosen answer holds (``answer_coverage`` to
    ``answer_read_coverage``): in its section, of its own words, with its title, in its run,
    in its whole read text."""
    section = section_rows[index]
    return [
        section[_S[READ_FROM["answer_coverage"]]],
        section[_S[READ_FROM["answer_own_coverage"]]],
        run[_P[READ_FROM["answer_title_coverage"]]],
        run[_P[READ_FROM["answer_run_coverage"]]],
        # A read row leaves out the read model's first two features (its scores).
        read[_R[READ_FROM["answer_read_coverage"]] - 2],
    ]


def _question_values(
    counts: tuple[int, int, int, int, int, int], likest: float, scales: Scales
) -> list[float]:
    """The question's own features (``answer_terms`` to ``answer_unfamiliar``) from its
    counts (``choose``'s ``terms`` to ``unfamiliar``), each 0 to 1 at its scale.

    A subject word no document holds counts as far as no section the search found is like
    the question in meaning (``likest``): a reader's paraphrase, in words the site does not
    use, is still near its section; another product's question is near none. Leave
    one collection out over fifteen, against the feature switched off, off-topic questions
    refused rose 0.734 to 0.783 with no collection a question worse on any figure; the count
    alone, or any word held nowhere at all, cost one collection two gold citations or two
    follow-ups (docs/benchmarks.md, "Words no document holds")."""
    terms, missing, passing, names, unindexed, unfamiliar = counts
    return [
        min(terms, scales.terms) / scales.terms,
        min(missing, scales.missing) / scales.missing,
        min(passing, scales.missing) / scales.missing,
        min(names, scales.missing) / scales.missing,
        min(unindexed, 1) * (1.0 - likest),
        # A name no document holds, counted the same way: a name, unlike a word of the
        # reader's own, seldom has a paraphrase in the collection to be near in meaning.
        min(unfamiliar, 1) * (1.0 - likest),
    ]


def second_values(gap: float, terms: int, scales: Scales = Scales()) -> list[float]:
    """The next read section's features (``SECOND_FEATURES``): how far its read score is
    behind the best's, and the question's subject terms (to ``scales.terms``)."""
    return [gap, min(terms, scales.terms) / scales.terms]


def confidence(
    fitted: Fitted, values: Sequence[float], ablated: frozenset[str] = frozenset()
) -> float:
    """The confidence model's probability that the answer answers."""
    return _probability(fitted.confidence, CONFIDENCE_FEATURES, values, ablated)


def _probability(
    model: LinearModel, names: Sequence[str], values: Sequence[float], ablated: frozenset[str]
) -> float:
    logit = model.bias + dot(model.aligned(names, ablated), values)
    return 1 / (1 + math.exp(-max(min(logit, 60.0), -60.0)))
