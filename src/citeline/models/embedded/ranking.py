"""The embedded model's reading of a ranking: which sections answer, and how surely.

The search tool ranks passages by the whole collection's statistics; this module ranks
the sections those passages belong to for the question asked, with what a reader of a
docs site weighs: a question term in a section's title counts as much as several in its
body (a section titled "Key Functions" is about key functions; one that mentions them is
not), a term few of the results share counts more than one they all share, and an
earlier question of a chat counts at half weight, so a follow-up stays in its
conversation without losing its own subject.

It also builds the search query for a follow-up. It knows nothing of tools or of how an
answer is written: it reads titles and texts and returns numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citeline.models.embedded.terms import (
    content_terms,
    subject_terms,
    term_counts,
    title_terms,
    words,
)
from citeline.models.turn import Similarity

# A follow-up's own terms weigh 1, its conversation's earlier questions this much: enough
# that "which one is faster?" after "list or tuple?" looks for lists and tuples, too
# little for the earlier subject to outweigh a new one the follow-up names.
HISTORY_WEIGHT = 0.5
# Earlier questions a follow-up's search carries: the conversation's recent subject, not
# all of it (a long chat would otherwise search for everything it ever touched).
HISTORY_QUESTIONS = 2
# A term of the page's title (shared by all its sections) counts as one body occurrence:
# it says which page, not which section. Weighing it as the heading (the whole title at
# TITLE_WEIGHT) cited a gold source for 0.711 of the development set, this way 0.728.
PAGE_WEIGHT = 1.0
OTHER_QUESTION_FIT = 0.8
# BM25's saturation and length normalisation, at their usual values.
K1 = 1.2
B = 0.75
# The search tool's own order carries the collection-wide statistics this ranking lacks
# (it sees only the results): the top result gains this much over the last.
RANK_PRIOR = 0.3
# A section whose heading names exactly what the question asks about (its subject terms,
# framing words aside) gains this much: the search puts such a section first for the same
# reason (``headings.title_key``), and re-ranking must not undo it. At 1 (a full share of
# the question, beside scores of 1 to 2.5) the development set cited a gold source for
# 0.793 against 0.768 without it; the held-out manual did not move.
NAMED_WORTH = 1.0
# With a sentence-embedding model at hand, a candidate's cosine similarity to the question
# (about 0.1 to 0.7 between a question and a section's title and opening) counts this many
# times beside the BM25F share (1 to 2.5). Words shared say little when the answer uses
# other words ("sort ... by a key" against "Key Functions", where "Dictionaries" shares
# every word): with the text below, cites a gold source rose from 0.793 to 0.854 on the
# Python-docs set, 0.656 to 0.750 on its follow-ups and 0.584 to 0.688 on the Flask set
# (3, 5 and 8 measured alike); the held-out manual, run once after, 0.403 to 0.565.
MEANING_WEIGHT = 5.0
# What is read for meaning: the title (what a section is about) and the opening of the
# search's passage. Cites gold on the Python-docs / Flask sets with the title alone 0.829 /
# 0.610, with 80 characters 0.854 / 0.688, 150 0.841 / 0.662, 400 0.829 / 0.623: the
# opening says how, more of it dilutes the point, and each character costs model time.
MEANING_CHARS = 80
# Bounds on the texts handed to the sentence model (it reads 128 word pieces at most): a
# hostile title or question must not cost the tokenizer megabytes first.
MEANING_TITLE_CHARS = 300
MEANING_QUESTION_CHARS = 1_000
# A term in the title counts as this many in the body, each field normalised by its own
# length (BM25F): titles are short and chosen by the author to say what a section is about.
# Of 1.5, 3, 5 and 8, 5 put a gold section first for most of the development set.
TITLE_WEIGHT = 5.0
# Added to each term's idf among the results. The results are a sample that retrieval
# already chose for the question's words, so a term they all share (the subject: "sort"
# in twelve sorting sections) is the question's point, not noise. Pure idf (0) sent "How do
# I sort a list of dictionaries by a key?" to the one section about dictionaries; 3
# flattens the weights (development set: cites a gold source 0.695 at 0, 0.768 at 3).
IDF_FLOOR = 3.0
# Release notes name every feature the year it came, in a sentence about the change ("Added an
# = specifier to f-strings"), not how it works: on the full Python documentation "What is an
# f-string?", "What is a list comprehension?" and "What does __slots__ do?" were answered
# from "What's New" pages. Their sections count this share of their score unless the
# question asks what changed: an expected term in 67.1 % of those answers before, 68.3 % at
# 0.7 and at 0.5, every other development file unchanged.
RELEASE_NOTES_FIT = 0.7
_RELEASE_NOTES = re.compile(
    r"\W*(?:(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+)?(?:what[\u2019']?s\s+new\b|release\s+v?\d|"
    r"(?:changes|change\s*log|changelog|release\s+notes|news|version\s+history)"
    r"(?:\s+(?:in|for|since)\s+(?:version\s+|release\s+)?v?\d[\w.]*)?\W*$)",
    re.IGNORECASE,
)
# How a title joins a page's name and a heading: "Sorting HOW TO: Key Functions", or a site's
# heading path "Sorting HOW TO \u203a Key Functions".
_TITLE_SEPARATORS = (" \u203a ", " > ", ": ")
_TITLE_SEPARATOR = re.compile("|".join(map(re.escape, _TITLE_SEPARATORS)))
_ASKS_ABOUT_CHANGES = re.compile(
    r"\b(?:new\s+in|changed?|changes|version|release[sd]?|deprecated|removed|added\s+in|"
    r"since|upgrad\w*)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A section as the tools gave it: its title, every text of it that came back, and the
    passage the search returned for it (the same before and after the section is read)."""

    title: str
    text: str
    passage: str = ""


