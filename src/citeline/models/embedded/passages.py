"""The embedded model's passages: a section cut into the units a reader takes in whole, the
runs of them that may answer, and what each run holds (its features).

A section's text is cut into units: the sentences of a paragraph, a list, a code block
(fenced or indented, or code stored as bare lines). A run of units may answer when it is
something a featured answer can be: it starts with a sentence (it is cited there), never with
one that leans on what came before ("This converts ...") when that sentence is there to
include; it never ends on a sentence that introduces what follows ("For example:"); it stays
within a paragraph or two and one code block; and one too short to read as an answer goes on
with what follows it. ``runs_of`` lists those runs (each start, ended where it completes, at
its paragraph's end, and past the code block that follows), bounded in number so a section of
any length costs bounded time; ``run_features`` says for each how much of the question it
holds, whether it shows code, where it sits, how long it is, how close in meaning its
paragraphs are. Which run answers is the fitted model's (``ranking``).

Every unit is the section's own text: a paragraph's line breaks become spaces, code and
lists are kept exactly, so the passage is verbatim. This module knows nothing of tools,
links or how the passage is cited.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from citeline.models.embedded.columns import computed_once, feature_rows
from citeline.models.embedded.pairs import near_pairs, pairs_share
from citeline.models.embedded.tuning import TextRules, Tuning
from citeline.stream.code_fences import CodeFences
from citeline.text.answer_terms import content_terms

UnitKind = Literal["sentence", "list", "code"]


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_ANY_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9(\[\"'`*_])")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022]|\d+[.)])\s")
# The marks the Markdown and HTML readers open a list item with: a bullet, an ordered item's
# number as the page shows it, a task list's box. Code never opens on one, so a block that
# does is a list, however many symbols its words hold: measured on the Python-docs sample, 6
# of its 308 list blocks were quoted as code blocks ("• cx_Freeze (Cross-platform)", "• Math
# operations: add(), sub(), ..."), every one of them prose; Hatch's numbered steps naming
# files ("1. <NAME>/__init__.py") were read as code once the reader wrote their numbers.
_READER_BULLET = re.compile(r"[ \t]*(?:\u2022|[\u2610\u2611]|\d{1,9}[.)])\s")
# A word written as a name of code, in the shapes the languages and configuration files of
# documentation spell names in: an option ("--force", "-n"), a call with or without its
# arguments or a macro's ("save()", "derive(Debug)", "println!(...)"), a snake_case, dotted,
# camelCase or path name ("send_file", "os.path", "maxAge", "HttpResponse", "Rc::new"), a
# generic type ("Vec<T>"), a reference ("&self"), a variable ("$HOME", "${name}"), a decorator
# or annotation ("@property"), an element or block ("<VirtualHost>", "</domain>"). A
# how-question's answer most often gives the reader one the question did not write: the
# passage that restates the question's words names nothing new (``run_names``). The shapes
# of Python's and JavaScript's names alone missed every Rust, shell and XML answer's.
_NAME_SHAPE = re.compile(
    r"(?<![\w-])(?:--?[A-Za-z][\w-]+|-[A-Za-z]\b)|\b\w+!?\([^()\n]{0,40}\)"
    r"|\b[A-Za-z]\w*_\w+\b|\b[A-Za-z_]\w+\.[A-Za-z_]\w+\b|\b[a-z]+[A-Z]\w*\b"
    r"|\b[A-Z][a-z]+[A-Z]\w*\b|\b\w+(?:::\w+)+|\b[A-Z]\w*<[^<>\n]{1,30}>"
    r"|(?<![\w&])&(?:mut\s+)?[A-Za-z_]\w*|(?<!\w)\$\{?[A-Za-z_]\w*|(?<![\w@])@[A-Za-z_][\w.]*"
    r"|</?[A-Za-z][\w:-]*(?:\s[^<>\n]{0,40})?/?>"
)
# Names new to the question that count, at most: one name given is the answer's mark, more
# say little more.
NEW_NAMES_COUNTED = 3
# An interpreter or shell prompt, or a shebang, opens a code block.
_PROMPT = re.compile(r"[ \t]*(?:>>>|\.\.\.\s|\$ |% |#!)")
_CODE_SYMBOLS = frozenset("=(){}[];<>:#\"'_.*/\\|&+-,@")
_OPENING_WORD = re.compile(r"[A-Z][a-z]+,?$")
_PLAIN_WORD = re.compile(r"[\"'(]*[A-Za-z][a-z]*(?:[-'][a-z]+)*[\"')]*[,.;:!?]?$")
# Lines that open as code does and prose never does: a Python statement's keyword or a
# decorator. A block made only of them ("import click" / "from flask import
# Flask") is code though it holds few symbols.
_CODE_LINE = re.compile(
    r"[ \t]*(?:(?:import|from|def|class|return|raise|async|await|yield|elif|except|pass)\s"
    r"|@\w)"
)
# Headings, tables, block quotes, HTML and thematic breaks: structure a passage stops at.
_STRUCTURE = re.compile(r"[ \t]*(?:#|\||>|<|[-*_]{3,}\s*$|={3,}|-{3,})")
_MARKDOWN_LINK = re.compile(
    r"!?\[(?P<text>[^\[\]\n]*)\]\((?:[^\s()]|\([^\s()]*\))*(?:[ \t]+\"[^\"\n]*\")?[ \t]*\)"
)
_HTML_LINK = re.compile(r"<a\b[^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
# What the stream pipeline reads as the answer's own markup: a link, an HTML anchor, a
# quote element, an autolink (Flask's docs write "<converter:variable_name>", which
# Markdown reads as a link to the scheme "converter"), or a line that is a sources heading
# (which would end the answer there).
_LINK_MARKUP = re.compile(
    r"\]\(|<a[\s>]|</a|<citation|^[ \t]*(?:#{1,6}[ \t]*|\*\*)"
    r"(?:sources?|references?|citations?)\b"
    r"|<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*>|<[^\s<>@]+@[^\s<>@]+>",
    re.IGNORECASE | re.MULTILINE,
)
# A sentence opening on one of these leans on the one before it ("This converts ...",
# "However, ..."): English discourse words, not any collection's wording.
_DANGLING = re.compile(
    r"(?:this|these|that|those|it|its|they|their|them|such|he|she|however|but|so|also|"
    r"then|thus|hence|therefore|otherwise|instead|similarly|likewise|moreover|furthermore|"
    r"alternatively|again|another|in\s+(?:this|that|such|either)\s+case|in\s+other\s+words|"
    r"(?:to\s+)?put\s+(?:it\s+)?another\s+way|"
    r"for\s+(?:example|instance)|the\s+(?:above|former|latter|same|result)|here)\b",
    re.IGNORECASE,
)


# A sentence that opens on one of these words in lower case is the end of a sentence that a
# code block or list cut in two. A name in code opens lower case too ("len() returns ..."),
# so only English words that never name code are listed.
_CONTINUATION = re.compile(
    r"(?:you|we|and|or|which|where|when|whereas|while|because|if|as|since|until|unless|"
    r"though|although|with|without|for|to|in|on|by|from|of|at|then|so|but|that|this|it)\s",
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One thing a reader takes in whole. ``block`` numbers the paragraph or block it is in;
    ``text`` is verbatim, a paragraph's line breaks made spaces."""

    kind: UnitKind
    block: int
    text: str
    terms: frozenset[str]
    starts_block: bool
    ends_block: bool
    quotable: bool = True
    # The paragraph a reader counts it in: a list a sentence's colon introduced, and the
    # rest of a sentence a code block cut in two, belong to the paragraph before them.
    paragraph: int = 0


