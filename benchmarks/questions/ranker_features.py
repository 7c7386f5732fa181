"""Each question's candidates and their features, read once per index and kept.

For every question of a collection (questions, follow-ups, off-topic), this asks the search
the embedded model would ask (``model.search_request``), reads every section the search
returned, page after page as the model would (to ``Tuning.read_chars``), and records what
the embedded model computes from them (``model.read_sections``, ``model.section_runs``):
each section's features and whether it is gold, each run's features and whether its text
holds an expected term. The answerer reads only the best sections; reading them all here
lets any fitted weights be applied to the cached features (``ranker_fit.py``), with the
answerer's own choice function, in seconds.

The sentence model's similarities are kept too (keyed by the question and the text), so a
change to the feature code costs a pass of the Python code, not of the model. The cache is
keyed by the index, the question files and a digest of the embedded model's sources and
its non-fitted settings; ``CITELINE_EMBEDDED_MEANING=0`` (or no dense extra) extracts the
words-only features.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import hashlib
import os
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dev_collections import TEXT_SOURCES, code_digest

from citeline.agent.corpus_tools import corpus_tools
from citeline.agent.meaning import new_similarity
from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import EvalQuestion
from citeline.models.embedded.features import FEATURES
from citeline.models.embedded.model import (
    ToolOutcome,
    read_sections,
    search_request,
    section_runs,
    sources_of,
    unheld_of,
)
from citeline.models.embedded.tuning import Tuning
from citeline.models.turn import Similarity, StoredSimilarity

REPOSITORY = Path(__file__).resolve().parents[2]
MODEL_SOURCES = REPOSITORY / "src" / "citeline" / "models" / "embedded"
# The files whose change can change a feature (the weights file and the choice made from the
# features cannot): the model's and the text package's it compares terms and meaning with.
FEATURE_SOURCES = (
    "ranking.py",
    "passages.py",
    "pairs.py",
    "lexicon.py",
    "columns.py",
    "model.py",
    "meaning_texts.py",
)
# What the records hold of each section and run: every feature, weighted or not, since the
# fit weighs them afresh (an answer computes only those its weights need).
EVERY_FEATURE = frozenset(FEATURES)
# Bump when the records below change shape: a cache of another shape is extracted again.
RECORD_VERSION = "6"


@dataclass(slots=True)
class RunRecord:
    """One run of a section: its features and whether it holds an expected term."""

    features: tuple[float, ...]
    has_term: bool
    text: str


@dataclass(slots=True)
class SectionRecord:
    """One section the search returned: its id, features, whether it is gold, its runs and
    its own features once read."""

    id: str | None
    features: tuple[float, ...]
    gold: bool
    runs: list[RunRecord]
    read: tuple[float, ...]


@dataclass(slots=True)
class QuestionRecord:
    """One question's candidates, as the embedded model describes them."""

    id: str
    kind: str  # "question", "followup" or "off_topic"
    has_terms: bool
    has_gold: bool
    gold_count: int
    found: float
    terms: int
    missing: int
    sections: list[SectionRecord]
    passing: int = 0
    names: int = 0
    unindexed: int = 0
    unfamiliar: int = 0


def feature_version(tuning: Tuning, meaning: bool) -> str:
    """A digest of what the features depend on: the model's sources, the settings."""
    digest = hashlib.sha256(
        code_digest(
            [MODEL_SOURCES / name for name in FEATURE_SOURCES] + sorted(TEXT_SOURCES.rglob("*.py"))
        ).encode()
    )
    # Every setting but those applied to the features afterwards (the fitted models, how
    # many sections are read, what is ablated): the harness reads every section.
    applied = {
        "with_meaning",
        "words_only",
        "ablated",
        "source",
        "documents_to_read",
        "documents_to_judge",
    }
    settings = {
        f.name: getattr(tuning, f.name) for f in dataclasses.fields(tuning) if f.name not in applied
    }
    digest.update(repr(sorted(settings.items())).encode())
    digest.update(b"meaning" if meaning else b"words")
    digest.update(RECORD_VERSION.encode())
    return digest.hexdigest()[:12]


