"""The embedded model's ranking: what the question asks, what each section the search returned
holds of it (its features), and the fitted models' choice among sections and their runs.

The search tool ranks passages by the whole collection's statistics; here the sections those
passages belong to are described for the question asked, with what a reader of a docs site
weighs: how much of the question each field holds (heading, page title, the passage the
search found: BM25 per field, so the fitted weights say what a heading is worth beside a
body), each question word weighted by how few of the results hold it, an earlier question of
a chat at a fraction of the weight; the search's own order; whether the heading names exactly
what is asked; how alike in meaning the section's title and opening are to the question
(given a sentence model). Which section is read and which run answers is a linear model over
those features (``tuning``): ``score_sections`` and ``choose``.

It also builds the search query for a follow-up. It knows nothing of tools or of how an
answer is written: it reads titles and texts and returns numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass

from citeline.models.embedded.columns import computed_once, feature_rows
from citeline.models.embedded.pairs import near_pairs, pairs_share, subject_pairs
from citeline.models.embedded.passages import Question, shows_code
from citeline.models.embedded.tuning import Tuning
from citeline.models.turn import Similarity, StoredSimilarity
from citeline.text.answer_terms import (
    compounds,
    content_terms,
    content_words,
    subject_terms,
    term_counts,
    title_terms,
)
from citeline.text.meaning import MEANING_QUESTION_CHARS, meaning_text, title_text

# "How do I ...", "how to ...", "is there a way to ...", "can I ...", "does it have ...": the
# reader wants to see it done, so a run's code counts for more (a feature, ``code_how``).
_HOW = re.compile(
    r"\bhow\b(?!\s+(?:many|much|long|often|old|big|large|fast|slow)\b)|\bway\s+to\b|"
    r"\bexample\b|\bshow\s+me\b|\b(?:is|are)\s+there\b|\bdoes\s+\w+\s+(?:have|support)\b|"
    r"\bcan\s+(?:i|you|we|one)\b|\bsyntax\b",
    re.IGNORECASE,
)
_WHY = re.compile(r"why\b", re.IGNORECASE)
# A question about versions or changes, which a version note or a release note may answer.
_VERSIONS = re.compile(
    r"\b(?:versions?|new\s+in|added\s+in|deprecated|removed|releases?|released|changed?|"
    r"changes|since|upgrad\w*)\b",
    re.IGNORECASE,
)
# A name the question writes as code ("*args", "__slots__", "json.dump()", "str.join"):
# where a run shows it as written, the run is about it.
_CODE_NAME = re.compile(r"\*{1,2}[A-Za-z_]\w*|\w+\(\)|\b\w*_\w+\b|\b\w+\.\w+\b")
# A collection's release notes, by its root page's title: "What's New In Python 3.8",
# "Changes", "Changelog", "Release Notes", "News", "Release 15.1", "E.20. Release 15.1". They
# name every feature the year it came, in a sentence about the change, not how it works.
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
# "How do I read ...", "how to create ...": the action an earlier question asked for, which a
# follow-up that names its own action does not carry over into its search.
_ASKED_ACTION = re.compile(
    r"\bhow\s+(?:(?:do|can|could|should|would|will|must)\s+(?:i|you|we|one)|to)\s+(\w+)",
    re.IGNORECASE,
)
_QUESTION_WORD = re.compile(r"(how|why|what|which|when|where|who|is|are|can|do|does)\b", re.I)
# Question words that ask the same kind of thing: "can I" and "how do I" both ask how.
_KIND = {
    "how": "how", "can": "how", "do": "how", "does": "how",
    "why": "why",
    "what": "what", "which": "what", "who": "what", "is": "what", "are": "what",
    "when": "when", "where": "where",
}  # fmt: skip

# The features of a section, in the order ``section_features`` gives them.
SECTION_FEATURES = (
    "heading",
    "page",
    "body",
    "coverage",
    "own_coverage",
    "heading_precision",
    "named",
    "rank",
    "first",
    "other_kind",
    "release_notes",
    "compound",
    "hits",
    "depth",
    "code_how",
    "meaning",
    "meaning_title",
    "history_coverage",
    "meaning_passage",
    "pairs",
)
# The features of the next read section, for whether it answers beside the best: how far
# behind the best it is (read scores) and how many subject terms the question has.
SECOND_FEATURES = ("second_gap", "second_terms")
# The features of the answer as a whole, for whether it answers at all.
CONFIDENCE_FEATURES = (
    "answer_score",
    "answer_section",
    "answer_run",
    "answer_coverage",
    "answer_own_coverage",
    "answer_title_coverage",
    "answer_run_coverage",
    "answer_read_coverage",
    "answer_found",
    "answer_meaning",
    "answer_meaning_max",
    "answer_run_meaning",
    "answer_terms",
    "answer_missing",
    "answer_passing",
    "answer_names",
    "answer_unindexed",
    "answer_unfamiliar",
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A section as the search gave it: its title, the passages that came back of it (as one
    text), how many there were, and its id (whose stored passage vectors ``meaning_passage``
    reads; ``None`` for a source without one)."""

    title: str
    passage: str
    hits: int = 1
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Asked:
    """The question as the ranking reads it (``Question`` for the runs, and its meaning
    query and kinds)."""

    question: Question
    meaning_query: str

    @property
    def weights(self) -> Mapping[str, float]:
        return self.question.weights


