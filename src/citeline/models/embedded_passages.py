"""The embedded model's passage choice: the contiguous part of one section that answers.

A section's text is cut into units a reader takes in whole: the sentences of a
paragraph, a list, a code block (fenced or indented). The answer is the run of units
that covers the most of the question's weighted terms within a length bound (and, given
each paragraph's likeness in meaning to the question, whose paragraphs are likest), under
three rules a featured answer keeps: it starts with a sentence (it is cited there), never
with one that leans on what came before ("This converts ...") when that sentence is there
to include; it never ends on a sentence that introduces what follows ("For example:");
and for a "how do I" question it carries the code block that shows how, if one is near.
A run too short to read as an answer goes on with what follows it.

Every unit is the section's own text: a paragraph's line breaks become spaces, code and
lists are kept exactly, so the passage is verbatim. This module knows nothing of tools,
links or how the passage is cited.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from citeline.models.embedded_terms import content_terms
from citeline.stream.code_fences import CodeFences

UnitKind = Literal["sentence", "list", "code"]

# A featured answer is a paragraph, not a page: about 120 words of prose, and one code
# block of up to 40 lines of 30 characters. Measured on the Python-docs sample, 9 in 10 of
# its paragraphs fit the prose bound whole, and the code examples that answer a "how do I"
# fit the code bound.
MAX_PROSE_CHARS = 700
MAX_CODE_CHARS = 1_200
# A run longer than this many units is never the most relevant contiguous passage.
MAX_UNITS = 8
# What a run is worth beside the share of the question's weight it covers: a sentence
# that adds no term costs a little, so the passage stays tight; a code block that answers
# "how do I" is worth 0.4 of the question; a whole paragraph (started and ended at its own
# bounds) is worth more than a cut one, because a cut reads as a cut. Measured on the
# development set: code at 0.4 and a "how do I" lead at 0.1 put an expected term in 0.671
# of answers, against 0.659 at 0.25 and 0.2.
LENGTH_COST = 0.02 / 100  # per character, as a share of the question's weight
CODE_WORTH = 0.4
WHOLE_PARAGRAPH_WORTH = 0.15
# A section's lead says what it is about; a later run must cover more to beat it. For
# "how do I" the code that shows how is often further down, so the lead counts less.
LEAD_WORTH = 0.2
HOW_LEAD_WORTH = 0.1
# A "why" question asks for a reason, which a section's lead (what it is) seldom gives. An
# expected term in the answer, Python follow-ups / Flask: 68.8 / 71.4 % with the lead at 0.2,
# 71.9 / 72.7 % at 0 and at 0.05 (the Python docs 84.1 % throughout: one won, one lost).
WHY_LEAD_WORTH = 0.0
# Given a sentence model, a run gains its closest paragraph's cosine similarity to the
# question (about 0.1 to 0.7) times this: words shared miss the paragraph that says it in
# other words ("loop over a list backwards" against "To loop over a sequence in reverse").
# An expected term in the answer, Python-docs / Flask sets, by the run's closest block:
# 0.720 / 0.675 without, 0.793 / 0.701 at 0.5, 0.805 / 0.688 at 1, 0.793 / 0.688 at 2; by
# its first block 0.756 / 0.688; by the mean of its blocks (kept: a run that opens beside
# the point and reaches the answer late is not the answer) 0.793 / 0.701.
PASSAGE_MEANING_WEIGHT = 1.0
# What of a paragraph is read for meaning: its point is made early, and every character
# costs model time. With the rules below, 200 and 300 score alike on every development
# file; 120 loses (Python docs 0.817 -> 0.780, Flask follow-ups 0.750 -> 0.600).
MEANING_BLOCK_CHARS = 200
# A passage shorter than this in prose reads as a fragment ("The initial expression in a list
# comprehension can be any arbitrary expression, including another list comprehension."):
# it goes on with what follows it, within the bounds above. An expected term in the answer,
# Python-docs follow-ups / Flask sets: 0.531 / 0.701 without, 0.594 / 0.701 at 150, 0.656 /
# 0.714 at 250, the same at 350 and 500; the Python-docs set 0.817 throughout.
MIN_ANSWER_CHARS = 250
# Paragraphs a passage may span: an answer is one paragraph and what completes it.
MAX_PARAGRAPHS = 2
# A "paragraph" of a few words with no closing stop is a label ("Note", "Example"), not prose.
LABEL_WORDS = 3

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_ANY_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9(\[\"'`*_])")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022]|\d+[.)])\s")
# The bullet the Markdown and HTML readers write for a list item. Code never opens on one,
# so a block that does is a list, however many symbols its words hold: measured on the
# Python-docs sample, 6 of its 308 list blocks were quoted as code blocks ("• cx_Freeze
# (Cross-platform)", "• Math operations: add(), sub(), ..."), every one of them prose.
_READER_BULLET = re.compile(r"[ \t]*\u2022\s")
# An interpreter or shell prompt, or a shebang, opens a code block.
_PROMPT = re.compile(r"[ \t]*(?:>>>|\.\.\.\s|\$ |% |#!)")
_CODE_SYMBOLS = frozenset("=(){}[];<>:#\"'_.*/\\|&+-,@")
# Measured on the Python-docs sample as its readers store it: prose paragraphs hold 3 to 8 %
# of these symbols among their non-blank characters, code blocks 15 % and more.
CODE_SYMBOL_SHARE = 0.15
# A block of at least this many words, half of them plain words, that opens on a capitalised
# word and ends on a stop is prose however many symbols its inline code brings: code lines
# open on keywords, names or prompts and rarely end on a full stop.
PROSE_MIN_WORDS = 6
PROSE_WORD_SHARE = 0.5
_OPENING_WORD = re.compile(r"[A-Z][a-z]+,?$")
_PLAIN_WORD = re.compile(r"[\"'(]*[A-Za-z][a-z]*(?:[-'][a-z]+)*[\"')]*[,.;:!?]?$")
# Lines that open as code does and prose never does: a Python statement's keyword or a
# decorator. A block made only of them ("import click" / "from flask import
# Flask") is code though it holds few symbols.
_CODE_LINE = re.compile(
    r"[ \t]*(?:(?:import|from|def|class|return|raise|async|await|yield|elif|except|pass)\s"
    r"|@\w)"
)
# Of a line's words longer than three letters, this share capitalised makes it a heading.
HEADING_CAPITALS = 0.6
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


# A sentence that opens on a version note or a field list's label is about the entry above
# it, not an answer to open with: Sphinx's "Changed in version 1.0:", "New in version 3.2.",
# "Deprecated since version 3.10", and its API fields "Parameters:", "Returns:", "Raises:".
# Over Flask's docs such openings answered "How do I get query string parameters?" with
# "Parameters: args (Any)" and "How do I change every response?" with a change note.
_NOTE_OR_LABEL = re.compile(
    r"(?:(?:changed|new|added)\s+in\s+version|deprecated\s+since\s+version|"
    r"(?:parameters|returns?|return\s+type|raises|yields|keyword\s+arguments)\s*:)",
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


def units_of(text: str, heading: str = "") -> list[Unit]:
    """The section's sentences, lists and code blocks in order; structure is left out, and
    so is a line that repeats the section's ``heading``."""
    units: list[Unit] = []
    paragraph = -1
    named = _plain(heading)
    for block, (kind, body) in enumerate(_blocks(text)):
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


