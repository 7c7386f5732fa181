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

- words: the share of the sentence's terms (``citeline.text.index_terms``: folded, stemmed, stop
  words out) that the passage holds, each term weighted by how few of the turn's passages
  hold it (a word every passage has says nothing about which one it came from);
- meaning, with the ``citeline[dense]`` extra: the cosine similarity of the sentence and
  the passage (``agent.meaning``'s model and cache);
- relevance: how well the passage answers the question itself, so of two passages that
  both say "use sorted() with a key" the one the question asked for wins.

The weights and thresholds live in ``ATTRIBUTION`` (``ATTRIBUTION_WORDS`` without the
sentence model), fitted across the development
collections for precision (``benchmarks/attribution.py --fit``; figures in
``docs/benchmarks.md``). Code blocks, headings and fence lines are never attributed; a
sentence that holds a model's own citation is left to it. Reading is bounded: a
sentence's first ``MAX_SENTENCE_CHARS`` characters, a passage's first
``MAX_PASSAGE_CHARS``, at most ``MAX_SENTENCES`` sentences an answer.

Scoring is CPU (the sentence model, tens of milliseconds a sentence), so an answer's
sentences are scored on ``ATTRIBUTION_THREADS`` threads of this module's own, never on
the event loop, where one answer's attribution held every other answer's events, nor on
the loop's shared pool, which searches wait on.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

import regex

from citeline.agent.citations import CitationResolver
from citeline.events import Citation
from citeline.models import Similarity
from citeline.stream.code_fences import CodeFences
from citeline.stream.quotes import TrustedText
from citeline.text.index_terms import INDEX


@dataclass(frozen=True, slots=True)
class AttributionSettings:
    """The tunables of attribution, in one place with their measured worth.

    A source's support for a sentence is ``words_weight * words + (1 - words_weight) *
    meaning + relevance_weight * relevance``: how much of the sentence the passage holds,
    in words and in meaning, and how well the passage answers the question (its meaning
    beside the question's; its words without the sentence model). The best source is cited
    when its support reaches ``threshold`` and leads the next by ``margin``: a sentence two
    passages support alike ("use sorted() with a key") is not the server's to attribute.
    """

    words_weight: float
    relevance_weight: float
    threshold: float
    margin: float
    # A sentence with fewer terms says too little to attribute ("Here's an example:").
    min_terms: int


# Fitted by `benchmarks/attribution.py --fit` over real-model answers on three development
# collections (40 recorded over the Python-docs sample, 6 each over Flask and git): the
# settings with the best precision against the gold sections, pooled, among those citing
# at least 80 % of answers on each. Python docs / Flask / git: precision 0.857 / 0.200 /
# 0.500, answers cited 88 / 83 / 83 % (Flask's and git's answers were often wrong, drawn from
# a passage that is no gold section, and attributed to it). Without relevance, Python docs'
# precision fell to 0.772 with 68 % cited; without the margin, to 0.737 (docs/benchmarks.md).
ATTRIBUTION: Final = AttributionSettings(
    words_weight=0.3, relevance_weight=1.0, threshold=0.5, margin=0.05, min_terms=3
)
# Without the `dense` extra: words alone, fitted the same way but for precision first, since
# words tell passages on one subject apart poorly: 0.692 / 0.200 / 0.444, answers cited
# 50 / 83 / 50 %; at 80 % cited, precision fell to about 0.42.
ATTRIBUTION_WORDS: Final = AttributionSettings(
    words_weight=1.0, relevance_weight=0.0, threshold=0.5, margin=0.15, min_terms=3
)

MAX_SENTENCE_CHARS: Final = 600
MAX_PASSAGE_CHARS: Final = 2_000
MAX_SENTENCES: Final = 64

# The threads sentences are scored on. Scoring is CPU in onnxruntime and numpy, which both
# let go of the GIL, so more threads than the cores the sentence model gets would only
# queue inside the CPU; two keep one answer's long sentence from holding the next answer's
# scoring. Each answer waits for its sentences before it reads on, so at most one job an
# answer is ever queued, and the server admits a bounded number of answers.
ATTRIBUTION_THREADS: Final = 2
_SCORING: Final = ThreadPoolExecutor(ATTRIBUTION_THREADS, thread_name_prefix="citeline-attribution")

# A sentence ends at ".", "!" or "?" (closing quotes or brackets may follow) before a blank,
# or at a line's end (LF, CR or CR LF, as the stream reads lines).
_SENTENCE_END: Final = regex.compile(r"[.!?][\"')\]*_`]*(?=\s)|\r\n?|\n")
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
        self._line_start = piece.endswith(("\n", "\r"))
        if not self._line_is_prose:
            return
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            yield Sentence(start + lead, start + lead + len(stripped), stripped)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One returned source's support for one sentence, before the settings weigh it."""

    source_id: str
    words: float
    meaning: float
    relevance: float


def decide(candidates: Sequence[Candidate], settings: AttributionSettings) -> Candidate | None:
    """The candidate ``settings`` attribute the sentence to, or ``None``."""
    if not candidates:
        return None
    ranked = sorted(candidates, key=lambda c: support(c, settings), reverse=True)
    best = support(ranked[0], settings)
    if best < settings.threshold:
        return None
    if len(ranked) > 1 and best - support(ranked[1], settings) < settings.margin:
        return None
    return ranked[0]


def support(candidate: Candidate, settings: AttributionSettings) -> float:
    weight = settings.words_weight
    return (
        weight * candidate.words
        + (1 - weight) * max(candidate.meaning, 0.0)
        + settings.relevance_weight * candidate.relevance
    )


class Attributor:
    """Attributes one answer's sentences to the passages its tools returned. Never shared.

    ``passages`` is the turn's live record of trusted text (the toolbox's), so a passage a
    tool returns later counts for the sentences after it; ``similarity`` adds meaning
    (and ``ATTRIBUTION`` then applies, else ``ATTRIBUTION_WORDS``).
    """

    def __init__(
        self,
        question: str,
        passages: Callable[[], Sequence[TrustedText]],
        similarity: Similarity | None = None,
        settings: AttributionSettings | None = None,
    ) -> None:
        self._question = question[:MAX_SENTENCE_CHARS]
        self._passages = passages
        self._similarity = similarity
        if settings is None:
            settings = ATTRIBUTION if similarity is not None else ATTRIBUTION_WORDS
        self._settings = settings
        self._splitter = SentenceSplitter()
        self._index: _PassageIndex | None = None
        self._relevance: dict[str, float] = {}
        self._sentences = 0

    def feed(self, text: str) -> Iterator[Sentence]:
        """The sentences ``text`` completes (to be checked by ``attribute``)."""
        return self._splitter.feed(text)

    def flush(self) -> Iterator[Sentence]:
        return self._splitter.flush()

    def attribute(
        self, sentence: Sentence, passages: Sequence[TrustedText] | None = None
    ) -> Attribution | None:
        """The passage that supports ``sentence`` enough, or ``None``. ``passages``: the
        turn's passages as read on the caller's thread (else read here)."""
        if self._sentences >= MAX_SENTENCES:
            return None
        self._sentences += 1
        chosen = decide(self.candidates(sentence.text, passages), self._settings)
        if chosen is None:
            return None
        return Attribution(sentence, chosen.source_id, support(chosen, self._settings))

    def attribute_all(
        self, sentences: Sequence[Sentence], passages: Sequence[TrustedText]
    ) -> list[Attribution]:
        """``attribute`` for each of ``sentences`` in order: the ones some passage supports."""
        found = (self.attribute(sentence, passages) for sentence in sentences)
        return [attribution for attribution in found if attribution is not None]

    def passages(self) -> tuple[TrustedText, ...]:
        """The turn's passages now: read where the tools write them, then scored elsewhere."""
        return tuple(self._passages())

    def candidates(
        self, text: str, passages: Sequence[TrustedText] | None = None
    ) -> list[Candidate]:
        """Each returned source's support for ``text`` (its best passage), in the order the
        sources were returned; empty when the sentence is too short to judge."""
        index = self._current_index(self._passages() if passages is None else passages)
        if index is None:
            return []
        text = text[:MAX_SENTENCE_CHARS]
        wanted = set(INDEX.terms(text))
        if len(wanted) < self._settings.min_terms:
            return []
        words = _best_per_source(index.ids, index.word_support(wanted))
        meaning = (
            dict(_best_per_source(index.ids, self._similarity(text, index.texts)))
            if self._similarity is not None
            else {}
        )
        relevance = self._relevance_of(index)
        return [
            Candidate(source, value, meaning.get(source, 0.0), relevance.get(source, 0.0))
            for source, value in words
        ]

    def _relevance_of(self, index: _PassageIndex) -> dict[str, float]:
        """How well each source answers the question: computed once per set of passages."""
        if len(self._relevance) != len(set(index.ids)):
            if self._similarity is not None:
                values = [max(v, 0.0) for v in self._similarity(self._question, index.texts)]
            else:
                asked = set(INDEX.terms(self._question))
                values = index.word_support(asked) if asked else [0.0] * index.size
            self._relevance = dict(_best_per_source(index.ids, values))
        return self._relevance

    def _current_index(self, returned: Sequence[TrustedText]) -> _PassageIndex | None:
        passages = [p for p in returned if p.kind == "document"]
        if not passages:
            return None
        if self._index is None or self._index.size != len(passages):
            self._index = _PassageIndex(passages)
            self._relevance = {}
        return self._index


def _best_per_source(ids: Sequence[str], values: Sequence[float]) -> list[tuple[str, float]]:
    best: dict[str, float] = {}
    for source_id, value in zip(ids, values, strict=True):
        if value > best.get(source_id, -2.0):
            best[source_id] = value
    return list(best.items())


class _PassageIndex:
    """The turn's passages, read once: their terms and the weight of each term."""

    def __init__(self, passages: Sequence[TrustedText]) -> None:
        self.size = len(passages)
        self.ids = [p.id for p in passages]
        self.texts = [p.text[:MAX_PASSAGE_CHARS] for p in passages]
        self._terms = [frozenset(INDEX.terms(text)) for text in self.texts]
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


class ServerCitations:
    """The attribution stage of one answer: the spans the model's own citations cover (a
    sentence holding one is left to it), and the citations the server finds for the
    sentences the rest of the text completes. Never shared."""

    def __init__(self, resolver: CitationResolver, attributor: Attributor | None) -> None:
        self.resolver = resolver
        self.attributor = attributor
        self.cited_spans: list[tuple[int, int]] = []

    async def found(self, text: str, *, final: bool) -> list[Citation]:
        """Citations the server finds for the sentences ``text`` completes, scored on the
        attribution threads while the event loop serves other answers."""
        attributor = self.attributor
        if attributor is None:
            return []
        sentences = list(attributor.feed(text))
        if final:
            sentences.extend(attributor.flush())
        sentences = [
            sentence
            for sentence in sentences
            if not any(s < sentence.end and sentence.start < e for s, e in self.cited_spans)
        ]
        if not sentences:
            return []
        # Read here, on the loop, where the tools add to them; the thread reads this copy.
        passages = attributor.passages()
        loop = asyncio.get_running_loop()
        attributions = await loop.run_in_executor(
            _SCORING, attributor.attribute_all, sentences, passages
        )
        citations = []
        for attribution in attributions:
            sentence = attribution.sentence
            citation = self.resolver.resolve_found(
                attribution.source_id, sentence.start, sentence.end
            )
            if citation is not None:
                citations.append(citation)
        return citations
