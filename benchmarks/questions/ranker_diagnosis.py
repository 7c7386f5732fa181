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

It fits nothing of its own and changes nothing: it reads what ``simulate`` would score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ranker_features import QuestionRecord
from ranker_fit import choice_of

from citeline.models.embedded.choice import section_order, section_scores
from citeline.models.embedded.tuning import Fitted, Tuning

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
