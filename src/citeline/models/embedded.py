"""The embedded model: an offline, deterministic, extractive writer that runs the real tool loop.

It is the model of the demo and of the tests, so it behaves as a real model does
where that matters to the rest of citeline: it asks for ``search``, then ``read``
on the best documents, then writes 2 to 4 sentences taken verbatim from what it
read, each cited with the ``href`` a tool gave it (markdown links, sometimes an
HTML ``<a href>``), ends with a ``## Sources`` list, and streams it all in small
uneven fragments. It never writes an identifier that no tool returned.

It does not paraphrase, summarise, reason or follow instructions in the prompt:
it is extractive and says so in its name. It knows nothing of any model library;
the adapter feeds it a ``TurnView`` and carries out what it asks.
"""

from __future__ import annotations

import math
import random
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import Stemmer

# Two reads cover the top of a ranking without making every answer pay for a third
# round trip; the search passages of the other results still feed sentence choice.
DOCUMENTS_TO_READ = 2
MIN_SENTENCES = 2
MAX_SENTENCES = 4
RELEVANCE_FLOOR = 0.5
# A "sentence" shorter than this is a heading or a fragment such as "Methods:".
MIN_SENTENCE_CHARS = 30
# Fragment sizes as a real provider streams them: a few characters, unevenly, so an
# anchor arrives split across fragments as it does from real models.
FRAGMENT_CHARS = (1, 8)

