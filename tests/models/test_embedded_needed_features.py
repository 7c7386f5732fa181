"""An answer computes only the features its fitted models need (``choice.needed_features``):
those they weigh and those the read and confidence models take from another's rows. Every
other feature counts nothing, so the answer is the one it would be with every feature
computed: the same sections, the same passage, the same confidence. The shipped weights
leave ``run_names`` (most of a long section's run features' CPU) and ``history_coverage``
without weight, so an answer never computes them."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.fitted_models import FITTED

from citeline.models.embedded import model
from citeline.models.embedded.choice import (
    READ_FROM,
    choose,
    needed_features,
)
from citeline.models.embedded.features import (
    FEATURES,
    PASSAGE_FEATURES,
    READ_FEATURES,
    SECTION_FEATURES,
)
from citeline.models.embedded.model import SourceText, answer_choice, read_sections, section_runs
from citeline.models.embedded.tuning import Fitted, LinearModel, shipped_tuning
from citeline.sample import sample_path
from citeline.text.answer_terms import content_terms, title_terms

EVERY = frozenset(FEATURES)
_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)

# Questions a reader of the sample asks (its demo's, and of its tutorial, how-tos and FAQ),
# with the earlier questions of a follow-up.
QUESTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("How do I sort a list of dictionaries by a key?", ()),
    ("Why are default values shared between objects?", ()),
    ("What is a context manager?", ()),
    ("How do I read a file line by line?", ()),
    ("How can I format a float with two decimals?", ()),
    ("What does the __slots__ attribute do?", ()),
    ("How do I create a virtual environment?", ()),
    ("Why is 0.1 + 0.2 not equal to 0.3?", ()),
    ("How do I use a lambda as a key function?", ()),
    ("What is the global interpreter lock?", ()),
    ("And how do I reverse it?", ("How do I sort a list?",)),
    ("Is it faster than a list?", ("What is a tuple?",)),
)


@cache
def _sample() -> tuple[SourceText, ...]:
    """Every section of the bundled sample, read whole, as the tools would give it."""
    found = []
    for path in sorted(sample_path().rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        front = _FRONT.match(text)
        assert front is not None
        fields = dict(line.split(": ", 1) for line in front.group(1).splitlines())
        body = text[front.end() :].strip()
        found.append(
            SourceText(fields["url"], fields["title"], (body[:400],), (body,), fields["id"])
        )
    return tuple(found)


def _searched(question: str, earlier: Sequence[str], k: int = 12) -> list[SourceText]:
    """The sample's sections holding most of the question's words: a stand-in for the
    search, enough to give the ranking sections to choose among."""
    terms = content_terms(" ".join((question, *earlier)))

    def held(source: SourceText) -> int:
        return len(terms & (title_terms(source.title) | content_terms(source.pages[0])))

    return sorted(_sample(), key=lambda s: -held(s))[:k]


def _alike(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
    """A sentence model's stand-in: the share of the question's words a text holds."""
    asked = content_terms(question) or {""}
    return [len(asked & content_terms(text)) / len(asked) for text in texts]


def _every_feature(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "needed_features", lambda fitted, ablated=frozenset(): EVERY)


@pytest.mark.parametrize("meaning", [False, True], ids=["words only", "with meaning"])
def test_the_sample_is_answered_the_same_with_only_the_needed_features_computed(
    meaning: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    similarity = _alike if meaning else None
    tuning = shipped_tuning()
    answered = 0
    for question, earlier in QUESTIONS:
        sources = _searched(question, earlier)
        lean, lean_quoted = answer_choice(
            question, sources, earlier=earlier, similarity=similarity, tuning=tuning
        )
        with monkeypatch.context() as patched:
            _every_feature(patched)
            full, full_quoted = answer_choice(
                question, sources, earlier=earlier, similarity=similarity, tuning=tuning
            )
        assert dataclasses.replace(lean, features=()) == dataclasses.replace(full, features=())
        assert [(q.source, q.passage) for q in lean_quoted] == [
            (q.source, q.passage) for q in full_quoted
        ]
        answered += bool(lean_quoted)
    assert answered >= len(QUESTIONS) // 2  # the comparison is over real choices


def test_the_shipped_weights_leave_run_names_and_history_coverage_uncomputed() -> None:
    tuning = shipped_tuning()
    for meaning in (False, True):
        needed = needed_features(tuning.fitted(meaning), tuning.ablated)
        assert not {"run_names", "history_coverage"} & needed
        assert {"run_coverage", "coverage", "read_coverage"} <= needed
    # Without the sentence model no feature of meaning is weighed; the sections' likeness
    # is taken only to scale ``answer_unindexed`` (0 without the model, as it is weighed).
    words_only = needed_features(tuning.words_only)
    assert not {"meaning_title", "run_meaning", "run_meaning_max", "read_meaning"} & words_only


def test_an_uncomputed_feature_is_zero_and_a_needed_one_is_as_when_all_are_computed() -> None:
    tuning = shipped_tuning()
    question, earlier = QUESTIONS[-1]
    sources = _searched(question, earlier)
    needed = needed_features(tuning.with_meaning)
    lean = read_sections(question, earlier, sources, _alike, tuning, wanted=needed)
    full = read_sections(question, earlier, sources, _alike, tuning)
    at = SECTION_FEATURES.index("history_coverage")
    assert any(row[at] > 0 for row in full.rows)
    assert all(row[at] == 0.0 for row in lean.rows)
    for source in sources[:4]:
        lean_runs = section_runs(lean, source, _alike, tuning, wanted=needed)
        full_runs = section_runs(full, source, _alike, tuning)
        for lean_row, full_row in zip(lean_runs.rows, full_runs.rows, strict=True):
            for name, value, every in zip(PASSAGE_FEATURES, lean_row, full_row, strict=True):
                assert value == (every if name in needed else 0.0)
        assert lean_runs.read == full_runs.read
    names = PASSAGE_FEATURES.index("run_names")
    read = [section_runs(full, s, _alike, tuning) for s in sources]
    assert any(row[names] > 0 for found in read for row in found.rows)


def test_a_feature_taken_from_another_models_rows_is_computed_for_the_feature_taking_it() -> None:
    for taker, source in READ_FROM.items():
        fitted = Fitted(confidence=LinearModel({taker: 1.0}), read=LinearModel({taker: 1.0}))
        assert source in needed_features(fitted)
        assert source not in needed_features(fitted, frozenset({taker}))


_VALUE = st.floats(0, 1, allow_nan=False, allow_infinity=False)


def _rows(width: int, count: int) -> st.SearchStrategy[list[list[float]]]:
    return st.lists(
        st.lists(_VALUE, min_size=width, max_size=width), min_size=count, max_size=count
    )


# A choice's rows: the sections', each read section's runs' and each one's own once read.
Tables = tuple[list[list[float]], dict[int, list[list[float]]], dict[int, list[float]]]


@st.composite
def _tables(draw: st.DrawFn) -> Tables:
    sections = draw(st.integers(1, 5))
    runs = {i: draw(_rows(len(PASSAGE_FEATURES), draw(st.integers(0, 3)))) for i in range(sections)}
    read = {i: draw(_rows(len(READ_FEATURES) - 2, 1))[0] for i in range(sections)}
    return draw(_rows(len(SECTION_FEATURES), sections)), runs, read


def _lean(
    rows: Sequence[Sequence[float]], names: Sequence[str], needed: frozenset[str]
) -> list[list[float]]:
    return [[v if n in needed else 0.0 for n, v in zip(names, row, strict=True)] for row in rows]


@settings(max_examples=200, deadline=None)
@given(FITTED, _tables(), st.sets(st.sampled_from(FEATURES), max_size=4), st.integers(0, 3))
def test_any_fitted_models_choose_the_same_with_their_unneeded_features_zero(
    fitted: Fitted,
    tables: Tables,
    ablated: set[str],
    judge: int,
) -> None:
    sections, runs, read = tables
    off = frozenset(ablated)
    needed = needed_features(fitted, off)
    # The same answer's counts for both: only the feature tables differ.
    counts: dict[str, Any] = dict(
        read=3, judge=judge, found=0.5, terms=4, missing=1, unindexed=1, ablated=off
    )
    full = choose(fitted, sections, runs, read, **counts)
    lean = choose(
        fitted,
        _lean(sections, SECTION_FEATURES, needed),
        {i: _lean(r, PASSAGE_FEATURES, needed) for i, r in runs.items()},
        {i: _lean([r], READ_FEATURES[2:], needed)[0] for i, r in read.items()},
        **counts,
    )
    assert dataclasses.replace(lean, features=()) == dataclasses.replace(full, features=())
