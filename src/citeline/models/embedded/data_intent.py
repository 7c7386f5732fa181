"""What figure a data question asks for, read from its words against one table's columns.

``read_intent`` finds, for the embedded model: the aggregate (a count; an average; a minimum or
maximum, from "lightest", "longest", "maximum"), the column it is over (matched through the
column's name and description, with a few measurement words: "heavy" and "weigh" mean mass or
weight, "long" and "short" mean length), the values the question names (looked up in the
column's own distinct values, as the table's text lists them), comparisons ("more than 5,000"),
a missing value ("not recorded"), and the grouping ("each year", "which island", or two values
of one column named together).

Every rule reads English question words and the table's own text; nothing here knows one
table. When a question is ambiguous (two columns fit "long" equally), the intent has no column
and the caller says it found nothing rather than guess. It does not choose a measure or write
SQL (``citeline.models.embedded.data`` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeline.data.facts import ColumnFacts, TableFacts, Value
from citeline.text.answer_terms import content_terms

# Measurement words and the column words they stand for. English, not any one table's: a
# question says "heavy" where a column says "mass", "long" where it says "length".
_DIMENSIONS = {
    "mass weight": "heavy heavier heaviest weigh weighs weighed weight light lighter lightest",
    "length": "long longer longest short shorter shortest",
    "depth": "deep deeper deepest shallow shallower shallowest",
    "height": "tall taller tallest high higher highest height",
    "width": "wide wider widest narrow narrower narrowest",
    "age": "old older oldest young younger youngest",
    "price cost": "expensive cheap cheaper cheapest costly",
}
_MEANS = {
    word: content_terms(means) for means, words in _DIMENSIONS.items() for word in words.split()
}

_MAX_WORDS = frozenset(
    """heaviest longest largest biggest highest tallest deepest widest oldest greatest maximum
    max most costliest""".split()  # noqa: SIM905 (a word list reads better as words)
)
_MIN_WORDS = frozenset(
    """lightest shortest smallest lowest shallowest narrowest youngest least minimum min fewest
    cheapest""".split()  # noqa: SIM905 (a word list reads better as words)
)
_COUNT = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.IGNORECASE)
_AVERAGE = re.compile(r"\baverage\b|\bmean\b|\btypical\b|\baveraged?\b", re.IGNORECASE)
_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
_COMPARISONS = [
    (
        re.compile(
            rf"\b(?:more|greater|heavier|longer|larger|bigger|higher|taller|deeper|older)"
            rf"\s+than\s+{_NUMBER}",
            re.IGNORECASE,
        ),
        ">",
    ),
    (
        re.compile(
            rf"\b(?:less|fewer|lighter|shorter|smaller|lower|shallower|younger)\s+than\s+"
            rf"{_NUMBER}",
            re.IGNORECASE,
        ),
        "<",
    ),
    (re.compile(rf"\b(?:over|above|exceeding)\s+{_NUMBER}", re.IGNORECASE), ">"),
    (re.compile(rf"\b(?:under|below)\s+{_NUMBER}", re.IGNORECASE), "<"),
    (re.compile(rf"\bat least\s+{_NUMBER}", re.IGNORECASE), ">="),
    (re.compile(rf"\bat most\s+{_NUMBER}", re.IGNORECASE), "<="),
]
_MISSING = re.compile(
    r"\bnot (?:recorded|determined|known|measured|given|noted)\b|\bmissing\b|\bunknown\b"
    r"|\bundetermined\b|\bwithout an?\b|\bno recorded\b",
    re.IGNORECASE,
)
_GROUP = re.compile(r"\b(?:each|every|per|by|which|what)\s+([A-Za-z][\w-]*)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Comparison:
    column: ColumnFacts
    operator: str
    number: float


@dataclass(frozen=True, slots=True)
class Intent:
    """The figure a question asks for. ``function`` is ``count``, ``avg``, ``min`` or ``max``;
    ``target`` the column it is over (``None`` for a count); ``equals`` each column with the
    values the question names (two or more mean "each of these"); ``rank`` is ``desc`` or
    ``asc`` when it asks which group has the most or least; ``word`` is the question's own
    superlative ("longest"), for the answer to reuse."""

    table: TableFacts
    function: str
    target: ColumnFacts | None
    equals: tuple[tuple[ColumnFacts, tuple[Value, ...]], ...] = ()
    group_by: tuple[ColumnFacts, ...] = ()
    missing: tuple[ColumnFacts, ...] = ()
    comparisons: tuple[Comparison, ...] = ()
    rank: str | None = None
    word: str = ""

    @property
    def filter_columns(self) -> set[str]:
        return (
            {column.name for column, _ in self.equals}
            | {c.name for c in self.missing}
            | {comparison.column.name for comparison in self.comparisons}
        )


def read_intent(question: str, tables: list[TableFacts]) -> Intent | None:
    """The question's intent over the table it fits best, or ``None`` when it asks for no
    figure this can compute (no aggregate, or no single column to compute it over)."""
    table = _pick_table(question, tables)
    if table is None:
        return None
    comparisons_found = _comparisons_in(question)
    masked = _mask(question, [span for *_, span in comparisons_found])
    equals = _named_values(masked, table)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", masked)]
    group_by = _grouping(masked, table, {column.name for column, _ in equals})
    group_by += tuple(
        column for column, values in equals if len(values) > 1 and column not in group_by
    )
    missing = tuple(
        column
        for column in table.columns
        if _MISSING.search(masked) and _name_named(column, masked)
    )
    most = next((w for w in words if w in _MAX_WORDS), "")
    least = next((w for w in words if w in _MIN_WORDS), "")
    used = (
        {column.name for column, _ in equals}
        | {c.name for c in group_by}
        | {c.name for c in missing}
    )
    target = _target(question, table, used)
    comparisons = tuple(
        Comparison(target, operator, number)
        for operator, number, _ in comparisons_found
        if target is not None
    )
    if comparisons_found and target is None:
        return None
    word = most or least
    chosen = _function_and_rank(masked, most, least, bool(group_by), bool(comparisons), target)
    if chosen is None:
        return None
    function, rank = chosen
    return Intent(
        table=table,
        function=function,
        target=None if function == "count" else target,
        equals=tuple(equals),
        group_by=group_by,
        missing=missing,
        comparisons=comparisons,
        rank=rank,
        word=word,
    )


def column_terms(column: ColumnFacts) -> set[str]:
    """The content terms of a column's name and description: what a question names it by."""
    return content_terms(column.name.replace("_", " ") + " " + column.description)


