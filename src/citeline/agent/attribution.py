"""Citations the server finds: each answer sentence attributed to the returned passage that
supports it, when the support is strong enough.

A small local model given the passages answers from them and cites none (recorded: 0 links
in 60 answers of Qwen2.5-Coder-1.5B), and a frontier model nudged by a page does the same.
The server is the authority on citations, so it does not wait for the model to choose to
cite: as the answer's text is released to the reader, every completed prose sentence is
scored against each passage the tools returned in this turn, and the best passage is cited
when its support clears the fitted threshold. It is a stage of the agent, not prompt
wording, and works for any provider.

Support is words and meaning:

- words: the share of the sentence's terms (``corpus.analysis``: folded, stemmed, stop
  words out) that the passage holds, each term weighted by how few of the turn's passages
  hold it (a word every passage has says nothing about which one it came from);
- meaning, with the ``citeline[dense]`` extra: the cosine similarity of the sentence and
  the passage (``agent.meaning``'s model and cache).

The weights and thresholds live in ``ATTRIBUTION``, fitted across the development
collections for precision (``benchmarks/attribution.py --fit``; figures in
``docs/benchmarks.md``). Code blocks, headings and fence lines are never attributed; a
sentence that holds a model's own citation is left to it. Reading is bounded: a
sentence's first ``MAX_SENTENCE_CHARS`` characters, a passage's first
``MAX_PASSAGE_CHARS``, at most ``MAX_SENTENCES`` sentences an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import regex

from citeline.corpus.analysis import terms
from citeline.models import Similarity
from citeline.stream.code_fences import CodeFences
from citeline.stream.quotes import TrustedText


@dataclass(frozen=True, slots=True)
class AttributionSettings:
    """The tunables of attribution, in one place with their measured worth."""

    # A sentence cites its best passage when its support reaches this: with meaning, the
    # support is `words_weight * words + (1 - words_weight) * meaning`.
    threshold: float
    # Without the dense extra, words alone decide, against their own threshold.
    words_threshold: float
    words_weight: float
    # A sentence with fewer terms says too little to attribute ("Here's an example:").
    min_terms: int


# Fitted by `benchmarks/attribution.py --fit` over the development collections' recorded
# and replayed answers: the lowest thresholds whose attribution precision against the
# gold sections stayed at or above 0.85 on every collection (docs/benchmarks.md).
ATTRIBUTION: Final = AttributionSettings(
    threshold=0.55, words_threshold=0.6, words_weight=0.5, min_terms=3
)

MAX_SENTENCE_CHARS: Final = 600
MAX_PASSAGE_CHARS: Final = 2_000
MAX_SENTENCES: Final = 64

# A sentence ends at ".", "!" or "?" (closing quotes or brackets may follow) before a blank,
# or at a line's end.
_SENTENCE_END: Final = regex.compile(r"[.!?][\"')\]*_`]*(?=\s)|\n")
_NOT_PROSE: Final = regex.compile(r"[ \t]{0,3}(?:#|`{3,}|~{3,}|\||<)")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of the reader's text: its span (code points into the concatenated token
    text) and its text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Attribution:
    """A sentence and the returned passage that supports it."""

    sentence: Sentence
    source_id: str
    support: float


class SentenceSplitter:
    """Feed the reader's text in order; get each prose sentence once it is complete."""

    def __init__(self) -> None:
        self._pending = ""
        self._pending_at = 0
        self._fences = CodeFences()
        self._line_is_prose = True
        self._line_start = True

    def feed(self, text: str) -> Iterator[Sentence]:
        self._pending += text
        while True:
            match = _SENTENCE_END.search(self._pending)
            if match is None:
                return
            yield from self._take(match.end())

    def flush(self) -> Iterator[Sentence]:
        if self._pending:
            yield from self._take(len(self._pending))

    def _take(self, end: int) -> Iterator[Sentence]:
        piece = self._pending[:end]
        start = self._pending_at
        self._pending = self._pending[end:]
        self._pending_at += end
        if self._line_start:
            self._line_is_prose = not self._fences.inside and not _NOT_PROSE.match(piece)
        self._fences.feed(piece)
        self._line_start = piece.endswith("\n")
        if not self._line_is_prose:
            return
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            yield Sentence(start + lead, start + lead + len(stripped), stripped)