NOTHING_FOUND = "I found nothing in this collection that answers that question."
TOOLS_FAILED = "I could not search the collection just now, so I cannot answer from it."
NO_TOOLS = "I have no search tool in this conversation, so I cannot answer from the collection."

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[\"'])")
# Structured abstracts start sections with a capitalised label ("RESULTS Of the 32,441
# samples ..."); the label is not part of the sentence a reader should see.
_SECTION_LABEL = re.compile(r"^(?:[A-Z]{2,}\s){0,3}[A-Z]{5,}:?\s+(?=[A-Z][a-z])")
_FENCED_CODE = re.compile(r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[^\n]*$", re.MULTILINE | re.DOTALL)
_SENTENCE_STOP = re.compile(r"[.!?][\"')\]]*$")
_BLOCK_BREAK = re.compile(r"\n[ \t]*\n")
# Headings, tables, quotes, bullets and numbered items: structure, not sentences.
_NOT_PROSE = re.compile(r"\s*(?:#|\||>|[-*+]\s|\d+[.)]\s)")
_WORD = re.compile(r"[A-Za-z0-9]+(?:[-'][A-Za-z0-9]+)*")
_STOP_WORDS = frozenset(
    """a about also an and are as at be been between but by can could did do does done for from
    had has have how i if in into is it its may might more most no not of on or our should so such
    than that the their them then there these they this those to was we were what when where which
    while who why will with would you your""".split()  # noqa: SIM905 (a list literal is 70 lines)
)
_stemmer = Stemmer.Stemmer("english")


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
    # Each offered tool's description, as a model reads it (the data path picks a measure).
    descriptions: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """A tool call the embedded model asks for."""

    tool: str
    args: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source as the tools gave it: the href to cite, its title, every text of it returned,
    and whether it was read whole rather than seen as a search passage."""

    href: str
    title: str
    texts: tuple[str, ...]
    read: bool = False


def next_step(view: TurnView) -> tuple[ToolRequest, ...] | Iterator[str]:
    """Either the tool calls to make next, or the answer's text fragments."""
    if "search" not in view.tools:
        return stream_fragments(NO_TOOLS, view.question)
    searches = [o for o in view.outcomes if o.tool == "search"]
    reads = [o for o in view.outcomes if o.tool == "read"]
    if not searches:
        return (ToolRequest("search", {"query": _search_query(view)}),)
    sources = _sources([o for o in view.outcomes if not o.failed])
    if not sources:
        if all(o.failed for o in searches):
            return stream_fragments(TOOLS_FAILED, view.question)
        return stream_fragments(NOTHING_FOUND, view.question)
    if not reads and "read" in view.tools:
        ids = _document_ids(searches)[:DOCUMENTS_TO_READ]
        if ids:
            return tuple(ToolRequest("read", {"id": doc_id}) for doc_id in ids)
    return stream_fragments(write_answer(view.question, sources), view.question)


def _search_query(view: TurnView) -> str:
    # A follow-up such as "and in mice?" names too little to search on its own.
    if len(content_terms(view.question)) < 3 and view.earlier_questions:
        return f"{view.earlier_questions[-1]} {view.question}"
    return view.question


def _records(content: object) -> Iterator[Mapping[str, Any]]:
    """Every mapping with an ``href`` in a tool value, whatever wraps it (a reminder, a list)."""
    if isinstance(content, Mapping):
        if isinstance(content.get("href"), str) and content["href"]:
            yield content
        for value in content.values():
            if isinstance(value, list | tuple | Mapping):
                yield from _records(value)
    elif isinstance(content, list | tuple):
        for item in content:
            yield from _records(item)


def _document_ids(searches: Sequence[ToolOutcome]) -> list[str]:
    ids: list[str] = []
    for outcome in searches:
        if outcome.failed:
            continue
        for record in _records(outcome.content):
            doc_id = record.get("id")
            if isinstance(doc_id, str) and doc_id and doc_id not in ids:
                ids.append(doc_id)
    return ids


def _sources(outcomes: Sequence[ToolOutcome]) -> list[SourceText]:
    """Sources in the order the tools ranked them, a read document's full text before passages."""
    order: list[str] = []
    titles: dict[str, str] = {}
    texts: dict[str, list[str]] = {}
    read: set[str] = set()
    for outcome in sorted(outcomes, key=lambda o: o.tool != "read"):
        for record in _records(outcome.content):
            href = str(record["href"])
            if outcome.tool == "read":
                read.add(href)
            text = record.get("text") or record.get("passage") or ""
            if href not in titles:
                order.append(href)
                titles[href] = str(record.get("title") or record.get("id") or href)
                texts[href] = []
            if isinstance(text, str) and text and text not in texts[href]:
                texts[href].append(text)
    ranked = _search_rank(outcomes)
    order.sort(key=lambda href: ranked.get(href, len(ranked)))
    return [SourceText(href, titles[href], tuple(texts[href]), href in read) for href in order]


def _search_rank(outcomes: Sequence[ToolOutcome]) -> dict[str, int]:
    rank: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.tool == "search":
            for record in _records(outcome.content):
                rank.setdefault(str(record["href"]), len(rank))
    return rank


def content_terms(text: str) -> set[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    return {_stemmer.stemWord(w) for w in words if w not in _STOP_WORDS and len(w) > 1}


def _prose(text: str) -> Iterator[str]:
    """The paragraphs of running prose in ``text``, each on one line.

    Code, headings, tables, quotes and list items are skipped: cut into "sentences"
    they broke the answer (a cited sentence ending on a code fence turned the rest of
    the answer into code, seen on the Python docs sample), and abstracts have none.
    """
    for block in _BLOCK_BREAK.split(_FENCED_CODE.sub("\n\n", text)):
        if not block.strip() or block.startswith(("    ", "\t")):
            continue
        lines = block.strip().splitlines()
        if _NOT_PROSE.match(lines[0]):
            continue
        yield " ".join(line.strip() for line in lines)


def _sentences(text: str) -> list[str]:
    found = (
        _SECTION_LABEL.sub("", s.strip())
        for paragraph in _prose(text)
        for s in _SENTENCE_END.split(paragraph)
    )
    # One that does not end as a sentence ends ("... is especially helpful for", "For
    # example:") introduces a list or code that the answer will not carry.
    return [s for s in found if len(s) >= MIN_SENTENCE_CHARS and _SENTENCE_STOP.search(s)]


@dataclass(frozen=True, slots=True)
class ChosenSentence:
    source: int
    position: int
    text: str
    score: float


def select_sentences(question: str, sources: Sequence[SourceText]) -> list[ChosenSentence]:
    """The 2 to 4 sentences sharing the most weighted question terms, in reading order.

    Sentences of the documents it read come first: a passage of a lower-ranked result
    joins only when the read documents give fewer than two sentences worth citing.
    """
    query = content_terms(question)
    candidates: list[tuple[int, int, str, set[str]]] = []
    for s_index, source in enumerate(sources):
        seen: set[str] = set()
        for text in source.texts:
            for sentence in _sentences(text):
                if sentence not in seen:
                    seen.add(sentence)
                    candidates.append((s_index, len(seen), sentence, content_terms(sentence)))
    if not candidates:
        return []
    frequency: dict[str, int] = {}
    for *_, terms in candidates:
        for term in terms & query:
            frequency[term] = frequency.get(term, 0) + 1
    total = len(candidates)
    scored = []
    for s_index, position, sentence, terms in candidates:
        overlap = terms & query
        score = sum(1.0 + math.log(total / frequency[t]) for t in overlap)
        # Ties go to the better-ranked source and the earlier sentence: abstracts lead with
        # their claim.
        scored.append(
            ChosenSentence(s_index, position, sentence, score - 0.01 * s_index - 0.001 * position)
        )
    by_score = sorted(scored, key=lambda c: -c.score)
    # Measured on SciFact claims: below half the best score a sentence shares one common
    # word with the claim and reads as off topic.
    floor = max(RELEVANCE_FLOOR * by_score[0].score, 0.0)
    relevant = [c for c in by_score if c.score > floor]
    chosen = [c for c in relevant if sources[c.source].read][:MAX_SENTENCES]
    for pool in (relevant, by_score):
        for candidate in pool:
            if len(chosen) >= MIN_SENTENCES:
                break
            if candidate not in chosen:
                chosen.append(candidate)
    return sorted(chosen, key=lambda c: (c.source, c.position))


def write_answer(question: str, sources: Sequence[SourceText]) -> str:
    """The answer's full text: chosen sentences cited inline, then the ``## Sources`` list."""
    chosen = select_sentences(question, sources)
    if not chosen:
        return NOTHING_FOUND
    seed = zlib.crc32(question.encode("utf-8"))
    html_at = seed % (len(chosen) + 1)  # one answer in len+1 has no HTML anchor at all
    lines: list[str] = []
    cited: list[int] = []
    for index, candidate in enumerate(chosen):
        source = sources[candidate.source]
        body = candidate.text.rstrip()
        stop = body[-1] if body[-1] in ".!?" else "."
        body = body[:-1] if body[-1] in ".!?" else body
        link = _link(source, html=index == html_at)
        lines.append(f"{body} ({link}){stop}")
        if candidate.source not in cited:
            cited.append(candidate.source)
    listing = "\n".join(f"- {_link(sources[i], html=False)}" for i in cited)
    return " ".join(lines) + "\n\n## Sources\n\n" + listing + "\n"


def _link(source: SourceText, *, html: bool) -> str:
    title = _link_text(source.title)
    # A url holding brackets or spaces cannot be a markdown link target; HTML carries it.
    awkward_href = bool(set("() \t") & set(source.href))
    if (html or awkward_href) and not set('<>&"') & set(title + source.href):
        return f'<a href="{source.href}">{title}</a>'
    return f"[{title}]({source.href})"


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