@dataclass(frozen=True, slots=True)
class Ranked:
    """One candidate's place: its index among the candidates, score and question coverage
    (the share of the question's weight that its title and text hold, 0 to 1)."""

    index: int
    score: float
    coverage: float
    terms: frozenset[str]
    # The cosine similarity of the question and its title and opening (0 without a model).
    meaning: float = 0.0


# "How do I read ...", "how to create ...": the action an earlier question asked for, which a
# follow-up that names its own ("And how do I write lines to it?") does not carry over into
# its search. Cites a gold source on the follow-ups, Python docs / Flask: 0.781 / 0.700
# carrying it over, 0.844 / 0.650 not (Flask's loss: "How do I send them to the login view?"
# after "How do I redirect the user?", where the new action names the old); dropped from
# the query read for meaning too, 0.844 / 0.600; the held-out follow-ups unchanged.
_ASKED_ACTION = re.compile(
    r"\bhow\s+(?:(?:do|can|could|should|would|will|must)\s+(?:i|you|we|one)|to)\s+(\w+)",
    re.IGNORECASE,
)


def follow_up_query(question: str, earlier: Sequence[str], *, for_search: bool = True) -> str:
    """The search query for ``question`` in a conversation whose earlier user questions are
    ``earlier`` (oldest first): the question, then the earlier questions' subject words
    it does not already name, most recent first. For the search (``for_search``), a
    follow-up that asks for an action of its own ("And how do I write lines to it?") does
    not carry over the action an earlier question asked for ("How do I read a file line by
    line?"): it searches for writing to a file, not reading one. Read for meaning, the
    question keeps the whole conversation's words."""
    if not earlier:
        return question
    have = content_terms(question)
    added: list[str] = []
    own_action = for_search and _ASKED_ACTION.search(question) is not None
    for before in reversed(earlier[-HISTORY_QUESTIONS:]):
        if own_action:
            before = _ASKED_ACTION.sub(" ", before)
        for word in words(before):
            terms = subject_terms(word)
            if terms and not terms & have:
                added.append(word)
                have |= terms
    return f"{question} {' '.join(added)}" if added else question


def question_weights(
    question: str, earlier: Sequence[str], candidates: Sequence[Candidate]
) -> dict[str, float]:
    """Each subject term of the question (and, at ``HISTORY_WEIGHT``, of the earlier
    questions) weighted by its rarity among the candidates (BM25's idf). A term no
    candidate holds weighs as a term one candidate holds: the results are a sample, and
    an unmatched word still says the question asks for something they may lack."""
    own = subject_terms(question)
    base = {term: 1.0 for term in own}
    for before in earlier[-HISTORY_QUESTIONS:]:
        for term in subject_terms(before) - own:
            base[term] = HISTORY_WEIGHT
    held = [_terms(c) for c in candidates]
    n = max(len(held), 1)
    weights: dict[str, float] = {}
    for term, weight in base.items():
        df = max(1, sum(1 for terms in held if term in terms))
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        weights[term] = weight * (IDF_FLOOR + idf)
    return weights


def _terms(candidate: Candidate) -> set[str]:
    return title_terms(candidate.title) | content_terms(candidate.text)


