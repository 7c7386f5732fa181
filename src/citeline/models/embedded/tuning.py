"""Every tunable of the embedded model's document answers, in one object, and the fitted weights.

``Tuning`` holds the bounds and sizes (how many results to ask for, how much of a section to
read, how long a passage may be) and four fitted linear models (``Fitted``): which sections
to read (``section``), which run of a read section is its answer (``passage``), which read
section answers (``read``, weighing its score before reading, its best run and its whole
text), whether that answers at all (``confidence``, against ``threshold``) and whether the
next read section answers beside it (``second``, against ``second_threshold``). The
models are fitted by logistic regression on the development collections
(``benchmarks/questions/crossval.py --write-weights``, the command is in the file) and shipped
as ``weights.json`` beside this module: a model's weights by feature name, applied here in
plain Python (the plain install has no numpy). There are two sets: one with the sentence
model's features, one for words only (no ``dense`` extra, or ``CITELINE_EMBEDDED_MEANING=0``).

``ablated`` names features switched off: their values count as 0 (``citeline eval citations
--ablate FEATURE``), the weights unchanged. ``use_tuning`` sets another tuning for the code
run inside it (an evaluation's folds, an ablation); the model reads ``current_tuning()``.

It computes no feature and decides nothing itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from citeline.errors import CitelineError
from citeline.text.meaning import MEANING_CHARS

WEIGHTS_FILE = "weights.json"


class TuningError(CitelineError, ValueError):
    """A weights file that cannot be used; the message says what is wrong and what to do."""


@dataclass(frozen=True, slots=True)
class LinearModel:
    """``bias + sum(weight * value)`` over named features; a feature it has no weight for
    counts 0."""

    weights: Mapping[str, float] = field(default_factory=dict)
    bias: float = 0.0

    def aligned(
        self, names: Sequence[str], ablated: frozenset[str] = frozenset()
    ) -> tuple[float, ...]:
        """The weights in the order of ``names``, an ablated feature's 0."""
        return tuple(0.0 if n in ablated else float(self.weights.get(n, 0.0)) for n in names)

    def scores(
        self,
        names: Sequence[str],
        rows: Sequence[Sequence[float]],
        ablated: frozenset[str] = frozenset(),
    ) -> list[float]:
        """Each row's score, its values in the order of ``names``, an ablated feature's
        counting 0. The one place a model scores rows, so that the harness can hand the
        answerer's choice scores it computed once (benchmarks/questions/ranker_scores.py)."""
        weights = self.aligned(names, ablated)
        return [self.bias + dot(weights, row) for row in rows]

    def to_json(self) -> dict[str, Any]:
        # Six significant digits: the fit's own precision is far coarser.
        weights = {name: float(f"{w:.6g}") for name, w in sorted(self.weights.items())}
        return {"bias": float(f"{self.bias:.6g}"), "weights": weights}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinearModel:
        weights = data.get("weights", {})
        if not isinstance(weights, Mapping):
            raise TuningError(
                "A weights file's model holds weights that are not an object of feature names; "
                "write it again with benchmarks/questions/crossval.py --write-weights."
            )
        return cls({str(k): float(v) for k, v in weights.items()}, float(data.get("bias", 0.0)))


def dot(weights: Sequence[float], values: Sequence[float]) -> float:
    """The weighted sum of ``values`` (the bias is the caller's)."""
    return sum(w * v for w, v in zip(weights, values, strict=True))