def _comparisons_in(question: str) -> list[tuple[str, float, tuple[int, int]]]:
    """Each comparison the question makes ("heavier than 4,000"): operator, number, span."""
    found: list[tuple[str, float, tuple[int, int]]] = []
    for pattern, operator in _COMPARISONS:
        for match in pattern.finditer(question):
            found.append((operator, float(match.group(1).replace(",", "")), match.span()))
    return found


def _function_and_rank(
    masked: str,
    most: str,
    least: str,
    grouped: bool,
    compared: bool,
    target: ColumnFacts | None,
) -> tuple[str, str | None] | None:
    """The aggregate the question asks for and how its groups are ranked, or ``None`` when
    it asks for none this computes (or one that needs a column and names none)."""
    rank: str | None = None
    word = most or least
    if _COUNT.search(masked):
        function = "count"
        if grouped and word and not compared:
            rank = "desc" if most else "asc"
    elif _AVERAGE.search(masked):
        function = "avg"
        if grouped and word:
            rank = "desc" if most else "asc"
    elif word:
        function = "max" if most else "min"
        if grouped and target is None:
            # "Which island has the most penguins?": a count, ranked.
            function, rank = "count", "desc" if most else "asc"
    else:
        return None
    if function != "count" and target is None:
        return None
    return function, rank


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _pick_table(question: str, tables: list[TableFacts]) -> TableFacts | None:
    """The table whose name, description, columns and values share the most with the question."""
    if not tables:
        return None
    wanted = content_terms(question)

    def score(table: TableFacts) -> int:
        terms = content_terms(table.name + " " + table.description)
        for column in table.columns:
            terms |= column_terms(column)
        named = sum(
            1
            for column in table.columns
            for value in column.values
            if _value_named(value, question)
        )
        return len(wanted & terms) + named

    return max(tables, key=score)


def _named_values(question: str, table: TableFacts) -> list[tuple[ColumnFacts, tuple[Value, ...]]]:
    found: list[tuple[ColumnFacts, tuple[Value, ...]]] = []
    for column in table.columns:
        named = tuple(value for value in column.values if _value_named(value, question))
        if named:
            found.append((column, named))
    return found


def _value_named(value: Value, question: str) -> bool:
    if isinstance(value, bool):
        return False
    text = str(value)
    if isinstance(value, int):
        return re.search(rf"(?<![\d,.]){re.escape(text)}(?![\d,.]\d)", question) is not None
    return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", question, re.IGNORECASE) is not None


def _name_named(column: ColumnFacts, question: str) -> bool:
    """Whether the question names the column itself (its name's words), not only a value."""
    return bool(content_terms(column.name.replace("_", " ")) & content_terms(question))


def _grouping(question: str, table: TableFacts, valued: set[str]) -> tuple[ColumnFacts, ...]:
    groups: list[ColumnFacts] = []
    for match in _GROUP.finditer(question):
        word = content_terms(match.group(1))
        for column in table.columns:
            if not column.values or column.name in valued:
                continue
            if word & content_terms(column.name.replace("_", " ")) and column not in groups:
                groups.append(column)
    return tuple(groups)


def _target(question: str, table: TableFacts, used: set[str]) -> ColumnFacts | None:
    """The one numeric measurement column the question is about, or ``None`` when none or
    several fit equally (a guessed column is a wrong figure)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", question)]
    wanted = content_terms(question)
    for word in words:
        wanted |= _MEANS.get(word, set())
    # The table's own name ("penguins") is in the question and in half the descriptions; it
    # says which table, not which column.
    wanted -= content_terms(table.name.replace("_", " "))
    scored = [
        (len(wanted & column_terms(column)), column)
        for column in table.columns
        if column.numeric and column.name not in used
    ]
    scored = [(score, column) for score, column in scored if score > 0]
    if not scored:
        return None
    scored.sort(key=lambda pair: -pair[0])
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]
