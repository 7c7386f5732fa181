"""Where the fitted ranker's answers miss, by class, each collection answered by the models
fitted on the others (``crossval.py --diagnose``).

Every answerable question (not a follow-up, not off-topic) is put in one class for its
expected term and one for its gold citation, from its cached candidates
(``ranker_features.py``) and the choice the answerer makes (``ranker_fit.choice_of``):

- ``hit``: the answer holds an expected term (cites a gold section);
- ``nothing found``: the answer is ``nothing_found``;
- ``retrieval``: no section the search returned holds the term in any of its runs (is gold):
  nothing the ranker chooses could have been right;
- ``section``: some returned section would have been right, the chosen one is not;
  ``not read`` when no right section was among those read (the section model's miss), else
  ``read, not chosen`` (the read model's);
- ``passage`` (terms only): a run of the chosen section holds the term, the chosen run not.

For the two section classes of the gold citation, and the passage class of the term, it
also says which features put the wrong candidate first (``margins``): each feature's weight
times its value in the section (run) placed first less its value in the right one placed
best, averaged over the misses. A feature with a large positive margin is what the model
trusts where it is wrong; one near 0 never told the two apart.

It fits nothing of its own and changes nothing: it reads what ``simulate`` would score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ranker_features import QuestionRecord
from ranker_fit import choice_of, read_answers, read_rows

from citeline.models.embedded.choice import (
    READ_MODEL_FEATURES,
    run_scores,
    section_order,
    section_scores,
)
from citeline.models.embedded.passages import PASSAGE_FEATURES
from citeline.models.embedded.ranking import SECTION_FEATURES
from citeline.models.embedded.tuning import Fitted, LinearModel, Tuning

TERM_CLASSES = ("hit", "nothing found", "retrieval", "not read", "read, not chosen", "passage")
GOLD_CLASSES = ("hit", "nothing found", "retrieval", "not read", "read, not chosen")


def _read(record: QuestionRecord, fitted: Fitted, tuning: Tuning) -> list[int]:
    scores = section_scores(fitted, [s.features for s in record.sections])
    return list(section_order(scores)[: tuning.documents_to_read])


def term_class(record: QuestionRecord, fitted: Fitted, tuning: Tuning) -> str:
    """The class of the question's answer for its expected term."""
    right = [any(run.has_term for run in s.runs) for s in record.sections]
    if not any(right):
        return "retrieval"
    choice = choice_of(record, fitted, tuning)
    if not choice.answers or choice.section is None or choice.run is None:
        return "nothing found"
    chosen = record.sections[choice.section]
    if chosen.runs[choice.run].has_term or (
        choice.second is not None
        and record.sections[choice.second[0]].runs[choice.second[1]].has_term
    ):
        return "hit"
    if right[choice.section]:
        return "passage"
    read = _read(record, fitted, tuning)
    return "read, not chosen" if any(right[i] for i in read) else "not read"


def gold_class(record: QuestionRecord, fitted: Fitted, tuning: Tuning) -> str:
    """The class of the question's answer for its gold citation."""
    if not any(s.gold for s in record.sections):
        return "retrieval"
    choice = choice_of(record, fitted, tuning)
    if not choice.answers or choice.section is None:
        return "nothing found"
    cited = [choice.section] + ([choice.second[0]] if choice.second is not None else [])
    if any(record.sections[i].gold for i in cited):
        return "hit"
    read = _read(record, fitted, tuning)
    return "read, not chosen" if any(record.sections[i].gold for i in read) else "not read"


def diagnosis(
    records: Sequence[QuestionRecord], fitted: Fitted, tuning: Tuning
) -> tuple[Counter[str], Counter[str]]:
    """How many of the answerable questions fall in each term class and each gold class."""
    terms: Counter[str] = Counter()
    golds: Counter[str] = Counter()
    for record in records:
        if record.kind != "question":
            continue
        if record.has_terms:
            terms[term_class(record, fitted, tuning)] += 1
        if record.has_gold:
            golds[gold_class(record, fitted, tuning)] += 1
    return terms, golds