def units_of(text: str, heading: str = "", rules: TextRules = TextRules()) -> list[Unit]:
    """The section's sentences, lists and code blocks in order; structure is left out, and
    so is a line that repeats the section's ``heading``."""
    units: list[Unit] = []
    paragraph = -1
    named = _plain(heading)
    for block, (kind, body) in enumerate(_blocks(text, rules)):
        if kind == "paragraph" and named and _plain(body) == named:
            # A site's section opens on its heading, which its reader keeps as a line of
            # text: "How do you remove duplicates from a list?" and "7.2.2. Saving structured
            # data with json" read as sentences, and the answer opened on them.
            kind = "structure"
        if kind == "structure":
            paragraph += 1
            continue
        if kind == "code":
            # Code is quoted exactly or not at all, and only as a block the stream pipeline
            # reads as one. The pipeline passes its links and headings through as code, not
            # as the answer's markup; where they are, no line inside may even look like a
            # fence, to be safe.
            quotable = _read_as_one_block(body) and not (
                _LINK_MARKUP.search(body)
                and any(_ANY_FENCE.match(line) for line in body.split("\n")[1:-1])
            )
            terms = frozenset(content_terms(body))
            units.append(Unit("code", block, body, terms, True, True, quotable, paragraph))
            continue
        body = _reduce_links(body)
        if kind == "list":
            if not (units and _introduces_a_list(units[-1])):
                paragraph += 1
            terms = frozenset(content_terms(body))
            quotable = not _LINK_MARKUP.search(body)
            units.append(Unit("list", block, body, terms, True, True, quotable, paragraph))
            continue
        sentences = [s.strip() for s in _SENTENCE_END.split(body) if s.strip()]
        if not (units and units[-1].kind == "code" and _CONTINUATION.match(body)):
            paragraph += 1
        for at, sentence in enumerate(sentences):
            terms = frozenset(content_terms(sentence))
            first, last = at == 0, at == len(sentences) - 1
            quotable = not _LINK_MARKUP.search(sentence)
            units.append(Unit("sentence", block, sentence, terms, first, last, quotable, paragraph))
    return units


