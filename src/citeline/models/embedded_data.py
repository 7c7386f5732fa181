"""The embedded model's data path: a measure when one fits, else a counted query with a quote.

Offered the data tools, the embedded model reads their descriptions as a real model would:
it picks the measure whose definition shares the most words with the question, fills each
parameter from a value the parameter's description lists and the question names, and writes
the result's figures in a sentence. With no fitting measure and a "how many" question, it
counts rows with ``sql`` (filtered on values the column descriptions list) and backs the
count with a quote block holding the table's own description, so the server can verify it.

Extractive and deterministic like the rest of the embedded model: it never invents a
figure, a measure or a column; everything it writes comes from a description or a result.
It does not answer from documents (``embedded.next_step`` does) and knows nothing of
DuckDB or the data layer: it reads only the text the tools gave it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citeline.models.embedded import ToolRequest, TurnView, content_terms, stream_fragments

# The shapes of the descriptions the data tools give (``citeline.data.catalog``): a model
# reads these lines, so the embedded one does too.
_MEASURE = re.compile(r"^Measure (\w+)\(([^)]*)\): (.*)$")
_PARAM = re.compile(r"^- (\w+) \((\w+)\): (.*)$")
_TABLE = re.compile(r"^Table (\w+) \((\d+) rows\)(?:: (.*))?$")
_COLUMN = re.compile(r"^- (\w+) \((\w+)\)(?:: (.*))?$")
_OPTION_SPLIT = re.compile(r",\s*|\s+or\s+|\s+and\s+")
_COUNT_QUESTION = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.IGNORECASE)
_ROW = re.compile(r"^\| (.*) \|$")
_HEADER_CELL = re.compile(r"^(.*) \((\w[\w(), ]*)\)$")

NO_FIT = (
    "None of the measures answers that, and I only write SQL to count rows; "
    "try a question one of the measures describes, or ask how many."
)
TOOLS_FAILED = "The data tools failed for this question, so I cannot answer it."
# One shared word ("penguins") fits every measure of a penguin table; two ("body mass")
# start to say which figure the question wants.
MIN_MEASURE_TERMS = 2


@dataclass(frozen=True, slots=True)
class _Param:
    name: str
    type: str
    options: tuple[str, ...]
    required: bool


@dataclass(frozen=True, slots=True)
class _Measure:
    name: str
    text: str
    params: tuple[_Param, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    sentence: str  # the description's first sentence, the quote that backs a count; may be ""
    columns: tuple[tuple[str, tuple[str, ...]], ...]


def next_step(view: TurnView) -> tuple[ToolRequest, ...] | Iterator[str] | None:
    """The next data step, or ``None`` when this is not a data question for the embedded model."""
    measure_tool = view.descriptions.get("measure")
    sql_tool = view.descriptions.get("sql")
    if measure_tool is None and sql_tool is None:
        return None
    done = [outcome for outcome in view.outcomes if outcome.tool in {"measure", "sql"}]
    if done:
        if all(outcome.failed for outcome in done):
            return stream_fragments(TOOLS_FAILED, view.question)
        return stream_fragments(
            _write(view.question, done[-1].tool, done[-1].content, sql_tool), view.question
        )
    call = _measure_call(view.question, measure_tool or "")
    if call is not None:
        return (call,)
    if sql_tool is not None and _COUNT_QUESTION.search(view.question):
        # Beside a corpus, "how many" may be about documents; count only a table it names.
        query = _count_query(view.question, _tables(sql_tool), named="search" in view.tools)
        if query is not None:
            return (ToolRequest("sql", {"query": query}),)
    if "search" in view.tools:
        return None
    return stream_fragments(NO_FIT, view.question)


def _measure_call(question: str, description: str) -> ToolRequest | None:
    wanted = content_terms(question)
    best: tuple[int, ToolRequest] | None = None
    for measure in _measures(description):
        score = len(wanted & content_terms(measure.name.replace("_", " ") + " " + measure.text))
        args = _arguments(question, measure.params)
        if score >= MIN_MEASURE_TERMS and args is not None and (best is None or score > best[0]):
            best = (score, ToolRequest("measure", {"name": measure.name, "args": args}))
    return None if best is None else best[1]


def _arguments(question: str, params: tuple[_Param, ...]) -> dict[str, object] | None:
    args: dict[str, object] = {}
    for param in params:
        named = [option for option in param.options if _names(question, option)]
        if named:
            value = named[0]
            args[param.name] = int(value) if param.type == "integer" and value.isdigit() else value
        elif param.required:
            return None
    return args


def _names(question: str, option: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(option)}(?!\w)", question, re.IGNORECASE) is not None


def _measures(description: str) -> list[_Measure]:
    measures: list[_Measure] = []
    defaults: set[str] = set()
    for line in description.splitlines():
        head = _MEASURE.match(line)
        if head:
            parts = head.group(2).split(",")
            defaults = {part.split(":")[0].strip() for part in parts if "=" in part}
            measures.append(_Measure(head.group(1), head.group(3), ()))
            continue
        param = _PARAM.match(line)
        if param and measures:
            last = measures[-1]
            name, kind, text = param.groups()
            spec = _Param(name, kind, _options(text), name not in defaults)
            measures[-1] = _Measure(last.name, last.text, (*last.params, spec))
    return measures


def _options(text: str) -> tuple[str, ...]:
    """The values a description lists after its last colon and before any semicolon
    ("Penguin species: Adelie, Chinstrap or Gentoo." gives three)."""
    listed = text.rsplit(": ", 1)[-1].split(";")[0]
    return tuple(option.strip(" .") for option in _OPTION_SPLIT.split(listed) if option.strip(" ."))


def _tables(description: str) -> list[_Table]:
    tables: list[_Table] = []
    for line in description.splitlines():
        head = _TABLE.match(line)
        if head:
            described = (head.group(3) or "").split(". ")[0].rstrip(".")
            sentence = described + "." if described else ""
            tables.append(_Table(head.group(1), sentence, ()))
            continue
        column = _COLUMN.match(line)
        if column and tables and column.group(3):
            options = _options(column.group(3))
            last = tables[-1]
            tables[-1] = _Table(
                last.name, last.sentence, (*last.columns, (column.group(1), options))
            )
    return tables


def _count_query(question: str, tables: list[_Table], *, named: bool) -> str | None:
    table = _pick_table(question, tables)
    if table is None or (
        named and not content_terms(question) & content_terms(table.name + " " + table.sentence)
    ):
        return None
    conditions = [f"{column} = '{value}'" for column, value in _filters(question, table)]
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    return f"SELECT count(*) AS rows FROM {table.name}{where}"


def _filters(question: str, table: _Table) -> list[tuple[str, str]]:
    """Each column whose description lists a value the question names, with that value."""
    return [
        (column, option)
        for column, options in table.columns
        if len(options) > 1
        for option in options
        if _names(question, option)
    ]


def _pick_table(question: str, tables: list[_Table]) -> _Table | None:
    """The table whose name and description share the most words with the question."""
    wanted = content_terms(question)
    scored = [
        (len(wanted & content_terms(table.name + " " + table.sentence)), -at, table)
        for at, table in enumerate(tables)
    ]
    return max(scored)[2] if scored else None


def _write(question: str, tool: str, content: object, sql_tool: str | None) -> str:
    text = content if isinstance(content, str) else " ".join(str(part) for part in _parts(content))
    header, rows = _table_rows(text)
    if not header:
        return TOOLS_FAILED
    if not rows:
        return "The query returned no rows, so there is no figure to give."
    sentences = [
        ", ".join(f"{name} is {value}" for name, value in zip(header, row, strict=False)) + "."
        for row in rows[:4]
    ]
    if tool == "measure":
        name = text.splitlines()[0].removeprefix("Measure ").rstrip(":")
        return f"From the measure {name}: " + " ".join(_capital(s) for s in sentences)
    table = _pick_table(question, _tables(sql_tool or ""))
    if table is None or len(header) != 1 or len(rows) != 1:
        return "My query returned: " + " ".join(_capital(s) for s in sentences)
    where = " and ".join(f"{column} is {value}" for column, value in _filters(question, table))
    answer = f"I counted {rows[0][0]} rows in {table.name}" + (f" where {where}" if where else "")
    return answer + " with my own SQL query."


def _parts(content: object) -> Iterator[object]:
    if isinstance(content, list | tuple):
        for part in content:
            yield from _parts(part)
    else:
        yield content


def _table_rows(text: str) -> tuple[list[str], list[list[str]]]:
    lines = [match.group(1) for line in text.splitlines() if (match := _ROW.match(line))]
    if not lines:
        return [], []
    header = [_HEADER_CELL.sub(r"\1", cell) for cell in lines[0].split(" | ")]
    return header, [row.split(" | ") for row in lines[2:]]


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]