def _blocks(text: str) -> list[tuple[str, str]]:
    """(kind, text) of each block: ``code``, ``list``, ``paragraph`` or ``structure``."""
    blocks: list[tuple[str, str]] = []
    lines = text.splitlines()
    pending: list[str] = []
    # Whether the last block was code stored without fences: the next one may continue it.
    plain_code = [False]

    def close() -> None:
        if pending:
            introduced = bool(blocks) and blocks[-1][0] == "paragraph" and blocks[-1][1][-1:] == ":"
            kind, body = _classify(pending, introduced)
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


def _classify(lines: list[str], introduced: bool = False) -> tuple[str, str]:
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
    if first.startswith(("    ", "\t")) or example or _looks_like_code(lines):
        # Fenced here, so the answer shows it as code however the collection stored it.
        return "code", "```\n" + "\n".join(line.rstrip() for line in lines) + "\n```"
    if _STRUCTURE.match(first):
        return "structure", "\n".join(lines)
    if _LIST_ITEM.match(first):
        return "list", "\n".join(line.rstrip() for line in lines)
    paragraph = " ".join(line.strip() for line in lines)
    if paragraph[-1:] not in ".!?:" and (
        len(paragraph.split()) <= LABEL_WORDS or (len(lines) == 1 and _title_cased(paragraph))
    ):
        return "structure", paragraph
    return "paragraph", paragraph