def follow_up_query(
    question: str, earlier: Sequence[str], tuning: Tuning, *, for_search: bool = True
) -> str:
    """The search query for ``question`` in a conversation whose earlier user questions are
    ``earlier`` (oldest first): the question, then the earlier questions' subject words
    it does not already name, most recent first. For the search (``for_search``), a
    follow-up that asks for an action of its own ("And how do I write ... ?") does not
    carry over the action an earlier question asked for ("How do I read ...?"). Read for
    meaning, the question keeps the whole conversation's words."""
    if not earlier:
        return question
    have = content_terms(question)
    added: list[str] = []
    own_action = for_search and _ASKED_ACTION.search(question) is not None
    for before in reversed(earlier[-tuning.history_questions :]):
        if own_action:
            before = _ASKED_ACTION.sub(" ", before)
        for word in content_words(before):
            terms = subject_terms(word)
            if terms and not terms & have:
                added.append(word)
                have |= terms
    return f"{question} {' '.join(added)}" if added else question


def asked(
    question: str, earlier: Sequence[str], candidates: Sequence[Candidate], tuning: Tuning
) -> Asked:
    """The question read against the search's results: each subject term of it (and, at
    ``history_weight``, of the earlier questions; and each pair of its words written as one
    name that a result holds) weighted by its rarity among the results (BM25's idf, plus
    ``idf_floor``). A term no result holds weighs as one that one result holds: the results
    are a sample, and an unmatched word still says the question asks for something."""
    own = subject_terms(question)
    held = [_terms(c) for c in candidates]
    joined = {t for t in compounds(question) - own if any(t in h for h in held)}
    base = dict.fromkeys(own | joined, 1.0)
    for before in earlier[-tuning.history_questions :]:
        for term in subject_terms(before) - base.keys():
            base[term] = tuning.history_weight
    n = max(len(held), 1)
    weights: dict[str, float] = {}
    for term, weight in base.items():
        df = max(1, sum(1 for terms in held if term in terms))
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        weights[term] = weight * (tuning.idf_floor + idf)
    stripped = question.strip()
    return Asked(
        Question(
            weights=weights,
            own=frozenset(own | joined),
            compounds=frozenset(joined),
            code_names=tuple(dict.fromkeys(_CODE_NAME.findall(question))),
            wants_code=bool(_HOW.search(question)),
            asks_why=bool(_WHY.match(stripped)),
            asks_versions=bool(_VERSIONS.search(question)),
            pairs=subject_pairs(question),
        ),
        follow_up_query(question, earlier, tuning, for_search=False)[:MEANING_QUESTION_CHARS],
    )


def _terms(candidate: Candidate) -> set[str]:
    return title_terms(candidate.title) | content_terms(candidate.passage)


def section_features(
    question: Asked,
    candidates: Sequence[Candidate],
    similarity: Similarity | None,
    tuning: Tuning,
    wanted: Set[str] = frozenset(SECTION_FEATURES),
) -> list[list[float]]:
    """Each candidate's features (``SECTION_FEATURES``), in the search's order; a feature
    not ``wanted`` is 0.0 and is not computed (``columns``)."""
    sections = _Sections(question, candidates, similarity, tuning)
    views = (_SectionView(sections, index) for index in range(len(candidates)))
    return feature_rows(SECTION_FEATURES, _SECTION_COLUMNS, wanted, sections, views)


