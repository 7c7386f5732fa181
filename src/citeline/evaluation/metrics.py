"""Per-question citation scores: one answer judged against its question's gold.

Pure functions over an :class:`EvalQuestion` and an :class:`ObservedAnswer`; the conventions
below are the definitions ``docs/eval.md`` gives, and a change to one is a change to both.
Aggregating over questions is :mod:`citeline.evaluation.summary`; running the answers is
:mod:`citeline.evaluation.runner`.

Conventions, ALCE-style (Gao et al. 2023) at the level of sources:

- A citation's source is its ``id``, or its ``url`` when it has no id. The cited set is the
  distinct sources over every ``citation`` event, quotes included: a source cited twice
  counts once, so repeating a right source does not raise precision and repeating a wrong
  one does not lower it twice.
- precision = |cited ∩ gold| / |cited|; recall = |cited ∩ gold| / |gold|.
- No gold sources: the question is unjudged, and both are ``None`` (there is nothing to be
  right or wrong about); it still counts for every other rate.
- Gold but no citation: precision 0 and recall 0, as ALCE scores an answer with no
  citation, so an engine cannot raise its precision by declining to cite. The no-citation
  rate reports the same answers separately.

What the answer says, where the question asks (``None`` where it does not):

- cites a gold source: at least one cited source is gold (judged questions only).
- has an expected term / has the expected figures: :mod:`citeline.evaluation.answer_checks`.
- outcome: how the answer was produced, read from its ``done`` event alone: ``nothing_found``
  (that state), ``measure`` (label ``verified``: a governed measure), ``sql`` (``untrusted``
  or ``cited``: an ad-hoc query), ``documents`` (any other answer) or ``failed``. It is
  "as expected" when it equals the question's ``expects``.
- wrong and labelled verified (data questions only): the label is ``verified`` but the
  figures are not all there, or the question ``expects`` something other than a measure.
  The worst outcome the project can produce: a trust label on a figure that does not answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from citeline.evaluation.answer_checks import contains_expected_term, missing_figures
from citeline.evaluation.answers import ObservedAnswer
from citeline.evaluation.leaks import find_leaks
from citeline.evaluation.questions import EvalQuestion
from citeline.events import Citation
from citeline.stream.quotes import normalise_quote

AnswerOutcome: TypeAlias = Literal["measure", "sql", "nothing_found", "documents", "failed"]


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """How one answer did. ``None`` means "not judged", never zero; see the module conventions.

    ``quotes_in_evidence`` counts verified quotes that lie inside a gold evidence sentence of
    the source they cite; it is ``None`` when the question has no gold evidence.
    """

    question_id: str
    state: str
    error: str | None
    gold_ids: tuple[str, ...]
    cited_ids: tuple[str, ...]
    precision: float | None
    recall: float | None
    dropped_anchors: int
    quotes: int
    verified_quotes: int
    quotes_in_evidence: int | None
    leaks: tuple[str, ...]
    first_token_seconds: float | None
    total_seconds: float
    cites_gold: bool | None = None
    has_expected_term: bool | None = None
    missing_figures: tuple[str, ...] = ()
    has_expected_figures: bool | None = None
    outcome: AnswerOutcome = "documents"
    as_expected: bool | None = None
    wrong_verified: bool | None = None

    @property
    def correct_ids(self) -> tuple[str, ...]:
        """The cited sources that are gold, in citation order."""
        gold = set(self.gold_ids)
        return tuple(source for source in self.cited_ids if source in gold)


def score_answer(question: EvalQuestion, record: ObservedAnswer) -> QuestionScore:
    """Judge ``record`` against ``question``'s gold sources and evidence."""
    if record.question_id != question.id:
        raise ValueError(
            f"answer {record.question_id!r} was scored against question {question.id!r}"
        )
    cited = cited_sources(record.citations)
    precision, recall = citation_precision_recall(cited, question.gold_ids)
    quoted = [citation for citation in record.citations if citation.quote is not None]
    verified = [citation for citation in quoted if citation.verified]
    missing = missing_figures(record.text, question.figures)
    figures_right = not missing if question.figures else None
    outcome = answer_outcome(record)
    return QuestionScore(
        question_id=question.id,
        state=record.state,
        error=record.error,
        gold_ids=question.gold_ids,
        cited_ids=cited,
        precision=precision,
        recall=recall,
        dropped_anchors=record.dropped_anchors,
        quotes=len(quoted),
        verified_quotes=len(verified),
        quotes_in_evidence=(
            sum(_quote_in_evidence(citation, question) for citation in verified)
            if question.evidence
            else None
        ),
        leaks=find_leaks(record.text),
        first_token_seconds=record.first_token_seconds,
        total_seconds=record.total_seconds,
        cites_gold=bool(set(cited) & set(question.gold_ids)) if question.gold_ids else None,
        has_expected_term=(
            contains_expected_term(record.text, question.answer_terms)
            if question.answer_terms
            else None
        ),
        missing_figures=missing,
        has_expected_figures=figures_right,
        outcome=outcome,
        as_expected=None if question.expects is None else outcome == question.expects,
        wrong_verified=(
            record.provenance == "verified"
            and (figures_right is False or question.expects not in (None, "measure"))
            if question.is_data_question
            else None
        ),
    )


def answer_outcome(record: ObservedAnswer) -> AnswerOutcome:
    """How an answer was produced, read from its end state and provenance label."""
    if record.state == "failed":
        return "failed"
    if record.state == "nothing_found":
        return "nothing_found"
    if record.provenance == "verified":
        return "measure"
    if record.provenance in ("untrusted", "cited"):
        return "sql"
    return "documents"


def cited_sources(citations: tuple[Citation, ...]) -> tuple[str, ...]:
    """The distinct sources cited, in order of first citation."""
    return tuple(dict.fromkeys(source_of(citation) for citation in citations))


def source_of(citation: Citation) -> str:
    """The identifier a citation names: its id, or its url when it has none."""
    return citation.id if citation.id is not None else str(citation.url)


def citation_precision_recall(
    cited: tuple[str, ...], gold: tuple[str, ...]
) -> tuple[float | None, float | None]:
    """``(precision, recall)`` of the distinct ``cited`` sources against ``gold``."""
    gold_set = set(gold)
    cited_set = set(cited)
    if not gold_set:
        return None, None
    if not cited_set:
        return 0.0, 0.0
    correct = len(cited_set & gold_set)
    return correct / len(cited_set), correct / len(gold_set)


# The server verified the quote with this normalisation; judging it against the gold sentence
# by the same notion of "the same text" keeps a verified quote from failing on typography.
def _quote_in_evidence(citation: Citation, question: EvalQuestion) -> bool:
    quote = normalise_quote(citation.quote or "")
    source = source_of(citation)
    return bool(quote) and any(
        sentence.source_id == source and quote in normalise_quote(sentence.text)
        for sentence in question.evidence
    )
