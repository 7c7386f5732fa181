"""The question sets' gold-address script (benchmarks/questions/gold_ids.py), loaded as a module.

The script lives with the question sets it serves, outside the package, so the tests that
check those sets load it from its file; ``unheld_gold`` is the check those tests share.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion

QUESTIONS = Path(__file__).parents[2] / "benchmarks" / "questions"


def gold_ids_module() -> ModuleType:
    """``benchmarks/questions/gold_ids.py``, imported once and shared."""
    name = "question_sets_gold_ids"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, QUESTIONS / "gold_ids.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve the module's string annotations through sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def unheld_gold(index: Path, questions: Iterable[EvalQuestion]) -> list[tuple[str, str]]:
    """(question id, gold address) of every gold address of ``questions`` that no section of
    ``index`` is at, or whose sections there hold none of the question's expected terms.
    Stronger than gold_ids.py's check (some gold section holds a term): each address must,
    so an answer quoting any gold section can pass."""
    gold_ids = gold_ids_module()
    with Corpus.open(index) as corpus:
        by_url = gold_ids.sections_by_url(
            gold_ids.IndexedSection(document.id, document.url, document.text)
            for document in corpus.documents()
        )
    return [
        (question.id, url)
        for question in questions
        for url in question.gold_ids
        if not any(
            contains_expected_term(section.text, question.answer_terms)
            for section in gold_ids.sections_at(by_url, url)
        )
    ]