class _Sections:
    """What the features of the search's sections share, each part computed on first use
    (the sentence model's likenesses among them)."""

    def __init__(
        self,
        question: Asked,
        candidates: Sequence[Candidate],
        similarity: Similarity | None,
        tuning: Tuning,
    ) -> None:
        self.asked = question
        self.question = question.question
        self.weights = question.weights
        self.candidates = candidates
        self.similarity = similarity
        self.tuning = tuning
        self.total = sum(self.weights.values()) or 1.0
        own = self.question.own
        self.own_total = sum(w for t, w in self.weights.items() if t in own) or 1.0
        # A follow-up's earlier questions' words: the subject its own words ("it", "that")
        # lean on.
        self.history_total = sum(w for t, w in self.weights.items() if t not in own)
        self.split = [split_title(c.title) for c in candidates]

    @computed_once
    def bodies(self) -> list[dict[str, int]]:
        return [term_counts(c.passage) for c in self.candidates]

    @computed_once
    def headings(self) -> list[dict[str, int]]:
        return [term_counts(heading) for _, heading in self.split]

    @computed_once
    def means(self) -> tuple[float, float]:
        """The mean length of a heading and of a passage, in terms."""
        return _mean_length(self.headings), _mean_length(self.bodies)

    @computed_once
    def meaning(self) -> list[float]:
        return _meaning(self.candidates, self.asked.meaning_query, self.similarity, self.tuning)

    @computed_once
    def titled(self) -> list[float]:
        return _title_meaning(self.candidates, self.asked.meaning_query, self.similarity)

    @computed_once
    def passages(self) -> list[float]:
        return _passage_meaning(self, self.asked.meaning_query)


class _SectionView:
    """One of the search's sections as its features read it."""

    def __init__(self, sections: _Sections, index: int) -> None:
        self.sections = sections
        self.index = index
        self.candidate = sections.candidates[index]
        self.heading = sections.split[index][1]

    @computed_once
    def fields(self) -> tuple[float, float, float, float, float]:
        """``_fields`` of this section: the question's weight in its heading, page title and
        passage, held anywhere, and of its own words."""
        s, at = self.sections, self.index
        heading_mean, body_mean = s.means
        return _fields(
            s.weights,
            s.question.own,
            (title_terms(self.heading), s.headings[at], heading_mean),
            title_terms(s.split[at][0]),
            (s.bodies[at], body_mean),
            s.tuning,
        )

    @computed_once
    def subjects(self) -> set[str]:
        return subject_terms(self.heading)


def _named(s: _Sections, v: _SectionView) -> float:
    asked_subjects = s.question.own - s.question.compounds
    return float(bool(asked_subjects) and v.subjects == asked_subjects)


def _heading_precision(s: _Sections, v: _SectionView) -> float:
    return len(v.subjects & s.weights.keys()) / len(v.subjects) if v.subjects else 0.0


def _history_coverage(s: _Sections, v: _SectionView) -> float:
    held, held_own = v.fields[3], v.fields[4]
    return (held - held_own) / s.history_total if s.history_total else 0.0


def _depth(s: _Sections, v: _SectionView) -> float:
    depth = s.tuning.scales.depth
    return min(len(_TITLE_SEPARATOR.findall(v.candidate.title)), depth) / depth


def _pairs(s: _Sections, v: _SectionView) -> float:
    pairs, window = s.question.pairs, s.tuning.pair_window
    if not pairs:
        return 0.0
    found = near_pairs(v.candidate.title, pairs, window)
    found |= near_pairs(v.candidate.passage, pairs, window)
    return pairs_share(pairs, s.weights, found)


def _code_how(s: _Sections, v: _SectionView) -> float:
    return float(s.question.wants_code and shows_code(v.candidate.passage, s.tuning.text))


# Each section feature's value, by name: a function of the search's sections and of one.
_SECTION_COLUMNS: dict[str, Callable[[_Sections, _SectionView], float]] = {
    "heading": lambda s, v: v.fields[0] / s.total,
    "page": lambda s, v: v.fields[1] / s.total,
    "body": lambda s, v: v.fields[2] / s.total,
    "coverage": lambda s, v: v.fields[3] / s.total,
    "own_coverage": lambda s, v: v.fields[4] / s.own_total,
    "heading_precision": _heading_precision,
    "named": _named,
    "rank": lambda s, v: 1 / (1 + v.index),
    "first": lambda s, v: float(v.index == 0),
    "other_kind": lambda s, v: float(_other_kind(s.asked.meaning_query, v.heading)),
    "release_notes": lambda s, v: float(
        not s.question.asks_versions and _release_notes(v.candidate.title)
    ),
    "compound": lambda s, v: float(bool(s.question.compounds & _terms(v.candidate))),
    "hits": lambda s, v: min(v.candidate.hits, s.tuning.scales.hits) / s.tuning.scales.hits,
    "depth": _depth,
    "code_how": _code_how,
    "meaning": lambda s, v: s.meaning[v.index],
    "meaning_title": lambda s, v: s.titled[v.index],
    "history_coverage": _history_coverage,
    "meaning_passage": lambda s, v: s.passages[v.index],
    "pairs": _pairs,
}