def _plain(text: str) -> str:
    return " ".join(text.split()).casefold()


def _introduces(unit: Unit) -> bool:
    """Whether the unit is a sentence that introduces what follows it ("For example:")."""
    return unit.kind == "sentence" and unit.text.endswith(":")


def _introduces_a_list(unit: Unit) -> bool:
    return unit.kind == "list" or _introduces(unit)


def _read_as_one_block(code: str) -> bool:
    """Whether ``code``, set at the start of a line, is one fenced block as the stream
    pipeline reads one (its own ``CodeFences``): opened by its first line, closed by its
    last and not before. A block the pipeline left open would make code of the rest of the
    answer, its citations and sources list included."""
    lines = code.split("\n")
    if len(lines) < 2:
        return False
    fences = CodeFences()
    for number, line in enumerate(lines):
        fences.feed(line + "\n")
        if fences.inside != (number < len(lines) - 1):
            return False
    return True


def _reduce_links(text: str) -> str:
    """Links and images reduced to the text a reader sees: the answer cites its own sources,
    and a link of the section's would reach the pipeline as the answer's own markup."""
    return _HTML_LINK.sub(r"\1", _MARKDOWN_LINK.sub(r"\g<text>", text))


def _blocks(text: str, rules: TextRules) -> list[tuple[str, str]]:
    """(kind, text) of each block: ``code``, ``list``, ``paragraph`` or ``structure``."""
    blocks: list[tuple[str, str]] = []
    lines = text.splitlines()
    pending: list[str] = []
    # Whether the last block was code stored without fences: the next one may continue it.
    plain_code = [False]

    def close() -> None:
        if pending:
            introduced = bool(blocks) and blocks[-1][0] == "paragraph" and blocks[-1][1][-1:] == ":"
            kind, body = _classify(pending, rules, introduced)
            if kind == "code" and plain_code[0]:
                # One example split by a blank line is still one example: the fences this
                # module added around both halves become one pair.
                blocks[-1] = ("code", blocks[-1][1].removesuffix("\n```") + "\n\n" + body[4:])
            else:
                blocks.append((kind, body))
            plain_code[0] = kind == "code"
            pending.clear()

    at = 0
    while at < len(lines):
        line = lines[at]
        fence = _FENCE.match(line)
        if fence:
            close()
            mark = fence.group(1)
            end = at + 1
            while end < len(lines) and not lines[end].strip().startswith(mark):
                end += 1
            blocks.append(("code", "\n".join(lines[at : end + 1])))
            plain_code[0] = False
            at = end + 1
            continue
        if line.strip():
            pending.append(line)
        else:
            close()
        at += 1
    close()
    return blocks