def rank(
    candidates: Sequence[Candidate],
    weights: Mapping[str, float],
    question: str = "",
    similarity: Similarity | None = None,
    earlier: Sequence[str] = (),
) -> list[Ranked]:
    """The candidates, best first, by BM25F over heading, page title and text, plus the
    search's order, plus (given ``similarity``) how alike in meaning each one's title and
    opening are to the question (in a chat, to the question with the subject of the
    ``earlier`` questions, as it was searched: "How do I install packages into it?" means
    into the virtual environment the last question made)."""
    total = sum(weights.values()) or 1.0
    meaning = _meaning(candidates, follow_up_query(question, earlier, for_search=False), similarity)
    asked = subject_terms(question)
    notes_unasked = not _ASKS_ABOUT_CHANGES.search(question)
    bodies = [term_counts(c.text) for c in candidates]
    split = [split_title(c.title) for c in candidates]
    headings = [term_counts(heading) for _, heading in split]
    pages = [title_terms(page) for page, _ in split]
    body_mean = _mean_length(bodies)
    heading_mean = _mean_length(headings)
    ranked: list[Ranked] = []
    for index, (body, heading) in enumerate(zip(bodies, headings, strict=True)):
        body_norm = 1 - B + B * sum(body.values()) / body_mean
        heading_norm = 1 - B + B * sum(heading.values()) / heading_mean
        score = 0.0
        for term, weight in weights.items():
            tf = (
                TITLE_WEIGHT * (term in heading) / heading_norm
                + PAGE_WEIGHT * (term in pages[index])
                + body.get(term, 0) / body_norm
            )
            score += weight * tf * (K1 + 1) / (tf + K1)
        held = heading.keys() | pages[index] | body.keys()
        coverage = sum(w for t, w in weights.items() if t in held) / total
        prior = RANK_PRIOR * (1 - index / len(candidates))
        fit = _shape_fit(question, split[index][1])
        if notes_unasked and _release_notes(candidates[index].title):
            fit *= RELEASE_NOTES_FIT
        named = NAMED_WORTH if _names(split[index][1], asked) else 0.0
        value = (score / total + prior + named + MEANING_WEIGHT * meaning[index]) * fit
        ranked.append(Ranked(index, value, coverage, frozenset(held), meaning[index]))
    return sorted(ranked, key=lambda r: (-r.score, r.index))


def _meaning(
    candidates: Sequence[Candidate], question: str, similarity: Similarity | None
) -> list[float]:
    """Each candidate's likeness in meaning to the question (0 without ``similarity``):
    its title and the opening of the passage the search found, which say what it is about
    (the same text whether or not the section was read since, so it is embedded once)."""
    if similarity is None or not question or not candidates:
        return [0.0] * len(candidates)
    texts = [
        f"{c.title[:MEANING_TITLE_CHARS]}. {(c.passage or c.text)[:MEANING_CHARS]}"
        for c in candidates
    ]
    scores = list(similarity(question[:MEANING_QUESTION_CHARS], texts))
    if len(scores) != len(candidates):
        return [0.0] * len(candidates)
    return [float(s) for s in scores]


def _release_notes(title: str) -> bool:
    """Whether a section belongs to a collection's release notes ("What's New In Python 3.8",
    "Changes › Version 2.2.0", "E.20. Release 15.1"): its root page title says so."""
    root = _TITLE_SEPARATOR.split(title, maxsplit=1)[0]
    return _RELEASE_NOTES.match(root) is not None


def _names(heading: str, asked: set[str]) -> bool:
    """Whether the heading's subject terms are exactly the question's (``asked``): "What is
    the difference between arguments and parameters?" is the FAQ entry titled so, not the
    glossary's "parameter", though both hold every term."""
    return bool(asked) and subject_terms(heading) == asked


def _shape_fit(question: str, heading: str) -> float:
    """1, or ``OTHER_QUESTION_FIT`` when the heading is itself a question of another kind
    ("Why doesn't list.sort() return the sorted list?" for "How do I sort ...?"): a FAQ's
    title says which question its text answers."""
    asked = _QUESTION_WORD.match(question.strip())
    titled = _QUESTION_WORD.match(heading.strip())
    if asked is None or titled is None or not heading.rstrip().endswith("?"):
        return 1.0
    same = _KIND.get(asked.group(1).lower()) == _KIND.get(titled.group(1).lower())
    return 1.0 if same else OTHER_QUESTION_FIT


_QUESTION_WORD = re.compile(r"(how|why|what|which|when|where|who|is|are|can|do|does)\b", re.I)
# Question words that ask the same kind of thing: "can I" and "how do I" both ask how.
_KIND = {
    "how": "how", "can": "how", "do": "how", "does": "how",
    "why": "why",
    "what": "what", "which": "what", "who": "what", "is": "what", "are": "what",
    "when": "when", "where": "where",
}  # fmt: skip


def split_title(title: str) -> tuple[str, str]:
    """A section title as (page title, heading): "Sorting HOW TO: Key Functions", or a heading
    path "Sorting HOW TO \u203a Key Functions" (as HTML sites are ingested), splits at its
    last separator; a title without one is all heading."""
    for separator in _TITLE_SEPARATORS:
        page, found, heading = title.rpartition(separator)
        if found and page.strip() and heading.strip():
            return page.strip(), heading.strip()
    return "", title


def _mean_length(counts: Sequence[Mapping[str, int]]) -> float:
    lengths = [sum(c.values()) for c in counts]
    return max(sum(lengths) / len(lengths), 1.0) if lengths else 1.0
