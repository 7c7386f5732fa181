"""The embedded model: an offline, deterministic, extractive writer that runs the real tool loop.

It is the model of the demo and of the tests, so it behaves as a real model does
where that matters to the rest of citeline: it asks for ``search`` (in a chat, with
the conversation's earlier questions), ranks the sections the results belong to and
asks to ``read`` the best of them, then answers as a docs site's featured answer
does: the most relevant contiguous passage of the one best section (and of a second
only when it holds what the first lacks, such as the other side of "A or B"), quoted
verbatim with its code block when the question asks how. The citation is a link
whose text is the passage's own opening words (markdown, sometimes an HTML
``<a href>``), the answer ends with a ``## Sources`` list, and all of it streams in
small uneven fragments. It never writes an identifier that no tool returned.

When no section holds enough of the question, it says so in one line naming the
closest results, and cites nothing: an extractive answer that cites nothing is the
engine's ``nothing_found``. It does not paraphrase, summarise, reason or follow
instructions in the prompt, and knows nothing of any model library; the adapter
feeds it a ``TurnView`` and carries out what it asks.
"""

from __future__ import annotations

import functools
import random
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citeline.models.embedded_passages import Passage, Unit, best_passage, block_texts, units_of
from citeline.models.embedded_ranking import (
    MEANING_QUESTION_CHARS,
    Candidate,
    Ranked,
    follow_up_query,
    question_weights,
    rank,
    split_title,
)
from citeline.models.embedded_terms import content_terms, title_terms
from citeline.models.turn import Similarity

__all__ = [
    "FRAGMENT_CHARS",
    "NOTHING_FOUND",
    "NO_TOOLS",
    "TOOLS_FAILED",
    "SourceText",
    "ToolOutcome",
    "ToolRequest",
    "TurnView",
    "content_terms",
    "next_step",
    "stream_fragments",
    "write_answer",
]

# Results to rank: on a whole site the section that answers a short question is often past
# the twelfth hit. Over the whole Python 3.11 manual (4,462 sections) the development
# questions cited a gold section 61.0 % of the time at 12 results and 67.1 % at 20 (expected
# term 72.0 / 76.8 %); git's manual pages: expected term 41.8 / 47.3 %; the 618-section
# sample and Flask's docs moved by one question each way. 20 is the search tool's most.
SEARCH_K = 20
# Fewer results where the search's own order is already good, and more results bring only
# more sections to mistake for the answer: a question of more subject terms than
# ``FEW_TERMS`` (a SciFact claim has 8 in the median, a docs question 4) and a follow-up,
# whose search holds the earlier question's words beside its own. At 20 results for every
# question, SciFact train's claims cited a gold abstract 81.8 % of the time against 83.2 %
# (precision 0.673 against 0.693), and the three follow-up sets each lost one gold citation.
NARROW_SEARCH_K = 12
FEW_TERMS = 6
# Two reads in one round: the best section, and the runner-up that may hold what it lacks.
DOCUMENTS_TO_READ = 2
# Paragraphs of one section read for meaning at most: a section read whole is 12,000
# characters at most, which a hostile page can cut into thousands of one-word paragraphs;
# read whole, the longest sections of the Python-docs sample, Flask's docs and PostgreSQL's
# manual hold 30, 97 and 206 prose blocks, their medians 3.
MEANING_BLOCKS = 32
# Below this share of the question's weight, the best section is about something else:
# it is not quoted, and the answer says nothing was found.
CONFIDENCE_FLOOR = 0.4
# The best-ranked section whose title and opening are at least this alike in meaning to the
# question (cosine, shipped sentence model) answers though it holds less of the question's
# words than the floors ask, as long as its prose holds one: "How do I measure how long a
# piece of code takes to run?" is answered by "Performance Measurement" in other words.
# Cites a gold source, Python-docs / follow-ups / Flask sets: 0.866 / 0.750 / 0.714 without,
# 0.890 / 0.750 / 0.727 at 0.5, 0.902 / 0.750 / 0.727 at 0.4, 0.902 / 0.781 / 0.727 at 0.35
# and 0.3; 20 questions neither collection answers ("How do I bake sourdough bread?") were
# still answered "nothing found" 18 and 17 times down to 0.3, 16 on Flask at 0.25.
MEANING_CONFIDENT = 0.35
# With a sentence model at hand, a section whose title and opening are less alike than this
# to the question is about something else however many of its words it holds ("How do I
# create a new branch in git?" against "Creating new iterators"). Every development
# question's best-ranked section was at least 0.16 alike; of 20 questions neither collection
# answers, 19 and 18 ended "nothing found" at 0.15 (18 and 17 without the floor), with the
# development figures unchanged; at 0.2 the Flask set lost a gold citation.
MEANING_FLOOR = 0.15
# A section whose title names nothing the question asks about must hold more of it: on
# the Python-docs sample "What is the capital of France?" found "capital letter" in the
# docstring conventions, half of a two-word question.
UNTITLED_FLOOR = 0.6
# A long question (a SciFact claim has 10 to 15 subject terms) is answered by a section
# holding this many of its terms' worth, which is under the floors: measured on SciFact
# train, the gold abstract often holds a third of a claim's words.
CONFIDENT_TERMS = 1.5
# A second section joins only when it holds at least this share of the question's weight
# that the first lacks, and is itself above the floor.
SECOND_GAIN = 0.15
SECOND_SCORE = 0.7
# A passage shorter than this is a pointer ("See global interpreter lock."), not an answer.
MIN_PASSAGE_CHARS = 40
# Sections whose units are kept, most recent first: a docs site's answers read the same
# sections again and again, and splitting a read section into its units (blocks, sentences,
# their terms) was a tenth of an embedded answer's CPU before its first token (measured on the
# bundled sample). A read text is at most 12,000 characters, so this is a few MB at most.
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