def _classify(lines: list[str], rules: TextRules, introduced: bool = False) -> tuple[str, str]:
    first = lines[0]
    # A short block that a colon introduced and that does not end as a sentence ends is
    # the example it announced: a command such as "python3 -m venv tutorial-env".
    # A bulleted item is a list however short ("- json").
    example = (
        introduced
        and len(lines) <= 3
        and lines[-1].rstrip()[-1:] not in ".!?:"
        and not _LIST_ITEM.match(first)
    )
    if _READER_BULLET.match(first):
        # Dedented: a nested item quoted alone would otherwise read as indented code.
        return "list", textwrap.dedent("\n".join(line.rstrip() for line in lines))
    if first.startswith(("    ", "\t")) or example or _looks_like_code(lines, rules):
        # Fenced here, so the answer shows it as code however the collection stored it.
        return "code", "```\n" + "\n".join(line.rstrip() for line in lines) + "\n```"
    if _STRUCTURE.match(first):
        return "structure", "\n".join(lines)
    if _LIST_ITEM.match(first):
        return "list", "\n".join(line.rstrip() for line in lines)
    paragraph = " ".join(line.strip() for line in lines)
    if paragraph[-1:] not in ".!?:" and (
        len(paragraph.split()) <= rules.label_words
        or (len(lines) == 1 and _title_cased(paragraph, rules))
    ):
        return "structure", paragraph
    return "paragraph", paragraph


def _title_cased(line: str, rules: TextRules) -> bool:
    """Whether a line reads as a heading ("Sending Requests with the Test Client"): most of
    its longer words capitalised. A site's reader can keep a heading inside a section's text
    as a bare line; quoted, it reads as a sentence that never ends."""
    longer = [w for w in line.split() if len(w) > 3 and w[:1].isalpha()]
    capitals = sum(1 for w in longer if w[:1].isupper())
    return len(longer) >= 2 and capitals / len(longer) >= rules.heading_capitals


def _looks_like_code(lines: list[str], rules: TextRules) -> bool:
    """Whether a block stored as plain text (as the Markdown and HTML readers store code,
    keeping its lines but not its fences) is code: it opens on a prompt, or symbols are a
    large share of its characters."""
    if _PROMPT.match(lines[0]):
        return True
    if all(_CODE_LINE.match(line) for line in lines) or _opens_an_indented_body(lines):
        return True
    if _reads_as_prose(lines, rules):
        return False
    text = "".join("".join(line.split()) for line in lines)
    symbols = sum(1 for c in text if c in _CODE_SYMBOLS)
    return bool(text) and symbols / len(text) >= rules.code_symbol_share


