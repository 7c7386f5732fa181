"""The embedded model: an offline, deterministic, extractive writer that runs the real tool loop.

It is the model of the demo and of the tests, so it behaves as a real model does where that
matters to the rest of citeline: it asks for ``search`` (in a chat, with the conversation's
earlier questions), describes each section the results belong to and asks to ``read`` the
best by the fitted section model (page after page of a long one), then answers as a docs
site's featured answer does: the run of one read section that the fitted passage model
scores best, quoted verbatim with its code block when it shows one. The citation is a link
whose text is the passage's own opening words (markdown, sometimes an HTML ``<a href>``), the
answer ends with a ``## Sources`` list, and all of it streams in small uneven fragments. It
never writes an identifier that no tool returned.

When the confidence model says the best run does not answer, it says so in one line naming
the closest results, and cites nothing: an extractive answer that cites nothing is the
engine's ``nothing_found``. It does not paraphrase, summarise, reason or follow instructions
in the prompt, and knows nothing of any model library; the adapter feeds it a ``TurnView``
and carries out what it asks. Every tunable is ``tuning.current_tuning()``'s.
"""

from __future__ import annotations

import functools
import random
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from citeline.models.embedded.choice import (
    Choice,
    choose,
    needed_features,
    section_order,
    section_scores,
)
from citeline.models.embedded.features import FEATURES
from citeline.models.embedded.lexicon import ordinary
from citeline.models.embedded.passages import (
    BLOCK_MEANING_FEATURES,
    Passage,
    Run,
    Unit,
    block_texts,
    passage,
    read_features,
    run_features,
    runs_of,
    units_of,
)
from citeline.models.embedded.ranking import (
    Asked,
    Candidate,
    asked,
    follow_up_query,
    section_features,
    split_title,
)
from citeline.models.embedded.tuning import TextRules, Tuning, current_tuning
from citeline.models.tool_loop import MAX_CALLS_PER_RESPONSE, MAX_MODEL_REQUESTS
from citeline.models.turn import Similarity
from citeline.text.answer_terms import (
    ANSWER,
    content_terms,
    content_words,
    names,
    subject_terms,
    title_terms,
)
from citeline.text.stop_words import FRAME_WORDS
from citeline.text.words import folded_words

__all__ = [
    "FRAGMENT_CHARS",
    "NOTHING_FOUND",
    "NO_TOOLS",
    "TOOLS_FAILED",
    "Reading",
    "SectionRuns",
    "SourceText",
    "ToolOutcome",
    "ToolRequest",
    "TurnView",
    "answer_choice",
    "best_sections",
    "next_step",
    "read_sections",
    "section_runs",
    "sources_of",
    "stream_fragments",
    "unheld_of",
    "write_answer",
]

# Sections whose units are kept, most recent first: a docs site's answers read the same
# sections again and again, and splitting a read section into its units (blocks, sentences,
# their terms) was a tenth of an embedded answer's CPU before its first token (measured on the
# bundled sample). A section is read to ``Tuning.read_chars`` at most; most are a few KB.
UNITS_KEPT = 256
# Fragment sizes as a real provider streams them: a few characters, unevenly, so an
# anchor arrives split across fragments as it does from real models.
FRAGMENT_CHARS = (1, 8)
# Link text is the passage's opening sentence when it is at most this long, so the page's
# citation mark lands at its end; a longer one is linked on its opening words up to a
# comma, else up to the bound.
SHORT_SPAN_CHARS = 160

NOTHING_FOUND = "I found nothing in this collection that answers that question."
TOOLS_FAILED = "I could not search the collection just now, so I cannot answer from it."
NO_TOOLS = "I have no search tool in this conversation, so I cannot answer from the collection."

_ANCHOR_FORBIDDEN = frozenset("[]\n")
_HTML_FORBIDDEN = frozenset('<>&"')


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """One tool result of this turn as the model was sent it."""

    tool: str
    content: object
    failed: bool = False