def _fields(
    weights: Mapping[str, float],
    own: Set[str],
    heading: tuple[Set[str], Mapping[str, int], float],
    page: Set[str],
    body: tuple[Mapping[str, int], float],
    tuning: Tuning,
) -> tuple[float, float, float, float, float]:
    """BM25F's parts for one section: the question's weight in its heading (its terms, their
    counts and the mean heading length), its page title and its passage (counts and mean
    length), then the weight held anywhere, and of that the question's own words'."""
    heading_terms, heading_counts, heading_mean = heading
    body_counts, body_mean = body
    body_norm = 1 - tuning.b + tuning.b * sum(body_counts.values()) / body_mean
    heading_norm = 1 - tuning.b + tuning.b * sum(heading_counts.values()) / heading_mean
    in_heading = in_page = in_body = held = held_own = 0.0
    for term, weight in weights.items():
        if term in heading_terms:
            tf = max(heading_counts.get(term, 0), 1) / heading_norm
            in_heading += weight * _saturated(tf, tuning)
        if term in page:
            in_page += weight
        if term in body_counts:
            in_body += weight * _saturated(body_counts[term] / body_norm, tuning)
        if term in heading_terms or term in page or term in body_counts:
            held += weight
            if term in own:
                held_own += weight
    return in_heading, in_page, in_body, held, held_own


def _saturated(tf: float, tuning: Tuning) -> float:
    return tf * (tuning.k1 + 1) / (tf + tuning.k1)


def _meaning(
    candidates: Sequence[Candidate], query: str, similarity: Similarity | None, tuning: Tuning
) -> list[float]:
    """Each candidate's likeness in meaning to the question (0 without ``similarity``): its
    title and the opening of the passage the search found, which say what it is about (the
    same text whether or not the section was read since, so it is embedded once)."""
    if similarity is None or not query or not candidates:
        return [0.0] * len(candidates)
    texts = [meaning_text(c.title, c.passage, tuning.meaning_chars) for c in candidates]
    scores = list(similarity(query, texts))
    if len(scores) != len(candidates):
        return [0.0] * len(candidates)
    return [float(s) for s in scores]


def _title_meaning(
    candidates: Sequence[Candidate], query: str, similarity: Similarity | None
) -> list[float]:
    """Each candidate's title's likeness in meaning to the question alone: a title says
    what a section is about where its opening (a man page's option list) may not."""
    if similarity is None or not query or not candidates:
        return [0.0] * len(candidates)
    scores = list(similarity(query, [title_text(c.title) for c in candidates]))
    if len(scores) != len(candidates):
        return [0.0] * len(candidates)
    return [float(s) for s in scores]


def _passage_meaning(sections: _Sections, query: str) -> list[float]:
    """Each candidate's likeness in meaning to the question by its likest passage, as dense
    retrieval stored them (``StoredSimilarity``): the whole passage, where ``meaning`` reads
    a title and 80 characters. A section with none stored (a lexical collection, a
    similarity that reads no collection) takes its ``meaning``, the nearest figure there is."""
    similarity = sections.similarity
    if similarity is None or not query or not sections.candidates:
        return [0.0] * len(sections.candidates)
    found: Sequence[float | None] = ()
    if isinstance(similarity, StoredSimilarity):
        found = similarity.passages(query, [c.id for c in sections.candidates])
    if len(found) != len(sections.candidates):
        found = [None] * len(sections.candidates)
    if all(value is not None for value in found):
        return [float(value) for value in found if value is not None]
    meaning = sections.meaning
    return [meaning[i] if value is None else float(value) for i, value in enumerate(found)]


def _release_notes(title: str) -> bool:
    """Whether a section belongs to a collection's release notes: its root title says so."""
    root = _TITLE_SEPARATOR.split(title, maxsplit=1)[0]
    return _RELEASE_NOTES.match(root) is not None


def _other_kind(question: str, heading: str) -> bool:
    """Whether the heading is itself a question of another kind than ``question`` ("Why
    ...?" for "How do I ...?"): a FAQ's title says which question its text answers."""
    asked_word = _QUESTION_WORD.match(question.strip())
    titled = _QUESTION_WORD.match(heading.strip())
    if asked_word is None or titled is None or not heading.rstrip().endswith("?"):
        return False
    return _KIND.get(asked_word.group(1).lower()) != _KIND.get(titled.group(1).lower())


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