class KeptSimilarity:
    """The agent's similarity (the same model and arithmetic the answerer uses), its answers
    kept by question, text and arithmetic in a file, so a second extraction asks the model
    only about texts it has not seen."""

    def __init__(self, inner: StoredSimilarity, path: Path) -> None:
        self._inner = inner
        self._path = path
        self._kept: dict[bytes, float] = {}
        if path.exists():
            with gzip.open(path, "rb") as handle:
                self._kept = pickle.load(handle)
        self._added = 0

    def __call__(self, question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        keys = [_key(question, text, exact) for text in texts]
        missing = [text for key, text in zip(keys, texts, strict=True) if key not in self._kept]
        if missing:
            fresh = list(self._inner(question, list(dict.fromkeys(missing)), exact=exact))
            for text, value in zip(dict.fromkeys(missing), fresh, strict=True):
                self._kept[_key(question, text, exact)] = float(value)
                self._added += 1
        return [self._kept[key] for key in keys]

    def passages(self, question: str, ids: Sequence[str | None]) -> Sequence[float | None]:
        # Read from the index, never embedded: cheap enough to ask again.
        return self._inner.passages(question, ids)

    def save(self) -> None:
        if self._added:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            partial = self._path.with_suffix(".partial")
            with gzip.open(partial, "wb") as handle:
                pickle.dump(self._kept, handle, protocol=pickle.HIGHEST_PROTOCOL)
            partial.replace(self._path)
            self._added = 0


def _key(question: str, text: str, exact: bool) -> bytes:
    # Every text is embedded alone in the model's one int8 arithmetic, whatever ``exact``
    # says (``citeline.agent.meaning``), so the key leaves it out.
    del exact
    return hashlib.sha1(f"{question}\0{text}".encode()).digest()


async def _question_record(
    question: EvalQuestion,
    kind: str,
    tools: dict[str, Any],
    similarity: Similarity | None,
    tuning: Tuning,
) -> QuestionRecord:
    earlier = tuple(question.history)
    request = search_request(question.question, earlier, tuning)
    found = await tools["search"].run(dict(request.args))
    outcomes = [ToolOutcome("search", found.value)]
    for source in sources_of(outcomes):
        offset = 0
        while source.id is not None:
            page = await tools["read"].run({"id": source.id, "offset": offset})
            outcomes.append(ToolOutcome("read", page.value))
            following = page.value.get("next_offset")
            if not isinstance(following, int) or following >= tuning.read_chars:
                break
            offset = following
    sources = sources_of(outcomes)
    unheld = unheld_of(outcomes)
    reading = read_sections(
        question.question, earlier, sources, similarity, tuning, unheld, wanted=EVERY_FEATURE
    )
    gold = set(question.gold_ids)
    sections: list[SectionRecord] = []
    for source, row in zip(sources, reading.rows, strict=True):
        runs = section_runs(reading, source, similarity, tuning, wanted=EVERY_FEATURE)
        records = []
        for number, features in enumerate(runs.rows):
            text = runs.passage(number).text
            held = contains_expected_term(text, question.answer_terms)
            records.append(RunRecord(features, held, text))
        sections.append(SectionRecord(source.id, row, source.id in gold, records, runs.read))
    return QuestionRecord(
        question.id,
        kind,
        bool(question.answer_terms),
        bool(gold),
        len(gold),
        reading.found,
        reading.terms,
        reading.missing,
        sections,
        reading.passing,
        reading.names,
        reading.unindexed,
        reading.unfamiliar,
    )


def question_records(
    index: Path,
    sets: dict[str, list[EvalQuestion]],
    *,
    cache: Path,
    similarities: Path,
    tuning: Tuning,
    meaning: bool,
) -> list[QuestionRecord]:
    """Every question's record, from ``cache`` when this index, these questions and this
    feature code made it, else extracted now (and kept); the sentence model's answers are
    kept in ``similarities`` (valid across indexes: they depend on the texts alone)."""
    digest = hashlib.sha256(feature_version(tuning, meaning).encode())
    for kind, questions in sets.items():
        for question in questions:
            digest.update(repr((kind, question)).encode())
    path = cache / f"features-{digest.hexdigest()[:16]}.pickle.gz"
    if path.exists():
        with gzip.open(path, "rb") as handle:
            records: list[QuestionRecord] = pickle.load(handle)
        return records
    print(f"extracting features into {path} ...", file=sys.stderr, flush=True)
    with Corpus.open(index) as corpus:
        inner = new_similarity(corpus) if meaning else None
        similarity = KeptSimilarity(inner, similarities) if inner is not None else None
        tools = {tool.name: tool for tool in corpus_tools(corpus, in_thread=False)}

        async def run_all() -> list[QuestionRecord]:
            found: list[QuestionRecord] = []
            for kind, questions in sets.items():
                for question in questions:
                    found.append(await _question_record(question, kind, tools, similarity, tuning))
            return found

        records = asyncio.run(run_all())
        if similarity is not None:
            similarity.save()
    # Two runs side by side (two arms) may both extract one collection's features: each
    # writes its own partial file, and the last to finish replaces the other's equal one.
    partial = path.with_suffix(f".{os.getpid()}.partial")
    with gzip.open(partial, "wb") as handle:
        pickle.dump(records, handle, protocol=pickle.HIGHEST_PROTOCOL)
    partial.replace(path)
    return records