@dataclass(frozen=True, slots=True)
class TurnView:
    """What the embedded model sees: the question, earlier user messages, this turn's results."""

    question: str
    earlier_questions: tuple[str, ...] = ()
    outcomes: tuple[ToolOutcome, ...] = ()
    tools: frozenset[str] = frozenset({"search", "read"})
    # What an offered tool's description says, as data, by tool (the data tools' facts, from
    # which the data path picks a measure or writes a query).
    facts: Mapping[str, object] = field(default_factory=dict)
    # How alike in meaning the question is to a text, when the agent gives a way to tell.
    similarity: Similarity | None = None
    # The model requests of this turn before this one: the tool loop allows
    # ``MAX_MODEL_REQUESTS``, the answer's among them.
    requests: int = 0


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """A tool call the embedded model asks for."""

    tool: str
    args: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source as the tools gave it: the href to cite, its title, the passages the search
    returned of it, the pages of it read (contiguous from its start), its id when it has one,
    and where its next page starts when the last one read was not its end."""

    href: str
    title: str
    passages: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    id: str | None = None
    next_offset: int | None = None

    @property
    def read(self) -> bool:
        return bool(self.pages)

    @property
    def text(self) -> str:
        """What the model knows of the source: the text read, then the passages the search
        returned from past where reading stopped (a section longer than ``read_chars``: the
        search found the question's words there), else its passages."""
        if not self.pages:
            return "\n\n".join(self.passages)
        read = "".join(self.pages)
        if self.next_offset is None:
            return read
        unread = [p for p in self.passages if p not in read]
        return "\n\n".join([read, *unread]) if unread else read

    @property
    def passage(self) -> str:
        """The passages the search returned of it, as one text."""
        return "\n\n".join(self.passages)


def next_step(view: TurnView) -> tuple[ToolRequest, ...] | Iterator[str]:
    """Either the tool calls to make next, or the answer's text fragments."""
    tuning = current_tuning()
    if "search" not in view.tools:
        return stream_fragments(NO_TOOLS, view.question)
    searches = [o for o in view.outcomes if o.tool == "search"]
    if not searches:
        return (search_request(view.question, view.earlier_questions, tuning),)
    sources = sources_of([o for o in view.outcomes if not o.failed])
    if not sources:
        if all(o.failed for o in searches):
            return stream_fragments(TOOLS_FAILED, view.question)
        return stream_fragments(NOTHING_FOUND, view.question)
    if "read" in view.tools:
        requests = _reads(view, sources, tuning)
        if requests:
            return requests
    answer = write_answer(
        view.question,
        sources,
        earlier=view.earlier_questions,
        similarity=view.similarity,
        tuning=tuning,
        unheld=unheld_of(searches),
    )
    return stream_fragments(answer, view.question)


def search_request(question: str, earlier: Sequence[str], tuning: Tuning) -> ToolRequest:
    """The search the model asks for first: the question in its conversation, with fewer
    results for a long question or a follow-up."""
    query = follow_up_query(question, earlier, tuning)
    narrow = bool(earlier) or len(content_terms(question)) > tuning.few_terms
    k = tuning.narrow_search_k if narrow else tuning.search_k
    return ToolRequest("search", {"query": query, "k": k})


def _reads(
    view: TurnView, sources: Sequence[SourceText], tuning: Tuning
) -> tuple[ToolRequest, ...]:
    """The reads to ask for next: the best sections' first pages, then the further pages of
    each of them that has more, up to ``read_chars`` of one section."""
    if not any(o.tool == "read" for o in view.outcomes):
        meaning = view.similarity is not None
        needed = needed_features(tuning.fitted(meaning), tuning.ablated)
        reading = read_sections(
            view.question, view.earlier_questions, sources, view.similarity, tuning, wanted=needed
        )
        best = best_sections(reading, meaning=meaning, tuning=tuning)
        return tuple(ToolRequest("read", {"id": sources[i].id}) for i in best if sources[i].id)
    # Past the first pages, the rest of each section is asked for in as few requests as the
    # tool loop runs (``MAX_CALLS_PER_RESPONSE`` calls each), a page at each offset the first
    # page's length gives (the read tool's pages are of one length). Page by page, the loop's
    # bound on requests (``MAX_MODEL_REQUESTS``) ended reading at about ten pages (108 KB),
    # short of the ``read_chars`` the models were fitted and measured reading to.
    if view.requests + 2 > MAX_MODEL_REQUESTS:
        return ()
    asked = _pages_asked(view.outcomes)
    wanted = [
        ToolRequest("read", {"id": source.id, "offset": offset})
        for source in sources
        if source.id
        for offset in _unasked_pages(source, asked.get(source.href, set()), tuning.read_chars)
    ]
    return tuple(wanted[:MAX_CALLS_PER_RESPONSE])


def _pages_asked(outcomes: Sequence[ToolOutcome]) -> dict[str, set[int]]:
    """The offsets read of each source this turn, by href."""
    asked: dict[str, set[int]] = {}
    for outcome in outcomes:
        if outcome.tool == "read" and not outcome.failed:
            for record in _records(outcome.content):
                offset = record.get("offset", 0)
                if isinstance(offset, int):
                    asked.setdefault(str(record["href"]), set()).add(offset)
    return asked


def _unasked_pages(source: SourceText, asked: set[int], read_chars: int) -> list[int]:
    """The offsets of ``source``'s pages from where its reading stopped up to
    ``read_chars``, a first page's length apart, that were not read yet. A page that came
    back shorter (a context budget's cut) leaves the chain there, and the pages from its end
    are asked for next."""
    step = len(source.pages[0]) if source.pages else 0
    if step <= 0 or source.next_offset is None:
        return []
    return [o for o in range(source.next_offset, read_chars, step) if o not in asked]


def _mappings(content: object) -> Iterator[Mapping[str, Any]]:
    """Every mapping in a tool value, whatever wraps it (a reminder, a list)."""
    if isinstance(content, Mapping):
        yield content
        for value in content.values():
            if isinstance(value, list | tuple | Mapping):
                yield from _mappings(value)
    elif isinstance(content, list | tuple):
        for item in content:
            yield from _mappings(item)


def _records(content: object) -> Iterator[Mapping[str, Any]]:
    """Every mapping with an ``href`` in a tool value."""
    for mapping in _mappings(content):
        if isinstance(mapping.get("href"), str) and mapping["href"]:
            yield mapping


def unheld_of(outcomes: Sequence[ToolOutcome]) -> frozenset[str]:
    """The words the searches said no document of the collection holds (their
    ``not_in_collection``, wherever the tool loop wrapped the value), folded as the search
    folds them."""
    found: set[str] = set()
    for outcome in outcomes:
        if outcome.tool != "search" or outcome.failed:
            continue
        for mapping in _mappings(outcome.content):
            words = mapping.get("not_in_collection")
            if isinstance(words, list):
                found.update(word for word in words if isinstance(word, str))
    return frozenset(found)


def sources_of(outcomes: Sequence[ToolOutcome]) -> list[SourceText]:
    """Sources in the order the search ranked them, each with the passages the search gave
    and the pages read of it (a page counts only when every page before it was read)."""
    order: list[str] = []
    titles: dict[str, str] = {}
    ids: dict[str, str | None] = {}
    passages: dict[str, list[str]] = {}
    pages: dict[str, dict[int, tuple[str, int | None]]] = {}
    rank_of: dict[str, int] = {}
    for outcome in outcomes:
        for record in _records(outcome.content):
            href = str(record["href"])
            if href not in titles:
                order.append(href)
                titles[href] = str(record.get("title") or record.get("id") or href)
                doc_id = record.get("id")
                ids[href] = doc_id if isinstance(doc_id, str) and doc_id else None
                passages[href] = []
                pages[href] = {}
            if outcome.tool == "read":
                text = record.get("text")
                offset = record.get("offset", 0)
                following = record.get("next_offset")
                if isinstance(text, str) and isinstance(offset, int):
                    nxt = following if isinstance(following, int) and following > offset else None
                    pages[href].setdefault(offset, (text, nxt))
            else:
                rank_of.setdefault(href, len(rank_of))
                text = record.get("passage") or record.get("text") or ""
                if isinstance(text, str) and text and text not in passages[href]:
                    passages[href].append(text)
    order.sort(key=lambda href: rank_of.get(href, len(rank_of)))
    found: list[SourceText] = []
    for href in order:
        read: list[str] = []
        at: int | None = 0
        while at is not None and at in pages[href]:
            text, at = pages[href][at]
            read.append(text)
        following = at if read else None
        found.append(
            SourceText(href, titles[href], tuple(passages[href]), tuple(read), ids[href], following)
        )
    return found


@dataclass(frozen=True, slots=True)
class Reading:
    """The sections the search returned, read for the question: its analysis, each
    section's features (``ranking.SECTION_FEATURES``), the share of the question's own weight
    some result holds, how many subject terms it has, how many of them no result holds, how
    many one result holds in no title (in passing), how many of the names it writes no
    result holds but in passing, how many no document of the collection holds, and how many
    of those are no ordinary word (``lexicon.ordinary``)."""

    asked: Asked
    rows: tuple[tuple[float, ...], ...]
    found: float
    terms: int
    missing: int
    passing: int = 0
    names: int = 0
    unindexed: int = 0
    unfamiliar: int = 0


def read_sections(
    question: str,
    earlier: Sequence[str],
    sources: Sequence[SourceText],
    similarity: Similarity | None,
    tuning: Tuning,
    unheld: frozenset[str] = frozenset(),
    *,
    wanted: Set[str] = frozenset(FEATURES),
) -> Reading:
    """The search's sections described for ``question``: what only the search gave is read,
    so the description is the same before and after any section is read. ``unheld`` are the
    words the search said no document holds (``unheld_of``); of the section features, those
    not ``wanted`` are 0.0 (an answer wants those its models need: ``needed_features``)."""
    candidates = [Candidate(s.title, s.passage, max(len(s.passages), 1), s.id) for s in sources]
    question_read = asked(question, earlier, candidates, tuning)
    rows = section_features(question_read, candidates, similarity, tuning, wanted)
    own = question_read.question.own
    weights = question_read.weights
    each = [title_terms(c.title) | content_terms(c.passage) for c in candidates]
    held = set().union(*each)
    titled = set().union(*(title_terms(c.title) for c in candidates))
    own_total = sum(w for t, w in weights.items() if t in own) or 1.0
    found = sum(w for t, w in weights.items() if t in own and t in held) / own_total
    subjects = subject_terms(question)
    # A subject word no result holds: the search would have found a text holding it, so the
    # collection seldom does (another product's or language's name, for one).
    missing = len(subjects - held)
    # One that a single result holds, in no title: the collection mentions it in passing
    # (a comparison with another tool, a word of another sense).
    once = {t for t in subjects - titled if sum(1 for terms in each if t in terms) == 1}
    # A name the question writes (its product, language, tool) held nowhere or in passing.
    unheld_names = {
        t for t in names(question) & subjects if t not in titled and (t not in held or t in once)
    }
    unindexed = _unindexed(question, unheld)
    return Reading(
        question_read,
        tuple(tuple(row) for row in rows),
        found,
        len(subjects),
        missing,
        len(once),
        len(unheld_names),
        len({ANSWER.term(word) for word in unindexed}),
        # The dictionary is read only where the weights weigh its feature: as shipped it is
        # measured, not weighted (``lexicon``), and an answer need not load 21,700 words.
        len({ANSWER.term(word) for word in unindexed if not ordinary(word)})
        if "answer_unfamiliar" in wanted
        else 0,
    )


def _unindexed(question: str, unheld: frozenset[str]) -> list[str]:
    """The question's subject words whose every part no document of the collection holds:
    unlike a term no result holds (``missing``), which a paraphrase of the collection's
    wording is too, the whole collection never writes it."""
    if not unheld:
        return []
    return [
        word
        for word in content_words(question)
        if word not in FRAME_WORDS
        and (parts := folded_words(word))
        and all(part in unheld for part in parts)
    ]


def best_sections(reading: Reading, *, meaning: bool, tuning: Tuning) -> tuple[int, ...]:
    """The sections to read: the best ``documents_to_read`` by the section model."""
    fitted = tuning.fitted(meaning)
    scores = section_scores(fitted, reading.rows, tuning.ablated)
    return section_order(scores)[: tuning.documents_to_read]


@dataclass(frozen=True, slots=True)
class SectionRuns:
    """A read section's units, the runs of them that may answer, each run's features
    (``passages.PASSAGE_FEATURES``) and the section's own once read (``read_features``)."""

    units: tuple[Unit, ...]
    runs: tuple[Run, ...]
    rows: tuple[tuple[float, ...], ...]
    read: tuple[float, ...]

    def passage(self, number: int) -> Passage:
        return passage(self.units, self.runs[number])


def section_runs(
    reading: Reading,
    source: SourceText,
    similarity: Similarity | None,
    tuning: Tuning,
    *,
    wanted: Set[str] = frozenset(FEATURES),
) -> SectionRuns:
    """The runs of ``source`` (its text read, else its passages) that may answer, each with
    its features (those not ``wanted`` 0.0, as in ``read_sections``). A run the answer could
    not cite (shorter than ``min_passage_chars``, or whose opening cannot carry a link) is
    left out."""
    units = _units(source.text, split_title(source.title)[1], tuning.text)
    runs = [
        run
        for run in runs_of(units, tuning)
        if len(passage(units, run).text) >= tuning.min_passage_chars
        and _anchor_span(passage(units, run), html=False) is not None
    ]
    question = reading.asked.question
    meaning = (
        _block_meaning(units, reading.asked.meaning_query, similarity, question.weights, tuning)
        if wanted & BLOCK_MEANING_FEATURES
        else {}
    )
    terms = frozenset(title_terms(source.title))
    rows = run_features(question, units, runs, terms, meaning, tuning, wanted, source.passages)
    read = read_features(question, units, terms, meaning, tuning, wanted)
    return SectionRuns(units, tuple(runs), tuple(tuple(row) for row in rows), tuple(read))


@functools.lru_cache(maxsize=UNITS_KEPT)
def _units(text: str, heading: str, rules: TextRules) -> tuple[Unit, ...]:
    """``units_of(text, heading, rules)``, kept while recent (units are frozen, so one may
    serve many)."""
    return tuple(units_of(text, heading, rules))


def _block_meaning(
    units: Sequence[Unit],
    query: str,
    similarity: Similarity | None,
    weights: Mapping[str, float],
    tuning: Tuning,
) -> dict[int, float]:
    """How alike in meaning each prose block of a section is to ``query`` (none when there
    is no way to tell). Of a section with more than ``meaning_blocks`` blocks, those holding
    the most of the question's words are read."""
    if similarity is None:
        return {}
    texts = block_texts(units, tuning.meaning_block_chars)
    if not texts:
        return {}
    if len(texts) > tuning.meaning_blocks:
        held: dict[int, set[str]] = {}
        for unit in units:
            held.setdefault(unit.block, set()).update(unit.terms)
        worth = {b: sum(weights.get(t, 0.0) for t in held.get(b, ())) for b in texts}
        kept = sorted(sorted(texts, key=lambda b: -worth[b])[: tuning.meaning_blocks])
        texts = {b: texts[b] for b in kept}
    # The quicker arithmetic: paragraphs are read only to choose among them.
    scores = list(similarity(query, list(texts.values()), exact=False))
    if len(scores) != len(texts):
        return {}
    return dict(zip(texts, (float(s) for s in scores), strict=True))


@dataclass(frozen=True, slots=True)
class Quoted:
    """A passage chosen for the answer and the source it is cited to."""

    source: SourceText
    passage: Passage


def answer_choice(
    question: str,
    sources: Sequence[SourceText],
    *,
    earlier: Sequence[str] = (),
    similarity: Similarity | None = None,
    tuning: Tuning | None = None,
    unheld: frozenset[str] = frozenset(),
) -> tuple[Choice, list[Quoted]]:
    """The models' choice over ``sources`` and the passages it quotes, best first (none when
    nothing answers): callable on its own, for anyone who wants the embedded model's pick.
    ``unheld``: the words the search said no document holds (``unheld_of``)."""
    tuning = tuning or current_tuning()
    fitted = tuning.fitted(similarity is not None)
    # Only the features the models need: the answer is the same, and without the names of
    # code no shipped model weighs, a 200 KB section's run features cost 14 ms of CPU, not
    # 61 (docs/models.md).
    wanted = needed_features(fitted, tuning.ablated)
    reading = read_sections(question, earlier, sources, similarity, tuning, unheld, wanted=wanted)
    read = best_sections(reading, meaning=similarity is not None, tuning=tuning)
    runs = {
        index: section_runs(reading, sources[index], similarity, tuning, wanted=wanted)
        for index in read
    }
    choice = choose(
        fitted,
        reading.rows,
        {index: found.rows for index, found in runs.items()},
        {index: found.read for index, found in runs.items()},
        read=tuning.documents_to_read,
        judge=tuning.documents_to_judge,
        found=reading.found,
        terms=reading.terms,
        missing=reading.missing,
        passing=reading.passing,
        names=reading.names,
        unindexed=reading.unindexed,
        unfamiliar=reading.unfamiliar,
        ablated=tuning.ablated,
        scales=tuning.scales,
    )
    if not choice.answers or choice.section is None or choice.run is None:
        return choice, []
    chosen = [(choice.section, choice.run)]
    if choice.second is not None:
        chosen.append(choice.second)
    return choice, [Quoted(sources[i], runs[i].passage(n)) for i, n in chosen]


def write_answer(
    question: str,
    sources: Sequence[SourceText],
    *,
    earlier: Sequence[str] = (),
    similarity: Similarity | None = None,
    tuning: Tuning | None = None,
    unheld: frozenset[str] = frozenset(),
) -> str:
    """The answer's full text: the cited passages, then the ``## Sources`` list; or, when
    nothing answers, one uncited line naming the closest results."""
    choice, quoted = answer_choice(
        question, sources, earlier=earlier, similarity=similarity, tuning=tuning, unheld=unheld
    )
    if not quoted:
        titles = [_link_text(sources[i].title) for i in choice.order[:2]]
        named = " and ".join(f"“{t}”" for t in titles if t)
        if not named:
            return NOTHING_FOUND
        return f"{NOTHING_FOUND} The closest search results are {named}."
    seed = zlib.crc32(question.encode("utf-8"))
    html_at = seed % (len(quoted) + 1)  # one answer in len+1 has no HTML anchor at all
    parts = [_cited(q, html=index == html_at) for index, q in enumerate(quoted)]
    listing = "\n".join(f"- {_link(q.source, _link_text(q.source.title))}" for q in quoted)
    return "\n\n".join(parts) + "\n\n## Sources\n\n" + listing + "\n"


def _cited(quoted: Quoted, *, html: bool) -> str:
    """The passage with a link on its opening words; a passage that cannot carry an HTML
    anchor's text gets a markdown one."""
    span = _anchor_span(quoted.passage, html=html) if html else None
    if span is None:
        html = False
        span = _anchor_span(quoted.passage, html=False)
    assert span is not None  # choose_passages keeps only passages with a span
    start, end = span
    text = quoted.passage.text
    link = _link(quoted.source, text[start:end], html=html)
    return text[:start] + link + text[end:]


def _anchor_span(passage: Passage, *, html: bool) -> tuple[int, int] | None:
    """Where in the passage's text the link goes: its first sentence when short, else that
    sentence's opening words; text a link cannot hold (brackets, a line break, and for
    HTML ``<>&"``), or that would cut a code span or emphasis in two, is never in it."""
    forbidden = _ANCHOR_FORBIDDEN | (_HTML_FORBIDDEN if html else frozenset())
    first = passage.units[0].text
    stop = len(first) - 1 if first[-1:] in ".!?:" else len(first)
    commas = [m.start() for m in re.finditer(r"[,;]\s", first[:stop])]
    spaces = [m.start() for m in re.finditer(r"\s", first[:stop])]
    # The whole sentence first, then its clauses, then its words, longest first.
    for ends in ([stop], sorted(commas, reverse=True), sorted(spaces, reverse=True)):
        for end in ends:
            span = first[:end]
            if end <= SHORT_SPAN_CHARS and _linkable(span, forbidden):
                return 0, len(span)
    return None


def _linkable(span: str, forbidden: frozenset[str]) -> bool:
    return (
        bool(span)
        and not forbidden & set(span)
        and span.count("`") % 2 == 0
        and span.count("*") % 2 == 0
        and (span[-1].isalnum() or span[-1] in "`*_)'\"")
    )


def _link(source: SourceText, text: str, *, html: bool = False) -> str:
    # A url holding brackets or spaces cannot be a markdown link target; HTML carries it.
    awkward_href = bool(set("() \t") & set(source.href))
    if (html or awkward_href) and not set('<>&"') & set(text + source.href):
        return f'<a href="{source.href}">{text}</a>'
    return f"[{text}]({source.href})"


def _link_text(title: str) -> str:
    # A bracket or a line break inside link text ends the link early and leaks its markup
    # into the prose, so both are rewritten; a title's closing full stop would read "(Title.)."
    return " ".join(title.replace("[", "(").replace("]", ")").split()).rstrip(".")


def stream_fragments(text: str, question: str) -> Iterator[str]:
    rng = random.Random(zlib.crc32(question.encode("utf-8")))
    low, high = FRAGMENT_CHARS
    at = 0
    while at < len(text):
        size = rng.randint(low, high)
        yield text[at : at + size]
        at += size