class Attributor:
    """Attributes one answer's sentences to the passages its tools returned. Never shared.

    ``passages`` is the turn's live record of trusted text (the toolbox's), so a passage a
    tool returns later counts for the sentences after it; ``similarity`` adds meaning.
    """

    def __init__(
        self,
        passages: Callable[[], Sequence[TrustedText]],
        similarity: Similarity | None = None,
        settings: AttributionSettings = ATTRIBUTION,
    ) -> None:
        self._passages = passages
        self._similarity = similarity
        self._settings = settings
        self._splitter = SentenceSplitter()
        self._index: _PassageIndex | None = None
        self._sentences = 0

    def feed(self, text: str) -> Iterator[Sentence]:
        """The sentences ``text`` completes (to be checked by ``attribute``)."""
        return self._splitter.feed(text)

    def flush(self) -> Iterator[Sentence]:
        return self._splitter.flush()

    def attribute(self, sentence: Sentence) -> Attribution | None:
        """The passage that supports ``sentence`` enough, or ``None``."""
        if self._sentences >= MAX_SENTENCES:
            return None
        self._sentences += 1
        scores = self.scores(sentence.text)
        if not scores:
            return None
        best = max(scores, key=lambda score: score[1])
        return Attribution(sentence, best[0], best[1]) if best[1] >= self._threshold else None

    @property
    def _threshold(self) -> float:
        settings = self._settings
        return settings.threshold if self._similarity else settings.words_threshold

    def scores(self, text: str) -> list[tuple[str, float]]:
        """Each passage's support for ``text`` (one per source id, its best passage), in the
        order the passages were returned; empty when the sentence is too short to judge."""
        index = self._current_index()
        if index is None:
            return []
        text = text[:MAX_SENTENCE_CHARS]
        wanted = set(terms(text))
        if len(wanted) < self._settings.min_terms:
            return []
        words = index.word_support(wanted)
        if self._similarity is None:
            support = words
        else:
            weight = self._settings.words_weight
            meaning = self._similarity(text, index.texts)
            support = [
                weight * w + (1 - weight) * max(m, 0.0)
                for w, m in zip(words, meaning, strict=True)
            ]
        best: dict[str, float] = {}
        for source_id, value in zip(index.ids, support, strict=True):
            if value > best.get(source_id, -1.0):
                best[source_id] = value
        return list(best.items())

    def _current_index(self) -> _PassageIndex | None:
        passages = [p for p in self._passages() if p.kind == "document"]
        if not passages:
            return None
        if self._index is None or self._index.size != len(passages):
            self._index = _PassageIndex(passages)
        return self._index


class _PassageIndex:
    """The turn's passages, read once: their terms and the weight of each term."""

    def __init__(self, passages: Sequence[TrustedText]) -> None:
        self.size = len(passages)
        self.ids = [p.id for p in passages]
        self.texts = [p.text[:MAX_PASSAGE_CHARS] for p in passages]
        self._terms = [frozenset(terms(text)) for text in self.texts]
        counts: dict[str, int] = {}
        for held in self._terms:
            for term in held:
                counts[term] = counts.get(term, 0) + 1
        self._counts = counts

    def _weight(self, term: str) -> float:
        # A term no passage holds weighs most: it is the model's own, unsupported word.
        return math.log(1 + self.size / max(self._counts.get(term, 0), 0.5))

    def word_support(self, wanted: set[str]) -> list[float]:
        weights = {term: self._weight(term) for term in wanted}
        total = sum(weights.values())
        return [sum(weights[t] for t in wanted if t in held) / total for held in self._terms]