def diagnosis_table(rows: Sequence[tuple[str, Counter[str], Counter[str]]]) -> str:
    """The classes' counts per collection and in all, as a Markdown table."""
    header = [f"term: {c}" for c in TERM_CLASSES] + [f"gold: {c}" for c in GOLD_CLASSES]
    lines = [
        "| collection | " + " | ".join(header) + " |",
        "|---|" + "---:|" * len(header),
    ]
    all_terms: Counter[str] = Counter()
    all_golds: Counter[str] = Counter()
    for name, terms, golds in rows:
        all_terms.update(terms)
        all_golds.update(golds)
        cells = [str(terms[c]) for c in TERM_CLASSES] + [str(golds[c]) for c in GOLD_CLASSES]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    cells = [f"**{all_terms[c]}**" for c in TERM_CLASSES] + [
        f"**{all_golds[c]}**" for c in GOLD_CLASSES
    ]
    lines.append("| **all** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


@dataclass(slots=True)
class Margins:
    """Per feature, the weighted margins of the wrong section over the gold one, summed over
    the misses (``total``), and how many of them favoured the wrong one (``wrong``)."""

    names: Sequence[str]
    misses: int = 0
    total: dict[str, float] = field(default_factory=dict)
    wrong: Counter[str] = field(default_factory=Counter)

    def add(self, model: LinearModel, placed: Sequence[float], gold: Sequence[float]) -> None:
        self.misses += 1
        weights = model.aligned(self.names)
        for name, weight, first, own in zip(self.names, weights, placed, gold, strict=True):
            margin = weight * (first - own)
            self.total[name] = self.total.get(name, 0.0) + margin
            self.wrong[name] += margin > 0


def margins(
    records: Sequence[QuestionRecord],
    fitted: Fitted,
    tuning: Tuning,
    found: tuple[Margins, Margins, Margins] | None = None,
) -> tuple[Margins, Margins, Margins]:
    """Added to ``found``: the section model's margins where no gold section was read (its
    first section against the gold one it ranks best); the read model's where one was read
    and another chosen (the chosen against the best read gold one); the passage model's
    where the chosen section holds the expected term and its chosen run does not (that run
    against the best run that holds it)."""
    not_read, not_chosen, passage = found or (
        Margins(SECTION_FEATURES),
        Margins(READ_MODEL_FEATURES),
        Margins(PASSAGE_FEATURES),
    )
    for record in records:
        if record.kind != "question":
            continue
        if record.has_terms and term_class(record, fitted, tuning) == "passage":
            _add_passage(passage, record, fitted, tuning)
        if not record.has_gold:
            continue
        if gold_class(record, fitted, tuning) not in {"not read", "read, not chosen"}:
            continue
        rows = [s.features for s in record.sections]
        scores = section_scores(fitted, rows)
        order = section_order(scores)
        read = order[: tuning.documents_to_read]
        golds = [i for i in read if record.sections[i].gold]
        if not golds:
            best_gold = next(i for i in order if record.sections[i].gold)
            not_read.add(fitted.section, rows[order[0]], rows[best_gold])
            continue
        values = read_rows(record, fitted, scores, read)
        ranked = [index for _, index in read_answers(record, fitted, tuning)]
        read_gold = next((i for i in ranked if record.sections[i].gold), None)
        if read_gold is not None:
            not_chosen.add(fitted.read, values[ranked[0]], values[read_gold])
    return not_read, not_chosen, passage


def _add_passage(passage: Margins, record: QuestionRecord, fitted: Fitted, tuning: Tuning) -> None:
    choice = choice_of(record, fitted, tuning)
    if choice.section is None or choice.run is None:
        return
    runs = record.sections[choice.section].runs
    scores = run_scores(fitted, [run.features for run in runs])
    right = max((n for n, run in enumerate(runs) if run.has_term), key=scores.__getitem__)
    passage.add(fitted.passage, runs[choice.run].features, runs[right].features)


def margins_table(found: tuple[Margins, Margins, Margins]) -> str:
    """Each model's features by their mean margin in the misses, as Markdown tables."""
    lines: list[str] = []
    for title, kept in zip(
        (
            "gold not read: the section model",
            "gold read, not chosen: the read model",
            "term in the chosen section, not in its chosen run: the passage model",
        ),
        found,
        strict=True,
    ):
        lines += [
            "",
            f"{title} ({kept.misses} misses)",
            "",
            "| feature | mean margin of the wrong one | share favouring it |",
            "|---|---:|---:|",
        ]
        for name in sorted(kept.names, key=lambda n: -kept.total.get(n, 0.0)):
            mean = kept.total.get(name, 0.0) / (kept.misses or 1)
            share = kept.wrong[name] / (kept.misses or 1)
            lines.append(f"| {name} | {mean:+.3f} | {share:.2f} |")
    return "\n".join(lines)