# "How do I ...", "how to ...", "is there a way to ...", "can I ...", "does it have ...": the
# reader wants to see it done. Asked whether it can be done, an expected term in the Python
# follow-ups rose from 65.6 % to 68.8 % ("Can I nest them?" is answered by the nested
# comprehension), every other file alike but for one gold citation of the git follow-ups.
_HOW = re.compile(
    r"\bhow\b(?!\s+(?:many|much|long|often|old|big|large|fast|slow)\b)|\bway\s+to\b|"
    r"\bexample\b|\bshow\s+me\b|\b(?:is|are)\s+there\b|\bdoes\s+\w+\s+(?:have|support)\b|"
    r"\bcan\s+(?:i|you|we|one)\b|\bsyntax\b",
    re.IGNORECASE,
)
_WHY = re.compile(r"why\b", re.IGNORECASE)
# A question about versions, whose answer a version note may open ("Which version added
# f-strings?"); "change" alone is not one ("How do I change every response?").
_VERSIONS = re.compile(
    r"\b(?:versions?|new\s+in|added\s+in|deprecated|removed|releases?|released)\b",
    re.IGNORECASE,
)
# A name the question writes as code ("*args", "__slots__", "json.dump()", "str.join"): where
# the passage shows it as written, in its code too, the passage is about it. "What are *args
# and **kwargs?" found nothing: those words are only ever in code.
_CODE_NAME = re.compile(r"\*{1,2}[A-Za-z_]\w*|\w+\(\)|\b\w*_\w+\b|\b\w+\.\w+\b")
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
    # Each offered tool's description, as a model reads it (the data path picks a measure).
    descriptions: Mapping[str, str] = field(default_factory=dict)
    # How alike in meaning the question is to a text, when the agent gives a way to tell.
    similarity: Similarity | None = None


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """A tool call the embedded model asks for."""

    tool: str
    args: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source as the tools gave it: the href to cite, its title, every text of it returned
    (the read text first), its id when it has one, and whether it was read whole."""

    href: str
    title: str
    texts: tuple[str, ...]
    read: bool = False
    id: str | None = None

    @property
    def text(self) -> str:
        """What the model knows of the source: the whole text read, else its passages."""
        return self.texts[0] if self.read and self.texts else "\n\n".join(self.texts)

    @property
    def passage(self) -> str:
        """The first passage the search returned of it (the read text comes before them)."""
        found = self.texts[1:] if self.read else self.texts
        return found[0] if found else ""


def next_step(view: TurnView) -> tuple[ToolRequest, ...] | Iterator[str]:
    """Either the tool calls to make next, or the answer's text fragments."""
    if "search" not in view.tools:
        return stream_fragments(NO_TOOLS, view.question)
    searches = [o for o in view.outcomes if o.tool == "search"]
    reads = [o for o in view.outcomes if o.tool == "read"]
    if not searches:
        query = follow_up_query(view.question, view.earlier_questions)
        narrow = view.earlier_questions or len(content_terms(view.question)) > FEW_TERMS
        k = NARROW_SEARCH_K if narrow else SEARCH_K
        return (ToolRequest("search", {"query": query, "k": k}),)
    sources = _sources([o for o in view.outcomes if not o.failed])
    if not sources:
        if all(o.failed for o in searches):
            return stream_fragments(TOOLS_FAILED, view.question)
        return stream_fragments(NOTHING_FOUND, view.question)
    if not reads and "read" in view.tools:
        ranked = _ranked(view.question, view.earlier_questions, sources, view.similarity)
        ids = [sources[r.index].id for r in ranked[:DOCUMENTS_TO_READ]]
        requests = tuple(ToolRequest("read", {"id": i}) for i in ids if i)
        if requests:
            return requests
    answer = write_answer(
        view.question, sources, earlier=view.earlier_questions, similarity=view.similarity
    )
    return stream_fragments(answer, view.question)


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


