"""The JSON report of a citation evaluation: settings, overall figures, every question.

One plain dictionary (:func:`build_report`) and its file (:func:`write_report`), so a
deployment can diff two runs or recompute any figure from the per-question entries. It does
not compute figures (that is :mod:`citeline.evaluation.summary`) nor draw them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from citeline.evaluation.runner import EvaluatedAnswer
from citeline.evaluation.summary import CitationSummary

REPORT_KIND: Final = "citeline.eval.citations"
# Bumped when a key changes meaning or goes away, so a reader of old reports can tell.
REPORT_VERSION: Final = 1


def build_report(
    results: Sequence[EvaluatedAnswer],
    summary: CitationSummary,
    settings: Mapping[str, Any],
) -> dict[str, Any]:
    """The report as JSON-ready data; ``settings`` records how the run was made."""
    return {
        "kind": REPORT_KIND,
        "version": REPORT_VERSION,
        "settings": dict(settings),
        "summary": dataclasses.asdict(summary),
        "questions": [_question_entry(result) for result in results],
    }


def write_report(path: Path, report: Mapping[str, Any]) -> None:
    """Write ``report`` to ``path`` as indented UTF-8 JSON, creating its folder.

    Text that UTF-8 cannot hold (a lone surrogate a question or a model wrote) is written as
    JSON's own escape (``\\ud800``), which reads back as the same text: once a run is done,
    its report is never lost to encoding."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    path.write_bytes(text.encode("utf-8", "backslashreplace"))


def _question_entry(result: EvaluatedAnswer) -> dict[str, Any]:
    score = result.score
    return {
        "id": score.question_id,
        "question": result.question.question,
        "state": score.state,
        "error": score.error,
        "provenance": result.record.provenance,
        "gold_ids": list(score.gold_ids),
        "cited_ids": list(score.cited_ids),
        "correct_ids": list(score.correct_ids),
        "precision": score.precision,
        "recall": score.recall,
        "dropped_anchors": score.dropped_anchors,
        "quotes": score.quotes,
        "verified_quotes": score.verified_quotes,
        "quotes_in_evidence": score.quotes_in_evidence,
        "verdicts": [verdict.as_dict() for verdict in result.record.verdicts],
        "leaks": list(score.leaks),
        "cites_gold": score.cites_gold,
        "answer_terms": list(result.question.answer_terms),
        "has_expected_term": score.has_expected_term,
        "figures": list(result.question.figures),
        "missing_figures": list(score.missing_figures),
        "has_expected_figures": score.has_expected_figures,
        "expects": result.question.expects,
        "outcome": score.outcome,
        "as_expected": score.as_expected,
        "wrong_verified": score.wrong_verified,
        "first_token_seconds": score.first_token_seconds,
        "total_seconds": score.total_seconds,
        "conversation": [
            {"role": message.role, "text": message.text} for message in result.conversation
        ],
        "answer": result.record.text,
    }