def _title_cased(line: str) -> bool:
    """Whether a line reads as a heading ("Sending Requests with the Test Client"): most of
    its longer words capitalised. A site's reader can keep a heading inside a section's text
    as a bare line; quoted, it reads as a sentence that never ends."""
    longer = [w for w in line.split() if len(w) > 3 and w[:1].isalpha()]
    capitals = sum(1 for w in longer if w[:1].isupper())
    return len(longer) >= 2 and capitals / len(longer) >= HEADING_CAPITALS


def _looks_like_code(lines: list[str]) -> bool:
    """Whether a block stored as plain text (as the Markdown and HTML readers store code,
    keeping its lines but not its fences) is code: it opens on a prompt, or symbols are a
    large share of its characters."""
    if _PROMPT.match(lines[0]):
        return True
    if all(_CODE_LINE.match(line) for line in lines) or _opens_an_indented_body(lines):
        return True
    if _reads_as_prose(lines):
        return False
    text = "".join("".join(line.split()) for line in lines)
    symbols = sum(1 for c in text if c in _CODE_SYMBOLS)
    return bool(text) and symbols / len(text) >= CODE_SYMBOL_SHARE


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


def _reads_as_prose(lines: list[str]) -> bool:
    """Whether a block is sentences with inline code in them ("For integers, use the built-in
    int() type constructor, e.g. int('144') == 144."): it opens on a capitalised word, ends
    as a sentence ends, and most of its words are plain words. Stored without backticks,
    such a paragraph holds as many symbols as code does, and was quoted as a code block."""
    tokens = " ".join(lines).split()
    if len(tokens) < PROSE_MIN_WORDS or not _OPENING_WORD.match(tokens[0]):
        return False
    if tokens[-1][-1:] not in ".!?:":
        return False
    plain = sum(1 for token in tokens if _PLAIN_WORD.match(token))
    return plain / len(tokens) >= PROSE_WORD_SHARE


def is_dangling(sentence: str) -> bool:
    """Whether the sentence opens leaning on the one before it, or is the rest of one that
    a code block interrupted ("you might be wondering why ...", "then integer division has
    to return the floor.")."""
    opening = sentence.lstrip("*_`\"'(")
    return bool(_DANGLING.match(opening) or _CONTINUATION.match(opening))


def _completed(units: list[Unit], start: int, end: int) -> int:
    """The run's end moved on until it says enough to read as an answer (``MIN_ANSWER_CHARS``
    of prose), within the bounds of any run, never stopping on a sentence that introduces
    what it leaves out."""
    chosen = end
    for at, prose, _, _ in _run_ends(units, start):
        if at > end and not _introduces(units[at]):
            chosen = at
        if at >= end and prose >= MIN_ANSWER_CHARS:
            break
    return chosen