def _sources(outcomes: Sequence[ToolOutcome]) -> list[SourceText]:
    """Sources in the order the search ranked them, a read document's full text first."""
    order: list[str] = []
    titles: dict[str, str] = {}
    ids: dict[str, str | None] = {}
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
                doc_id = record.get("id")
                ids[href] = doc_id if isinstance(doc_id, str) and doc_id else None
                texts[href] = []
            if isinstance(text, str) and text and text not in texts[href]:
                texts[href].append(text)
    ranked = _search_rank(outcomes)
    order.sort(key=lambda href: ranked.get(href, len(ranked)))
    return [
        SourceText(href, titles[href], tuple(texts[href]), href in read, ids[href])
        for href in order
    ]


def _search_rank(outcomes: Sequence[ToolOutcome]) -> dict[str, int]:
    rank_of: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.tool == "search":
            for record in _records(outcome.content):
                rank_of.setdefault(str(record["href"]), len(rank_of))
    return rank_of


def _candidates(sources: Sequence[SourceText]) -> list[Candidate]:
    return [Candidate(s.title, s.text, s.passage) for s in sources]


def _ranked(
    question: str,
    earlier: Sequence[str],
    sources: Sequence[SourceText],
    similarity: Similarity | None = None,
) -> list[Ranked]:
    candidates = _candidates(sources)
    weights = question_weights(question, earlier, candidates)
    return rank(candidates, weights, question, similarity, earlier)


@dataclass(frozen=True, slots=True)
class Quoted:
    """A passage chosen for the answer and the source it is cited to."""

    source: SourceText
    passage: Passage


def choose_passages(
    question: str,
    sources: Sequence[SourceText],
    *,
    earlier: Sequence[str] = (),
    similarity: Similarity | None = None,
) -> list[Quoted]:
    """The one or two passages that answer, best first; empty when none is confident."""
    candidates = _candidates(sources)
    weights = question_weights(question, earlier, candidates)
    total = sum(weights.values()) or 1.0
    wants_code = bool(_HOW.search(question))
    asks_why = bool(_WHY.match(question.strip()))
    asked_code = set(_CODE_NAME.findall(question))
    notes_answer = bool(_VERSIONS.search(question))
    chosen: list[Quoted] = []
    covered: set[str] = set()
    first_score = 0.0
    floor, untitled_floor = _floors(weights)
    # What a section's paragraphs are compared with: the question in its conversation.
    meaning_query = follow_up_query(question, earlier, for_search=False)[:MEANING_QUESTION_CHARS]
    for place, ranked in enumerate(rank(candidates, weights, question, similarity, earlier)):
        # The best-ranked section, plainly about the question in meaning, answers though it
        # says so in other words than the question's.
        meant = place == 0 and ranked.meaning >= MEANING_CONFIDENT
        if ranked.coverage < floor and not meant:
            continue
        if similarity is not None and ranked.meaning < MEANING_FLOOR:
            continue
        if chosen:
            gain = sum(w for t, w in weights.items() if t in ranked.terms - covered) / total
            if gain < SECOND_GAIN or ranked.score < SECOND_SCORE * first_score:
                continue
        source = sources[ranked.index]
        units = list(_units(source.text, split_title(source.title)[1]))
        meaning = _block_meaning(units, meaning_query, similarity, weights)
        passage = best_passage(
            units,
            weights,
            wants_code=wants_code,
            meaning=meaning,
            asks_why=asks_why,
            notes_answer=notes_answer,
        )
        if (
            passage is None
            or len(passage.text) < MIN_PASSAGE_CHARS
            or _anchor_span(passage, html=False) is None
        ):
            continue
        # What the reader is shown must itself be about the question, and not only through
        # a word its code holds ("France" in a dict literal): the title and prose must hold
        # part of it, and with the code at least the floor.
        prose = title_terms(source.title).union(
            *(u.terms for u in passage.units if u.kind != "code"),
            *(content_terms(name) for name in asked_code if name in passage.text),
        )
        code = set().union(*(u.terms for u in passage.units if u.kind == "code"))
        titled = bool(title_terms(source.title) & weights.keys())
        if not (meant and _share(prose, weights) > 0) and (
            _share(prose, weights) < floor / 2
            or _share(prose | code, weights) < (floor if titled else untitled_floor)
        ):
            continue
        if not chosen:
            first_score = ranked.score
        chosen.append(Quoted(source, passage))
        covered |= ranked.terms
        if len(chosen) == 2:
            break
    return chosen


