"""The overall numbers of a citation evaluation, aggregated from per-question scores.

Pure: :func:`summarize` turns :class:`QuestionScore` values into one
:class:`CitationSummary`. Each rate names its denominator in its docstring and in
``docs/eval.md``; a rate whose denominator is empty is ``None``, never zero, so "nothing to
measure" is never read as "measured and bad" (or good). It does not format anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citeline.evaluation.leaks import LEAK_KINDS
from citeline.evaluation.metrics import QuestionScore
from citeline.evaluation.percentiles import percentile


@dataclass(frozen=True, slots=True)
class CitationSummary:
    """Overall figures. Rates are fractions in [0, 1]; times are seconds.

    - ``precision``/``recall``: means over the ``judged`` questions (those with gold sources).
    - ``no_citation_rate``: answers with state ``answered`` that cite nothing, over those.
    - ``dropped_anchor_rate``: questions whose answer dropped at least one anchor, over all.
    - ``quote_verification_rate``: verified quotes over quotes.
    - ``quote_in_evidence_rate``: verified quotes inside a gold evidence sentence, over the
      verified quotes of questions that have gold evidence.
    - ``leak_rate``: questions whose prose holds model citation markup, over all.
    - ``gold_cited_rate``: answers citing at least one gold source, over the judged questions.
    - ``expected_term_rate``: answers containing an expected term, over the ``term_judged``
      questions (those with ``answer_terms``).
    - ``expected_figures_rate``: answers containing every expected figure, over the
      ``figures_judged`` questions (those with ``figures``).
    - ``as_expected_rate``: answers produced as the question ``expects``, over the
      ``outcome_judged`` questions (those with ``expects``).
    - ``wrong_verified``/``wrong_verified_rate``: answers labelled ``verified`` whose figures
      are wrong or whose question expects no measure, over the ``data_questions``.
    - percentiles of time to first token (over answers with one) and of total time (over all).
    """

    questions: int
    states: dict[str, int]
    errors: int
    judged: int
    precision: float | None
    recall: float | None
    answered: int
    no_citation_rate: float | None
    dropped_anchor_rate: float | None
    dropped_anchors: int
    quotes: int
    verified_quotes: int
    quote_verification_rate: float | None
    evidence_judged_quotes: int
    quote_in_evidence_rate: float | None
    leak_rate: float | None
    leaks: dict[str, int]
    gold_cited_rate: float | None
    term_judged: int
    expected_term_rate: float | None
    figures_judged: int
    expected_figures_rate: float | None
    outcome_judged: int
    as_expected_rate: float | None
    outcomes: dict[str, int]
    data_questions: int
    wrong_verified: int
    wrong_verified_rate: float | None
    first_token_p50: float | None
    first_token_p95: float | None
    total_p50: float | None
    total_p95: float | None


def summarize(scores: Sequence[QuestionScore]) -> CitationSummary:
    """The overall figures over ``scores``."""
    judged = [score for score in scores if score.precision is not None]
    answered = [score for score in scores if score.state == "answered"]
    evidence_scores = [score for score in scores if score.quotes_in_evidence is not None]
    evidence_judged_quotes = sum(score.verified_quotes for score in evidence_scores)
    quotes = sum(score.quotes for score in scores)
    verified = sum(score.verified_quotes for score in scores)
    first_tokens = [s.first_token_seconds for s in scores if s.first_token_seconds is not None]
    totals = [score.total_seconds for score in scores]
    term_judged = [s.has_expected_term for s in scores if s.has_expected_term is not None]
    figures_judged = [s.has_expected_figures for s in scores if s.has_expected_figures is not None]
    outcome_judged = [s.as_expected for s in scores if s.as_expected is not None]
    data_judged = [s.wrong_verified for s in scores if s.wrong_verified is not None]
    return CitationSummary(
        questions=len(scores),
        states=dict(Counter(score.state for score in scores)),
        errors=sum(score.error is not None for score in scores),
        judged=len(judged),
        precision=_mean([score.precision for score in judged if score.precision is not None]),
        recall=_mean([score.recall for score in judged if score.recall is not None]),
        answered=len(answered),
        no_citation_rate=_share(sum(not score.cited_ids for score in answered), len(answered)),
        dropped_anchor_rate=_share(sum(s.dropped_anchors > 0 for s in scores), len(scores)),
        dropped_anchors=sum(score.dropped_anchors for score in scores),
        quotes=quotes,
        verified_quotes=verified,
        quote_verification_rate=_share(verified, quotes),
        evidence_judged_quotes=evidence_judged_quotes,
        quote_in_evidence_rate=_share(
            sum(score.quotes_in_evidence or 0 for score in evidence_scores),
            evidence_judged_quotes,
        ),
        leak_rate=_share(sum(bool(score.leaks) for score in scores), len(scores)),
        leaks={kind: sum(kind in score.leaks for score in scores) for kind in LEAK_KINDS},
        gold_cited_rate=_share(sum(bool(score.cites_gold) for score in judged), len(judged)),
        term_judged=len(term_judged),
        expected_term_rate=_share(sum(term_judged), len(term_judged)),
        figures_judged=len(figures_judged),
        expected_figures_rate=_share(sum(figures_judged), len(figures_judged)),
        outcome_judged=len(outcome_judged),
        as_expected_rate=_share(sum(outcome_judged), len(outcome_judged)),
        outcomes=dict(Counter(score.outcome for score in scores)),
        data_questions=len(data_judged),
        wrong_verified=sum(data_judged),
        wrong_verified_rate=_share(sum(data_judged), len(data_judged)),
        first_token_p50=percentile(first_tokens, 50),
        first_token_p95=percentile(first_tokens, 95),
        total_p50=percentile(totals, 50),
        total_p95=percentile(totals, 95),
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _share(count: int, total: int) -> float | None:
    return count / total if total else None