def _run_ends(units: list[Unit], start: int) -> Iterator[tuple[int, int, int, set[int]]]:
    """Each end a run from ``start`` may have within the bounds (quotable units, one code
    block of ``MAX_CODE_CHARS``, ``MAX_PARAGRAPHS`` paragraphs, ``MAX_PROSE_CHARS`` of prose
    past its first unit, ``MAX_UNITS`` units), with the run's prose and code characters and
    its paragraphs so far (the same set each time, grown: read it before the next)."""
    prose = code = 0
    blocks: set[int] = set()
    paragraphs: set[int] = set()
    for end in range(start, min(len(units), start + MAX_UNITS)):
        unit = units[end]
        if not unit.quotable:
            return
        if unit.kind == "code":
            if code or len(unit.text) > MAX_CODE_CHARS:
                return
            code = len(unit.text)
        else:
            blocks.add(unit.block)
            paragraphs.add(unit.paragraph)
            prose += len(unit.text)
            if len(paragraphs) > MAX_PARAGRAPHS or (prose > MAX_PROSE_CHARS and end > start):
                return
        yield end, prose, code, blocks


def block_texts(units: list[Unit]) -> dict[int, str]:
    """Each prose block's text (its sentences or list), by block number, as it is read for
    meaning."""
    texts: dict[int, list[str]] = {}
    for unit in units:
        if unit.kind != "code":
            texts.setdefault(unit.block, []).append(unit.text)
    return {b: " ".join(t)[:MEANING_BLOCK_CHARS] for b, t in texts.items()}


def _run_meaning(meaning: Mapping[int, float], blocks: set[int]) -> float:
    """A run is as close in meaning as its paragraphs on average: one beside the point
    costs it, so the run that starts at the answer beats one that reaches it late."""
    return sum(meaning.get(b, 0.0) for b in blocks) / len(blocks) if blocks else 0.0


@dataclass(frozen=True, slots=True)
class Passage:
    """A chosen run of units and the question weight it covers (0 to 1)."""

    units: tuple[Unit, ...]
    coverage: float

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


def best_passage(
    units: list[Unit],
    weights: Mapping[str, float],
    *,
    wants_code: bool,
    meaning: Mapping[int, float] | None = None,
    asks_why: bool = False,
    notes_answer: bool = False,
) -> Passage | None:
    """The run of ``units`` that answers best, or ``None`` when no run starts with a sentence.
    ``meaning`` gives, by block number, how alike in meaning a block is to the question; a
    version note or a field's label opens a run only when ``notes_answer`` (the question is
    about versions)."""
    total = sum(weights.values()) or 1.0
    meaning = meaning or {}
    best: tuple[float, int, int] | None = None
    for start, first in enumerate(units):
        if first.kind != "sentence" or not first.quotable:
            continue
        if is_dangling(first.text) and any(u.kind != "code" for u in units[:start]):
            continue
        if not notes_answer and _NOTE_OR_LABEL.match(first.text):
            continue
        covered: set[str] = set()
        for end, prose, code, blocks in _run_ends(units, start):
            unit = units[end]
            covered |= unit.terms
            if _introduces(unit) and end + 1 < len(units):
                continue  # it introduces the next unit, which must come with it
            score = sum(weights.get(t, 0.0) for t in covered) / total
            score -= LENGTH_COST * (prose + code / 4)
            if wants_code and code:
                score += CODE_WORTH
            if first.starts_block and unit.ends_block:
                score += WHOLE_PARAGRAPH_WORTH
            if start == 0:
                score += (
                    WHY_LEAD_WORTH if asks_why else HOW_LEAD_WORTH if wants_code else LEAD_WORTH
                )
            if meaning:
                score += PASSAGE_MEANING_WEIGHT * _run_meaning(meaning, blocks)
            if best is None or score > best[0]:
                best = (score, start, end)
    if best is None:
        return None
    _, start, end = best
    end = _completed(units, start, end)
    chosen = tuple(units[start : end + 1])
    covered_terms = set().union(*(u.terms for u in chosen))
    coverage = sum(weights.get(t, 0.0) for t in covered_terms) / total
    return Passage(chosen, coverage)