@functools.lru_cache(maxsize=UNITS_KEPT)
def _units(text: str, heading: str) -> tuple[Unit, ...]:
    """``units_of(text, heading)``, kept while recent (units are frozen, so one may serve many)."""
    return tuple(units_of(text, heading))


def paragraphs_read_for_meaning(title: str, text: str) -> list[str]:
    """The texts ``_block_meaning`` may read a section by when it reads its whole ``text``
    under ``title``: every prose block's (a question reads at most ``MEANING_BLOCKS`` of
    them), none for a section of fewer than two. Ingest stores their vectors
    (``citeline.agent.meaning.reading``), so an answer embeds none of them."""
    texts = block_texts(units_of(text, split_title(title)[1]))
    return list(dict.fromkeys(texts.values())) if len(texts) >= 2 else []


def _block_meaning(
    units: list[Unit], query: str, similarity: Similarity | None, weights: Mapping[str, float]
) -> dict[int, float]:
    """How alike in meaning each prose block of a section is to ``query`` (none when
    there is no choice to make or no way to tell). Of a section with more than
    ``MEANING_BLOCKS`` blocks, those holding the most of the question's words are read."""
    if similarity is None:
        return {}
    texts = block_texts(units)
    if len(texts) < 2:
        return {}
    if len(texts) > MEANING_BLOCKS:
        held: dict[int, set[str]] = {}
        for unit in units:
            held.setdefault(unit.block, set()).update(unit.terms)
        worth = {b: sum(weights.get(t, 0.0) for t in held.get(b, ())) for b in texts}
        kept = sorted(sorted(texts, key=lambda b: -worth[b])[:MEANING_BLOCKS])
        texts = {b: texts[b] for b in kept}
    # The quicker arithmetic chooses among paragraphs as well: every development file
    # scored the same with it as with the exact one, at a third of the model time.
    scores = list(similarity(query, list(texts.values()), exact=False))
    if len(scores) != len(texts):
        return {}
    return dict(zip(texts, (float(s) for s in scores), strict=True))


def _floors(weights: Mapping[str, float]) -> tuple[float, float]:
    """The share of the question a section must hold, with and without a title term: the
    floors, or ``CONFIDENT_TERMS`` terms' worth of a long question when that is less."""
    enough = CONFIDENT_TERMS / max(len(weights), 1)
    return min(CONFIDENCE_FLOOR, enough), min(UNTITLED_FLOOR, enough + 1 / max(len(weights), 1))


def _share(terms: set[str], weights: Mapping[str, float]) -> float:
    total = sum(weights.values()) or 1.0
    return sum(w for t, w in weights.items() if t in terms) / total


def write_answer(
    question: str,
    sources: Sequence[SourceText],
    *,
    earlier: Sequence[str] = (),
    similarity: Similarity | None = None,
) -> str:
    """The answer's full text: the cited passages, then the ``## Sources`` list; or, when no
    section is confident, one uncited line naming the closest results."""
    chosen = choose_passages(question, sources, earlier=earlier, similarity=similarity)
    if not chosen:
        return _nothing_found(question, sources, earlier)
    seed = zlib.crc32(question.encode("utf-8"))
    html_at = seed % (len(chosen) + 1)  # one answer in len+1 has no HTML anchor at all
    parts = [_cited(q, html=index == html_at) for index, q in enumerate(chosen)]
    listing = "\n".join(f"- {_link(q.source, _link_text(q.source.title))}" for q in chosen)
    return "\n\n".join(parts) + "\n\n## Sources\n\n" + listing + "\n"


def _nothing_found(question: str, sources: Sequence[SourceText], earlier: Sequence[str]) -> str:
    titles = [_link_text(sources[r.index].title) for r in _ranked(question, earlier, sources)[:2]]
    named = " and ".join(f"“{t}”" for t in titles if t)
    return f"{NOTHING_FOUND} The closest search results are {named}." if named else NOTHING_FOUND


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