@dataclass(frozen=True, slots=True)
class Fitted:
    """One set of fitted models: which sections to read (``section``), which run of a read
    section answers for it (``passage``), which read section answers (``read``), whether the
    answer answers at all (``confidence``), and the probability below which it does not."""

    section: LinearModel = field(default_factory=LinearModel)
    passage: LinearModel = field(default_factory=LinearModel)
    read: LinearModel = field(default_factory=LinearModel)
    confidence: LinearModel = field(default_factory=LinearModel)
    threshold: float = 0.0
    # Whether the next read section answers beside the best (both quoted and cited): when
    # the models cannot tell which of two answers, or the question has two sides ("A or
    # B"). The probability ``second`` gives it, against ``second_threshold``.
    second: LinearModel = field(default_factory=LinearModel)
    second_threshold: float = 1.0

    def weighted(self, ablated: frozenset[str] = frozenset()) -> frozenset[str]:
        """The features some model of this set weighs: a non-zero weight, not ablated."""
        models = (self.section, self.passage, self.read, self.confidence, self.second)
        return frozenset(
            name
            for model in models
            for name, weight in model.weights.items()
            if weight != 0.0 and name not in ablated
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section.to_json(),
            "passage": self.passage.to_json(),
            "read": self.read.to_json(),
            "confidence": self.confidence.to_json(),
            "threshold": float(f"{self.threshold:.6g}"),
            "second": self.second.to_json(),
            "second_threshold": float(f"{self.second_threshold:.6g}"),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fitted:
        return cls(
            LinearModel.from_json(data.get("section", {})),
            LinearModel.from_json(data.get("passage", {})),
            LinearModel.from_json(data.get("read", {})),
            LinearModel.from_json(data.get("confidence", {})),
            float(data.get("threshold", 0.0)),
            LinearModel.from_json(data.get("second", {})),
            float(data.get("second_threshold", 1.0)),
        )


@dataclass(frozen=True, slots=True)
class TextRules:
    """How a section's text is read into units: what is code, prose, a heading or a label."""

    # Prose paragraphs hold 3 to 8 % of code's symbols ("=(){}[]...") among their non-blank
    # characters, code blocks 15 % and more (measured on the Python sample as its readers
    # store it, and the shape of code in every generator's output since).
    code_symbol_share: float = 0.15
    # A block of at least this many words, this share of them plain words, that opens on a
    # capitalised word and ends on a stop is prose however many symbols its inline code
    # brings: code lines open on keywords, names or prompts and rarely end on a full stop.
    prose_min_words: int = 6
    prose_word_share: float = 0.5
    # Of a bare line's words longer than three letters, this share capitalised makes it a
    # heading the reader kept as text, not a sentence.
    heading_capitals: float = 0.6
    # A "paragraph" of this many words or fewer with no closing stop is a label ("Note",
    # "Example"), not prose.
    label_words: int = 3


@dataclass(frozen=True, slots=True)
class Scales:
    """Where the counting features stop counting, and the lengths they are measured by: each
    feature is 0 to 1 at these, so a weight means the same on any collection."""

    # Passages of one section among the results (``hits``): past three they say little more.
    hits: int = 3
    # Levels of a section's heading path (``depth``): page, section, subsection, deeper.
    depth: int = 4
    # A question's subject terms (``answer_terms``, ``second_terms``): a docs question has 4
    # in the median, a SciFact claim 8, twenty is a paragraph.
    terms: int = 20
    # Subject words no result holds (``answer_missing``): one is the signal, two confirm it.
    missing: int = 2
    # The length in words a read section's BM25 is normalised by: about a docs section's
    # median (``read_body``), and its length measured against ten times it (``read_length``).
    read_words: int = 300


@dataclass(frozen=True, slots=True)
class Tuning:
    """Every tunable of the embedded model's document answers (see each field's comment for
    its measured reason), and the fitted models."""

    # -- the search ------------------------------------------------------------------
    # Results asked for: on a whole site the section that answers a short question is often
    # past the twelfth hit (over the whole Python manual the development questions cited a
    # gold section 61 % of the time at 12 results, 67 % at 20); 20 is the search tool's most.
    search_k: int = 20
    # Fewer where more results only bring more to mistake for the answer: a question of more
    # subject terms than ``few_terms`` (a SciFact claim has 8 in the median, a docs question
    # 4; at 20 results its claims cited a gold abstract 81.8 % of the time against 83.2 %)
    # and a follow-up, whose search carries the earlier question's words too.
    narrow_search_k: int = 12
    few_terms: int = 6
    # A follow-up's own terms weigh 1, its conversation's earlier questions this much, and
    # only the most recent ``history_questions`` of them are carried (a long chat would
    # otherwise search for everything it ever touched).
    history_weight: float = 0.5
    history_questions: int = 2
    # -- reading ---------------------------------------------------------------------
    # Sections read after the search: the best by the section model; the read model then
    # chooses among them by what each holds once read (its best passage anywhere in it, not
    # its opening), and the passage is chosen among their runs. The right section was among
    # the search's results but past the two read for the largest class of misses (126 gold
    # citations of 550 questions, leave one collection out); read five, the read model
    # finds it (docs/benchmarks.md, "Five read, judged among two"). Each more costs a read
    # and its runs' features. weights.json pins three, what its models were fitted for:
    # with ``answer_unindexed`` an extra section no longer lets off-topic questions through,
    # and three read over two raised the leave-one-out term 0.028 and gold 0.027; four and
    # five add a little more but lose the README's own example (docs/benchmarks.md, "Words
    # no document holds").
    documents_to_read: int = 5
    # Whether the answer answers at all is judged by the best answer among this many of
    # the sections read first (0: by the answer chosen among all read; with two read it is
    # the answer chosen). Among five, some section holds more of an
    # off-topic question's words than among the first two: five read, nine collections left
    # out in turn, off-topic "nothing found" fell 0.635 to 0.607 judged on the answer
    # chosen (pytest 4 to 2 of 8) and rose to 0.667 judged among two (docs/benchmarks.md).
    documents_to_judge: int = 2
    # Of one section, read page by page, at most this many characters: choosing among the
    # runs of one costs time linear in its length (splitting HAProxy's 469 KB proxy section
    # into runs took 161 ms of CPU, its first 200 KB 64 ms). Past the bound, the passages the
    # search found in the rest stand in for it (``SourceText.text``): 4 sections of 32
    # collections' are longer (SQLite's 944 KB list of requirements).
    read_chars: int = 200_000
    # What of a section is read for meaning beside its title, and of a paragraph: a point is
    # made early, more dilutes it, and every character costs model time.
    meaning_chars: int = MEANING_CHARS
    meaning_block_chars: int = 200
    # Paragraphs of one section read for meaning at most (those holding the most of the
    # question's words): a hostile page can cut a section into thousands of paragraphs.
    meaning_blocks: int = 32
    # -- term weights ----------------------------------------------------------------
    # Added to each term's idf among the results: the results are a sample that retrieval
    # chose for the question's words, so a term they all share is the question's point.
    idf_floor: float = 3.0
    # BM25's saturation and length normalisation, at their usual values.
    k1: float = 1.2
    b: float = 0.75
    # Two neighbouring subject words of the question are written together in a text when at
    # most this many content terms apart (``pairs``, ``run_pairs``, ``read_pairs``):
    # "connection pool" in "a pool of open connections", not in a page that says "pool" once.
    pair_window: int = 3
    # -- passages --------------------------------------------------------------------
    # A featured answer is a paragraph, not a page: about 120 words of prose and one code
    # block of up to 40 lines; a run spans ``max_paragraphs`` paragraphs and ``max_units``
    # sentences, lists and code blocks at most. A run shorter than ``min_answer_chars`` of
    # prose goes on with what follows it, within those bounds; one shorter than
    # ``min_passage_chars`` in all is a pointer ("See ..."), never an answer.
    max_prose_chars: int = 700
    max_code_chars: int = 1_200
    max_units: int = 8
    max_paragraphs: int = 2
    min_answer_chars: int = 250
    min_passage_chars: int = 40
    # Runs of one section considered at most, in order: the bound on the time a section
    # of any length costs, far above the longest development section's sentences.
    max_runs: int = 4_000
    # How text is read into units, and where the counting features stop counting.
    text: TextRules = field(default_factory=TextRules)
    scales: Scales = field(default_factory=Scales)
    # -- the fitted models -----------------------------------------------------------
    with_meaning: Fitted = field(default_factory=Fitted)
    words_only: Fitted = field(default_factory=Fitted)
    # Features counted as 0 (an ablation); the weights stay as fitted.
    ablated: frozenset[str] = frozenset()
    # Where the fitted models came from: the command that wrote them, for the record.
    source: str = ""

    def fitted(self, meaning: bool) -> Fitted:
        """The models for an answer read with (``meaning``) or without the sentence model."""
        return self.with_meaning if meaning else self.words_only

    def without(self, *features: str) -> Tuning:
        """This tuning with ``features`` switched off."""
        return dataclasses.replace(self, ablated=self.ablated | frozenset(features))


def tuning_from_json(data: Mapping[str, Any]) -> Tuning:
    """A tuning from a weights file's object: the fitted sets, and any tunable it names."""
    names = {f.name for f in dataclasses.fields(Tuning)} - {
        "with_meaning",
        "words_only",
        "ablated",
        "source",
    }
    settings = data.get("settings", {})
    unknown = set(settings) - names
    if unknown:
        raise TuningError(
            f"The weights file names unknown settings ({', '.join(sorted(unknown))}); write it "
            "again with benchmarks/questions/crossval.py --write-weights."
        )
    nested = {"text": TextRules, "scales": Scales}
    settings = {
        key: nested[key](**value) if key in nested else value for key, value in settings.items()
    }
    return Tuning(
        **settings,
        with_meaning=Fitted.from_json(data.get("with_meaning", {})),
        words_only=Fitted.from_json(data.get("words_only", {})),
        source=str(data.get("command", "")),
    )


def tuning_to_json(tuning: Tuning, *, command: str, notes: Mapping[str, Any] | None = None) -> str:
    """The weights file for ``tuning``: its fitted sets, and the command that wrote it."""
    default = Tuning()
    settings = {
        f.name: _plain(getattr(tuning, f.name))
        for f in dataclasses.fields(Tuning)
        if f.name not in {"with_meaning", "words_only", "ablated", "source"}
        and getattr(tuning, f.name) != getattr(default, f.name)
    }
    data = {
        "command": command,
        **({"notes": dict(notes)} if notes else {}),
        "settings": settings,
        "with_meaning": tuning.with_meaning.to_json(),
        "words_only": tuning.words_only.to_json(),
    }
    return json.dumps(data, indent=1) + "\n"


def _plain(value: object) -> object:
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) else value  # type: ignore[arg-type]


@functools.cache
def shipped_tuning() -> Tuning:
    """The tuning this package ships: ``weights.json`` beside this module."""
    text = (files(__package__) / WEIGHTS_FILE).read_text(encoding="utf-8")
    return tuning_from_json(json.loads(text))


_override: ContextVar[Tuning | None] = ContextVar("citeline_embedded_tuning", default=None)


def current_tuning() -> Tuning:
    """The tuning in force: one set by ``use_tuning`` around this code, else the shipped one."""
    return _override.get() or shipped_tuning()


@contextlib.contextmanager
def use_tuning(tuning: Tuning) -> Iterator[Tuning]:
    """Answer with ``tuning`` inside the block (tasks started inside it keep it)."""
    token = _override.set(tuning)
    try:
        yield tuning
    finally:
        _override.reset(token)
