"""The embedded model's data path: the governed measure that answers the question as asked, else
one read-only query it writes, else "nothing found".

Offered the data tools, it reads what their descriptions say as data (their facts,
``citeline.data.facts``: tables, columns, listed values, measures and their queries' shapes),
reads the figure the question asks for
(``citeline.models.embedded.data_intent``), and then:

1. calls a measure only when the measure computes exactly that figure: the same aggregate of
   the same column; every value the question names is either a parameter of the measure or a
   row of its grouping; every parameter gets a value the question names (a default the
   question never chose answers another question); and the measure groups only by what the
   question asks per group or names. A ``verified`` label on a figure that does not answer
   the question is the worst outcome this project can produce, so when in doubt it does not
   call a measure;
2. else writes one ``SELECT`` for the common shapes (count, average, minimum, maximum, per
   group, filtered by named values, comparisons and missing values), whose answer is
   labelled ``untrusted`` as every ad-hoc answer without a quote of values is;
3. else says in one sentence that nothing in the data records that (``nothing_found``).

It writes the answer as sentences ("The average body mass in grams of penguins where species
is Gentoo is 5,076.0 (123 penguins).") with the figure linked to the measure or query that
produced it, and a table below when there is more than one row. Extractive and deterministic:
every figure comes from a tool result. It does not answer from documents
(``embedded.next_step`` does) and knows nothing of DuckDB: it reads only what the tools said.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citeline.data.facts import DataFacts, MeasureFacts, QueryShape, Value
from citeline.models.embedded.data_intent import Intent, read_intent
from citeline.models.embedded.model import ToolRequest, TurnView, stream_fragments
from citeline.text.answer_terms import content_terms

NO_FIT = (
    "Nothing in this data records that: no measure or column answers it, so I have no figure"
    " to give."
)
TOOLS_FAILED = "The data tools failed for this question, so I cannot answer it."
NO_ROWS = "No rows match that, so there is no figure to give."
_SOURCE_LINE = re.compile(r"^Source: (.*); cite as (\S+)$", re.MULTILINE)
_ROW = re.compile(r"^\| (.*) \|$")
_HEADER_CELL = re.compile(r"^(.*) \((\w[\w(), ]*)\)$")
_COUNT_ALIAS = "count"


@dataclass(frozen=True, slots=True)
class _Plan:
    """What to ask for: a measure call or a query, and how to read its rows back."""

    request: ToolRequest
    value_alias: str
    count_alias: str | None
    # Rows of the result to keep: a column of the measure's grouping the question filtered.
    keep: tuple[tuple[str, tuple[Value, ...]], ...] = ()


def next_step(view: TurnView) -> tuple[ToolRequest, ...] | Iterator[str] | None:
    """The next data step, or ``None`` when this is not a data question for the embedded model."""
    facts = next(
        (
            found
            for tool, found in view.facts.items()
            if tool in {"measure", "sql"} and tool in view.tools and isinstance(found, DataFacts)
        ),
        None,
    )
    if facts is None:
        return None
    measures = list(facts.measures) if "measure" in view.tools else []
    can_query = "sql" in view.tools
    done = [outcome for outcome in view.outcomes if outcome.tool in {"measure", "sql"}]
    intent = read_intent(view.question, list(facts.tables))
    beside_documents = "search" in view.tools
    if intent is not None and beside_documents and not _about_table(view.question, intent):
        # Beside a corpus, "how many" may be about documents; answer from a table it names.
        intent = None
    plan = None if intent is None else _plan(intent, measures, can_query)
    if done:
        last = done[-1]
        if last.failed or plan is None or intent is None:
            return stream_fragments(TOOLS_FAILED, view.question)
        return stream_fragments(_write(intent, plan, _text(last.content)), view.question)
    if plan is not None:
        return (plan.request,)
    if beside_documents:
        return None
    return stream_fragments(NO_FIT, view.question)


def _about_table(question: str, intent: Intent) -> bool:
    """Whether the question names the table, one of its values, or a column by the words of
    its name ("flipper length", "species"); a measurement word alone ("longest") does not
    tell a table question from a documentation one."""
    asked = content_terms(question)
    named_columns = [*intent.group_by, *intent.missing]
    if intent.target is not None:
        named_columns.append(intent.target)
    return (
        bool(intent.equals)
        or bool(content_terms(intent.table.name.replace("_", " ")) & asked)
        or any(content_terms(c.name.replace("_", " ")) & asked for c in named_columns)
    )


def _plan(intent: Intent, measures: list[MeasureFacts], can_query: bool) -> _Plan | None:
    for measure in measures:
        plan = _measure_plan(intent, measure)
        if plan is not None:
            return plan
    if not can_query:
        return None
    return _query_plan(intent)


def _measure_plan(intent: Intent, measure: MeasureFacts) -> _Plan | None:
    """The call of ``measure`` that computes exactly the intent's figure, or ``None``."""
    shape = measure.shape
    if shape is None or shape.table != intent.table.name:
        return None
    if intent.missing or intent.comparisons or intent.rank:
        return None
    value = _aggregate_alias(shape, intent)
    if value is None:
        return None
    by_column = {column: param for param, column in shape.param_columns}
    args: dict[str, object] = {}
    keep: list[tuple[str, tuple[Value, ...]]] = []
    for column, values in intent.equals:
        if column.name in by_column and len(values) == 1:
            args[by_column[column.name]] = values[0]
        elif column.name in shape.group_by:
            keep.append((column.name, values))
        else:
            return None
    if set(args) != {param.name for param in measure.params}:
        return None
    for grouped in shape.group_by:
        asked = grouped in {c.name for c in intent.group_by}
        named = grouped in {name for name, _ in keep} or grouped in {
            column for _, column in shape.param_columns
        }
        if not (asked or named):
            return None
    if not {c.name for c in intent.group_by} <= set(shape.group_by):
        return None
    count = next((a.alias for a in shape.aggregates if a.function == "count"), None)
    return _Plan(
        ToolRequest("measure", {"name": measure.name, "args": args}), value, count, tuple(keep)
    )