def _opens_an_indented_body(lines: list[str]) -> bool:
    """Whether a line ending on a colon is followed by a deeper-indented one, as a Python
    block (``for x in y:``), a YAML mapping or a shell here-document is: reflowed prose
    never indents its next line, and a list item's continuation is a list's."""
    if _LIST_ITEM.match(lines[0]):
        return False
    return any(
        line.rstrip().endswith(":")
        and not _LIST_ITEM.match(line)
        and bool(after.strip())
        and _indent(after) > _indent(line)
        for line, after in pairwise(lines)
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _reads_as_prose(lines: list[str], rules: TextRules) -> bool:
    """Whether a block is sentences with inline code in them ("For integers, use the built-in
    int() type constructor, e.g. int('144') == 144."): it opens on a capitalised word, ends
    as a sentence ends, and most of its words are plain words. Stored without backticks,
    such a paragraph holds as many symbols as code does, and was quoted as a code block."""
    tokens = " ".join(lines).split()
    if len(tokens) < rules.prose_min_words or not _OPENING_WORD.match(tokens[0]):
        return False
    if tokens[-1][-1:] not in ".!?:":
        return False
    plain = sum(1 for token in tokens if _PLAIN_WORD.match(token))
    return plain / len(tokens) >= rules.prose_word_share


def is_dangling(sentence: str) -> bool:
    """Whether the sentence opens leaning on the one before it, or is the rest of one that
    a code block interrupted ("you might be wondering why ...", "then integer division has
    to return the floor.")."""
    opening = sentence.lstrip("*_`\"'(")
    return bool(_DANGLING.match(opening) or _CONTINUATION.match(opening))


@dataclass(frozen=True, slots=True)
class Passage:
    """A run of units, as the answer quotes it."""

    units: tuple[Unit, ...]

    @property
    def text(self) -> str:
        """The passage as the answer shows it: a sentence joins its paragraph with a space,
        every other step between units is a blank line."""
        parts: list[str] = []
        for previous, unit in zip((None, *self.units), self.units, strict=False):
            if previous is not None:
                same = unit.kind == previous.kind == "sentence" and unit.block == previous.block
                parts.append(" " if same else "\n\n")
            parts.append(unit.text)
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Run:
    """A run of a section's units that may answer: ``units[start : end + 1]``."""

    start: int
    end: int
    prose: int  # characters of prose
    code: int  # characters of its code block (0: none)
    blocks: frozenset[int]


def runs_of(units: Sequence[Unit], tuning: Tuning) -> list[Run]:
    """The runs of ``units`` that may answer, in order of their start, at most
    ``tuning.max_runs``. Each quotable sentence that does not lean on prose left out starts
    up to three: completed (it goes on until it holds ``min_answer_chars`` of prose and ends
    a block), to the end of its paragraph, and on through the code block that follows."""
    found: list[Run] = []
    for start, first in enumerate(units):
        if len(found) >= tuning.max_runs:
            break
        if first.kind != "sentence" or not first.quotable:
            continue
        if is_dangling(first.text) and any(u.kind != "code" for u in units[:start]):
            continue
        ends = list(_run_ends(units, start, tuning))
        if not ends:
            continue
        usable = [e for e in ends if not (_introduces(units[e[0]]) and e[0] + 1 < len(units))]
        if not usable:
            continue
        completed = next(
            (e for e in usable if e[1] >= tuning.min_answer_chars and units[e[0]].ends_block),
            usable[-1],
        )
        paragraph = [e for e in usable if units[e[0]].paragraph == first.paragraph]
        chosen = {completed[0]: completed}
        if paragraph and paragraph[-1][0] > completed[0]:
            chosen[paragraph[-1][0]] = paragraph[-1]
        if not completed[2]:
            with_code = next((e for e in usable if e[2] and e[0] > completed[0]), None)
            if with_code is not None:
                chosen[with_code[0]] = with_code
        for end, prose, code, blocks in sorted(chosen.values()):
            found.append(Run(start, end, prose, code, blocks))
    return found[: tuning.max_runs]


def _run_ends(
    units: Sequence[Unit], start: int, tuning: Tuning
) -> Iterator[tuple[int, int, int, frozenset[int]]]:
    """Each end a run from ``start`` may have within the bounds (quotable units, one code
    block of ``max_code_chars``, ``max_paragraphs`` paragraphs, ``max_prose_chars`` of prose
    past its first unit, ``max_units`` units), with its prose and code characters and its
    prose blocks so far."""
    prose = code = 0
    blocks: set[int] = set()
    paragraphs: set[int] = set()
    for end in range(start, min(len(units), start + tuning.max_units)):
        unit = units[end]
        if not unit.quotable:
            return
        if unit.kind == "code":
            if code or len(unit.text) > tuning.max_code_chars:
                return
            code = len(unit.text)
        else:
            blocks.add(unit.block)
            paragraphs.add(unit.paragraph)
            prose += len(unit.text)
            if len(paragraphs) > tuning.max_paragraphs or (
                prose > tuning.max_prose_chars and end > start
            ):
                return
        yield end, prose, code, frozenset(blocks)


def block_texts(units: Sequence[Unit], chars: int) -> dict[int, str]:
    """Each prose block's text (its sentences or list), by block number, as it is read for
    meaning: its first ``chars`` characters."""
    texts: dict[int, list[str]] = {}
    for unit in units:
        if unit.kind != "code":
            texts.setdefault(unit.block, []).append(unit.text)
    return {b: " ".join(t)[:chars] for b, t in texts.items()}


@dataclass(frozen=True, slots=True)
class Question:
    """What run features need of the question: its terms' weights, its own terms (not the
    conversation's), the names it writes as code and what it asks for."""

    weights: Mapping[str, float]
    own: frozenset[str]
    compounds: frozenset[str]
    code_names: tuple[str, ...]
    wants_code: bool
    asks_why: bool
    asks_versions: bool
    # Its neighbouring subject terms (``pairs.subject_pairs``): what a text writing
    # them together is about.
    pairs: frozenset[frozenset[str]] = frozenset()


# The features of a run, in the order ``run_features`` gives them: what it holds of the
# question beside the other runs of its section.
PASSAGE_FEATURES = (
    "run_coverage",
    "run_prose_coverage",
    "run_title_coverage",
    "run_own_coverage",
    "run_code",
    "run_code_how",
    "run_lead",
    "run_lead_how",
    "run_lead_why",
    "run_position",
    "run_whole",
    "run_length",
    "run_asked_code",
    "run_compound",
    "run_meaning",
    "run_meaning_max",
    "run_first_coverage",
    "run_first_mention",
    "run_names",
    "run_found",
    "run_pairs",
)
# A unit shorter than this is not placed in a search passage by its text: a closing brace,
# "Example:" or "Note" is written in many places of a section.
FOUND_UNIT_CHARS = 24
# The features read from how alike in meaning a section's paragraphs are to the question: a
# section's are asked of the sentence model only when one of them is wanted.
BLOCK_MEANING_FEATURES = frozenset({"run_meaning", "run_meaning_max", "read_meaning"})
# The features of a section once read, in the order ``read_features`` gives them, beside its
# score before it was read and its best run's: what its whole text holds of the question.
READ_FEATURES = (
    "read_section",
    "read_best_run",
    "read_coverage",
    "read_body",
    "read_meaning",
    "read_length",
    "read_code_how",
    "read_pairs",
)


def run_features(
    question: Question,
    units: Sequence[Unit],
    runs: Sequence[Run],
    title_terms: frozenset[str],
    meaning: Mapping[int, float],
    tuning: Tuning,
    wanted: Set[str] = frozenset(PASSAGE_FEATURES),
    found: Sequence[str] = (),
) -> list[list[float]]:
    """Each run's features (``PASSAGE_FEATURES``), given the section's title terms, how
    alike in meaning each of its prose blocks is to the question (empty without a sentence
    model) and the passages the search returned of it, best first; a feature not ``wanted``
    is 0.0 and is not computed (``columns``)."""
    section = _RunsOf(question, units, runs, title_terms, meaning, tuning, found)
    views = (_RunView(section, run) for run in runs)
    return feature_rows(PASSAGE_FEATURES, _RUN_COLUMNS, wanted, section, views)


class _RunsOf:
    """What the features of one section's runs share, each part computed on first use: the
    names of code each unit gives (``run_names``) cost more than all the other features of
    a long section together (49 ms of CPU on a 200 KB one, 80 % of its run features)."""

    def __init__(
        self,
        question: Question,
        units: Sequence[Unit],
        runs: Sequence[Run],
        title_terms: frozenset[str],
        meaning: Mapping[int, float],
        tuning: Tuning,
        found: Sequence[str] = (),
    ) -> None:
        self.question = question
        self.found = found
        self.weights = question.weights
        self.units = units
        self.title_terms = title_terms
        self.meaning = meaning
        self.tuning = tuning
        self.total = sum(self.weights.values()) or 1.0
        self.first_start = next((r.start for r in runs), 0)

    def share(self, held: Set[str]) -> float:
        return _share(self.weights, held, self.total)

    @computed_once
    def own_total(self) -> float:
        return sum(w for t, w in self.weights.items() if t in self.question.own) or 1.0

    @computed_once
    def first_seen(self) -> dict[str, int]:
        return _first_seen(self.units, self.weights.keys())

    @computed_once
    def new_names(self) -> list[set[str]]:
        return _new_names(self.question, self.units)

    @computed_once
    def placed(self) -> list[float]:
        return _placed(self.units, self.found)

    @computed_once
    def unit_pairs(self) -> list[set[frozenset[str]]]:
        return _unit_pairs(self.question, self.units, self.tuning)


class _RunView:
    """One run as its features read it, each shared part computed on first use."""

    def __init__(self, section: _RunsOf, run: Run) -> None:
        self.run = run
        self.units = section.units[run.start : run.end + 1]
        self.lead = float(run.start == section.first_start)
        self.has_code = float(run.code > 0)
        self._meaning = section.meaning

    @computed_once
    def held(self) -> set[str]:
        return set().union(*(unit.terms for unit in self.units))

    @computed_once
    def prose_held(self) -> set[str]:
        return set().union(*(u.terms for u in self.units if u.kind != "code"))

    @computed_once
    def block_meaning(self) -> list[float]:
        return [self._meaning[b] for b in self.run.blocks if b in self._meaning]


def _mean_meaning(s: _RunsOf, r: _RunView) -> float:
    found = r.block_meaning
    return sum(found) / len(found) if found else 0.0


def _asked_code(s: _RunsOf, r: _RunView) -> float:
    text = " ".join(unit.text for unit in r.units)
    return float(any(name in text for name in s.question.code_names))


def _first_mention(s: _RunsOf, r: _RunView) -> float:
    start, end = r.run.start, r.run.end
    return s.share({t for t, at in s.first_seen.items() if start <= at <= end})


def _names_given(s: _RunsOf, r: _RunView) -> float:
    given = set().union(*s.new_names[r.run.start : r.run.end + 1])
    return min(len(given), NEW_NAMES_COUNTED) / NEW_NAMES_COUNTED


# Each run feature's value, by name: a function of the section's runs and of the run.
_RUN_COLUMNS: dict[str, Callable[[_RunsOf, _RunView], float]] = {
    "run_coverage": lambda s, r: s.share(r.held),
    "run_prose_coverage": lambda s, r: s.share(r.prose_held),
    "run_title_coverage": lambda s, r: s.share(r.held | s.title_terms),
    "run_own_coverage": lambda s, r: _share(s.weights, r.held & s.question.own, s.own_total),
    "run_code": lambda s, r: r.has_code,
    "run_code_how": lambda s, r: r.has_code * s.question.wants_code,
    "run_lead": lambda s, r: r.lead,
    "run_lead_how": lambda s, r: r.lead * s.question.wants_code,
    "run_lead_why": lambda s, r: r.lead * s.question.asks_why,
    "run_position": lambda s, r: r.run.start / max(len(s.units), 1),
    "run_whole": lambda s, r: float(r.units[0].starts_block and r.units[-1].ends_block),
    "run_length": lambda s, r: r.run.prose / s.tuning.max_prose_chars,
    "run_asked_code": _asked_code,
    "run_compound": lambda s, r: float(bool(s.question.compounds & r.held)),
    "run_meaning": _mean_meaning,
    "run_meaning_max": lambda s, r: max(r.block_meaning, default=0.0),
    "run_first_coverage": lambda s, r: s.share(r.units[0].terms),
    "run_first_mention": _first_mention,
    "run_names": _names_given,
    "run_found": lambda s, r: max(s.placed[r.run.start : r.run.end + 1], default=0.0),
    "run_pairs": lambda s, r: pairs_share(
        s.question.pairs, s.weights, set().union(*s.unit_pairs[r.run.start : r.run.end + 1])
    ),
}


def _unit_pairs(
    question: Question, units: Sequence[Unit], tuning: Tuning
) -> list[set[frozenset[str]]]:
    """Each unit's pairs of the question's neighbouring terms written near each other: a
    sentence, list or code block, since a pair across two sentences is not one name."""
    pairs, window = question.pairs, tuning.pair_window
    return [near_pairs(unit.text, pairs, window) if pairs else set() for unit in units]


def _placed(units: Sequence[Unit], found: Sequence[str]) -> list[float]:
    """Where the search placed each unit: 1 / (1 + i) for the first of the section's search
    passages (best first) that holds it, 0 for none. Inside a long section, the passage the
    search ranked (by words and by meaning, against the whole collection) is where it
    matched the question; the run's other features compare it with its own section only."""
    passages = [_plain(text) for text in found]
    placed: list[float] = []
    for unit in units:
        text = _plain(unit.text)
        at = (
            next((i for i, passage in enumerate(passages) if text in passage), None)
            if len(text) >= FOUND_UNIT_CHARS
            else None
        )
        placed.append(0.0 if at is None else 1.0 / (1 + at))
    return placed


def _new_names(question: Question, units: Sequence[Unit]) -> list[set[str]]:
    """Each unit's names of code (``_NAME_SHAPE``) that the question does not write."""
    asked = {name.lower() for name in question.code_names}
    return [{n for n in _NAME_SHAPE.findall(u.text) if n.lower() not in asked} for u in units]


def _share(weights: Mapping[str, float], held: Set[str], total: float) -> float:
    """The share of the question's weight (``total``) that the terms ``held`` carry."""
    return sum(w for t, w in weights.items() if t in held) / total


def _first_seen(units: Sequence[Unit], terms: Set[str]) -> dict[str, int]:
    """Where each of ``terms`` is first written in the section (its unit's index). The
    passage that brings a term in is the one the passages after it lean on: the output
    shown after an example, the rest of a paragraph whose first sentence said it."""
    found: dict[str, int] = {}
    for at, unit in enumerate(units):
        for term in unit.terms & terms:
            found.setdefault(term, at)
    return found


def read_features(
    question: Question,
    units: Sequence[Unit],
    title_terms: frozenset[str],
    meaning: Mapping[int, float],
    tuning: Tuning,
    wanted: Set[str] = frozenset(READ_FEATURES),
) -> list[float]:
    """The read section's own features (``READ_FEATURES`` but the first two, its score
    before reading and its best run's, which the caller knows): the share of the question its
    whole text and title hold, BM25 over its text (saturated term frequency, normalised by
    ``Scales.read_words`` words), its likest paragraph in meaning, its length, and whether it
    shows code to a question asking how. A feature not ``wanted`` is 0.0, not computed."""
    read = _Read(question, units, title_terms, meaning, tuning)
    return feature_rows(READ_FEATURES[2:], _READ_COLUMNS, wanted, read, [None])[0]


class _Read:
    """What a read section's features share: its terms' counts and its words, counted once
    on first use."""

    def __init__(
        self,
        question: Question,
        units: Sequence[Unit],
        title_terms: frozenset[str],
        meaning: Mapping[int, float],
        tuning: Tuning,
    ) -> None:
        self.question = question
        self.units = units
        self.title_terms = title_terms
        self.meaning = meaning
        self.tuning = tuning
        self.total = sum(question.weights.values()) or 1.0

    @computed_once
    def counted(self) -> tuple[dict[str, int], int]:
        """How many units hold each term, and how many words the units have."""
        counts: dict[str, int] = {}
        words = 0
        for unit in self.units:
            for term in unit.terms:
                counts[term] = counts.get(term, 0) + 1
            words += len(unit.text.split())
        return counts, words


def _read_coverage(read: _Read, _: None) -> float:
    held = set(read.title_terms) | read.counted[0].keys()
    return _share(read.question.weights, held, read.total)


def _read_body(read: _Read, _: None) -> float:
    counts, words = read.counted
    tuning = read.tuning
    norm = 1 - tuning.b + tuning.b * words / tuning.scales.read_words
    body = 0.0
    for term, weight in read.question.weights.items():
        tf = counts.get(term, 0) / norm
        body += weight * tf * (tuning.k1 + 1) / (tf + tuning.k1)
    return body / read.total


def _read_pairs(read: _Read, _: None) -> float:
    pairs = read.question.pairs
    if not pairs:
        return 0.0
    window = read.tuning.pair_window
    found: set[frozenset[str]] = set()
    for unit in read.units:
        found |= near_pairs(unit.text, pairs, window)
        if len(found) == len(pairs):
            break
    return pairs_share(pairs, read.question.weights, found)


def _read_length(read: _Read, _: None) -> float:
    words = read.counted[1]
    return math.log1p(words) / math.log1p(read.tuning.scales.read_words * 10)


# Each of a read section's own features, by name (``read_features``).
_READ_COLUMNS: dict[str, Callable[[_Read, None], float]] = {
    "read_coverage": _read_coverage,
    "read_body": _read_body,
    "read_meaning": lambda read, _: max(read.meaning.values(), default=0.0),
    "read_length": _read_length,
    "read_code_how": lambda read, _: float(
        read.question.wants_code and any(unit.kind == "code" for unit in read.units)
    ),
    "read_pairs": _read_pairs,
}


def shows_code(text: str, rules: TextRules) -> bool:
    """Whether ``text`` holds a block of code, as ``units_of`` would read it."""
    return any(kind == "code" for kind, _ in _blocks(text, rules))


def passage(units: Sequence[Unit], run: Run) -> Passage:
    """The run's units as a passage."""
    return Passage(tuple(units[run.start : run.end + 1]))
