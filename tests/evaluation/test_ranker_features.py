"""The feature extraction the weights are fitted on (``benchmarks/questions/ranker_features.py``)
records every feature of every section and run, weighted as shipped or not: an answer
computes only those its models need, and the fit must see the others to weigh them."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "questions"))

import ranker_features

from citeline.evaluation.questions import EvalQuestion
from citeline.models.embedded.choice import needed_features
from citeline.models.embedded.features import FEATURES, PASSAGE_FEATURES, SECTION_FEATURES
from citeline.models.embedded.passages import READ_FEATURES
from citeline.models.embedded.tuning import shipped_tuning

# Two sections of a docs site: the one a follow-up's earlier question was about, and one
# that answers it with names of code the question does not write.
SECTIONS = {
    "tuples": (
        "Data structures: Tuples",
        "A tuple is an immutable sequence. Tuples are faster to create than lists, and "
        "a tuple can be a dictionary key where a list cannot.",
    ),
    "sorting": (
        "Sorting HOW TO: Reversing",
        "To sort a list in reverse order, pass reverse=True to sorted() or call "
        "list.sort(reverse=True). Both keep the order of equal items, so sorting stays "
        "stable when you reverse it.\n\n```\nsorted(data, reverse=True)\n```",
    ),
}


@dataclass(frozen=True)
class _Result:
    value: Mapping[str, Any]


class _Search:
    async def run(self, args: Mapping[str, Any]) -> _Result:
        results = [
            {"href": f"https://docs.example/{key}", "id": key, "title": title, "passage": text}
            for key, (title, text) in SECTIONS.items()
        ]
        return _Result({"results": results})


class _Read:
    async def run(self, args: Mapping[str, Any]) -> _Result:
        title, text = SECTIONS[args["id"]]
        href = f"https://docs.example/{args['id']}"
        return _Result({"href": href, "id": args["id"], "title": title, "text": text})


def _record() -> ranker_features.QuestionRecord:
    question = EvalQuestion(
        "q1", "And how do I reverse the order?", history=("How do I sort a tuple?",)
    )
    tools = {"search": _Search(), "read": _Read()}
    return asyncio.run(
        ranker_features._question_record(question, "followup", tools, None, shipped_tuning())
    )


def test_the_extraction_asks_for_every_feature() -> None:
    assert frozenset(FEATURES) == ranker_features.EVERY_FEATURE


def test_the_extraction_records_the_features_no_shipped_weight_needs() -> None:
    record = _record()
    unneeded = frozenset(FEATURES) - needed_features(shipped_tuning().words_only)
    assert {"history_coverage", "run_names"} <= unneeded
    history = SECTION_FEATURES.index("history_coverage")
    names = PASSAGE_FEATURES.index("run_names")
    assert all(len(s.features) == len(SECTION_FEATURES) for s in record.sections)
    assert all(len(s.read) == len(READ_FEATURES) - 2 for s in record.sections)
    runs = [run for section in record.sections for run in section.runs]
    assert runs and all(len(run.features) == len(PASSAGE_FEATURES) for run in runs)
    assert any(s.features[history] > 0 for s in record.sections)
    assert any(run.features[names] > 0 for run in runs)
