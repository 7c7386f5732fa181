"""Citation quality, measured: does an answer cite the right sources, and only real ones?

Questions with gold sources go through any answer engine (:func:`evaluate_answers`), each
answer is scored (:func:`score_answer`) and the scores are summarised
(:func:`summarize`) into ALCE-style citation precision and recall, the dropped-anchor,
no-citation, quote and markup-leak rates, and time percentiles. The definitions are in
``docs/eval.md``. This package measures; it never changes how answers are made.
"""

from __future__ import annotations

from citeline.evaluation.answers import AnswerCollector, ObservedAnswer
from citeline.evaluation.leaks import LEAK_KINDS, find_leaks
from citeline.evaluation.metrics import (
    QuestionScore,
    citation_precision_recall,
    cited_sources,
    score_answer,
)
from citeline.evaluation.percentiles import percentile
from citeline.evaluation.plot import (
    PlotUnavailableError,
    ensure_plot_available,
    write_distribution_plot,
)
from citeline.evaluation.questions import (
    EvalQuestion,
    EvidenceSentence,
    QuestionFileError,
    load_questions,
)
from citeline.evaluation.report import build_report, write_report
from citeline.evaluation.runner import AnswerStream, EvaluatedAnswer, evaluate_answers
from citeline.evaluation.scifact import load_scifact_claims
from citeline.evaluation.summary import CitationSummary, summarize
from citeline.evaluation.terminal import EvaluationProgress, summary_table

__all__ = [
    "LEAK_KINDS",
    "AnswerCollector",
    "AnswerStream",
    "CitationSummary",
    "EvalQuestion",
    "EvaluatedAnswer",
    "EvaluationProgress",
    "EvidenceSentence",
    "ObservedAnswer",
    "PlotUnavailableError",
    "QuestionFileError",
    "QuestionScore",
    "build_report",
    "citation_precision_recall",
    "cited_sources",
    "ensure_plot_available",
    "evaluate_answers",
    "find_leaks",
    "load_questions",
    "load_scifact_claims",
    "percentile",
    "score_answer",
    "summarize",
    "summary_table",
    "write_distribution_plot",
    "write_report",
]