def _aggregate_alias(shape: QueryShape, intent: Intent) -> str | None:
    for aggregate in shape.aggregates:
        if intent.function == "count" and aggregate.function == "count":
            if aggregate.column == "*":
                return aggregate.alias
        elif (
            intent.target is not None
            and aggregate.function == intent.function
            and aggregate.column == intent.target.name
        ):
            return aggregate.alias
    return None


def _query_plan(intent: Intent) -> _Plan:
    table = _identifier(intent.table.name)
    groups = [_identifier(column.name) for column in intent.group_by]
    if intent.function == "count":
        value_alias = _COUNT_ALIAS
        select = [*groups, f"count(*) AS {value_alias}"]
        count_alias = None
    else:
        assert intent.target is not None
        target = _identifier(intent.target.name)
        value_alias = f"{intent.function}_{intent.target.name}"
        aggregate = f"{intent.function}({target})"
        if intent.function == "avg":
            aggregate = f"round({aggregate}, 1)"
        select = [*groups, f"{aggregate} AS {value_alias}"]
        # How many rows an average is over is part of the figure; a maximum is one row's.
        count_alias = _COUNT_ALIAS if intent.function == "avg" else None
        if count_alias:
            select.append(f"count({target}) AS {count_alias}")
    conditions: list[str] = []
    for column, values in intent.equals:
        if len(values) == 1:
            conditions.append(f"{_identifier(column.name)} = {_literal(values[0])}")
        else:
            listed = ", ".join(_literal(value) for value in values)
            conditions.append(f"{_identifier(column.name)} IN ({listed})")
    conditions += [f"{_identifier(column.name)} IS NULL" for column in intent.missing]
    conditions += [
        f"{_identifier(c.column.name)} {c.operator} {c.number:g}" for c in intent.comparisons
    ]
    sql = f"SELECT {', '.join(select)} FROM {table}"
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    if groups:
        sql += f" GROUP BY {', '.join(groups)}"
        if intent.rank:
            sql += f" ORDER BY {value_alias} {intent.rank.upper()}, {', '.join(groups)}"
        else:
            sql += f" ORDER BY {', '.join(groups)}"
    return _Plan(ToolRequest("sql", {"query": sql}), value_alias, count_alias)


def _identifier(name: str) -> str:
    return name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else '"' + name.replace('"', '""') + '"'


def _literal(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _write(intent: Intent, plan: _Plan, text: str) -> str:
    source = _SOURCE_LINE.search(text)
    header, rows = _table_rows(text)
    if not header or source is None or plan.value_alias not in header:
        return TOOLS_FAILED
    for column, values in plan.keep:
        if column in header:
            at = header.index(column)
            wanted = {str(value).lower() for value in values}
            rows = [row for row in rows if row[at].lower() in wanted]
    if not rows:
        return NO_ROWS
    href = source.group(2)
    value_at = header.index(plan.value_alias)
    count_at = header.index(plan.count_alias) if plan.count_alias in header else None
    if count_at == value_at or intent.function in ("min", "max"):
        count_at = None
    group_names = [c.name for c in intent.group_by if c.name in header]
    subject = _subject(intent)
    figure_label = _figure_label(intent)
    if len(rows) == 1 and not group_names:
        row = rows[0]
        figure = _number(row[value_at])
        if intent.function == "count":
            return f"There are [{figure}]({href}) {subject}."
        counted = f" ({_number(row[count_at])} {intent.table.name})" if count_at is not None else ""
        return f"The {figure_label} of {subject} is [{figure}]({href}){counted}."
    group_at = [header.index(name) for name in group_names]
    table = _markdown_table(intent, header, rows, group_at, value_at, count_at)
    if intent.rank:
        top = rows[0]
        who = ", ".join(top[at] for at in group_at)
        counted = f" ({_number(top[count_at])} {intent.table.name})" if count_at is not None else ""
        verb = "highest" if intent.rank == "desc" else "lowest"
        lead = (
            f"{who} has the {verb} {figure_label} of {subject}: "
            f"[{_number(top[value_at])}]({href}){counted}."
        )
    else:
        per = " and ".join(name.replace("_", " ") for name in group_names)
        lead = f"[The {figure_label} of {subject}, by {per}]({href}):"
    return f"{lead}\n\n{table}\n"


def _subject(intent: Intent) -> str:
    """The rows the figure is over, in the table's own words: "penguins where species is
    Gentoo and year is 2009"."""
    conditions: list[str] = []
    for column, values in intent.equals:
        if len(values) == 1:
            conditions.append(f"{column.name} is {values[0]}")
        else:
            conditions.append(f"{column.name} is {' or '.join(str(v) for v in values)}")
    conditions += [f"{column.name} is not recorded" for column in intent.missing]
    words = {">": "over", "<": "under", ">=": "at least", "<=": "at most"}
    conditions += [
        f"{c.column.label} is {words[c.operator]} {_number(f'{c.number:g}')}"
        for c in intent.comparisons
    ]
    if not conditions:
        return intent.table.name
    joined = (
        conditions[0]
        if len(conditions) == 1
        else (", ".join(conditions[:-1]) + " and " + conditions[-1])
    )
    return f"{intent.table.name} where {joined}"


def _figure_label(intent: Intent) -> str:
    if intent.function == "count":
        return "number"
    assert intent.target is not None
    adjective = {"avg": "average", "min": intent.word or "minimum", "max": intent.word or "maximum"}
    if intent.rank:
        adjective["avg"] = "average"
    return f"{adjective[intent.function]} {intent.target.label}"


def _markdown_table(
    intent: Intent,
    header: list[str],
    rows: list[list[str]],
    group_at: list[int],
    value_at: int,
    count_at: int | None,
) -> str:
    titles = [header[at].replace("_", " ") for at in group_at]
    titles.append(_figure_label(intent) if intent.function != "count" else intent.table.name)
    if count_at is not None:
        titles.append(intent.table.name)
    lines = ["| " + " | ".join(titles) + " |", "|" + "|".join(" --- " for _ in titles) + "|"]
    for row in rows:
        cells = [row[at] for at in group_at] + [_number(row[value_at])]
        if count_at is not None:
            cells.append(_number(row[count_at]))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _number(text: str) -> str:
    """A result's number as a reader reads it: thousands separated, one decimal at most."""
    try:
        value = float(text)
    except ValueError:
        return text
    if re.fullmatch(r"-?\d+", text.strip()):
        return f"{int(text):,}"
    return f"{value:,.1f}"


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list | tuple):
        return "\n".join(_text(part) for part in content)
    return str(content)


def _table_rows(text: str) -> tuple[list[str], list[list[str]]]:
    lines = [match.group(1) for line in text.splitlines() if (match := _ROW.match(line))]
    if not lines:
        return [], []
    header = [_HEADER_CELL.sub(r"\1", cell) for cell in lines[0].split(" | ")]
    return header, [row.split(" | ") for row in lines[2:]]
