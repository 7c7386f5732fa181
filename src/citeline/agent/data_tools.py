"""``measure`` and ``sql``: the data tools, governed and ad hoc.

``measure(name, args)`` runs a query the data owner defined; its results carry the
``governed`` tag and need no citation. ``sql(query)`` runs the model's own read-only
query; its results carry the ``ad_hoc`` tag, are eligible for the citation request, and
make the answer ``untrusted`` unless a quote block of the values they returned backs them.
Each result is a source the answer may cite (``cite:measure:NAME?ARGS`` or
``cite:query:HASH``, displayed as the measure call or the query itself), and its rows are
trusted text of kind ``result`` that a quote block may be checked against. A refusal or
failure (a write attempt, a bad column, a timeout) raises, so the toolbox sends it to the
model as a tool error. The tool descriptions are ``prompts/measure-tool.md`` and
``prompts/sql-tool.md`` with the catalog's trusted text filled in, so the model is shown
exactly the words of the descriptions. Each tool's arguments are one pydantic model, the
source of both its schema and its check. Queries run in the catalog's worker processes; when
the answer ends mid-query, the cancelled call kills its worker. This module does not decide
what is read-only or how a result is bounded: ``citeline.data`` does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode

from pydantic import BeforeValidator, Field

from citeline.agent.prompts import load_prompt
from citeline.agent.provenance import ProvenanceTag
from citeline.agent.tool_arguments import (
    Expect,
    Text,
    ToolArguments,
    arguments_schema,
    parse_arguments,
)
from citeline.agent.tools import AgentTool, Source, ToolOutput
from citeline.stream.quotes import TrustedText

if TYPE_CHECKING:
    from citeline.data import DataCatalog, QueryResult


class MeasureArguments(ToolArguments):
    """What ``measure`` takes. The schema the model sees also lists the project's measure
    names (``enum``); an unknown name is refused by the catalog, which names the known ones."""

    name: Annotated[
        Text,
        Field(description="The measure to run."),
        Expect("the name of one of the measures listed"),
    ]
    # Null read as {}: models often send "args": null for a measure without parameters.
    args: Annotated[
        dict[str, Any],
        BeforeValidator(lambda value: {} if value is None else value),
        Field(default_factory=dict, description="The measure's arguments by parameter name."),
        Expect('an object such as {"species": "Gentoo"}'),
    ]


class SqlArguments(ToolArguments):
    """What ``sql`` takes."""

    query: Annotated[
        Text, Field(description="One SELECT query."), Expect("one SQL SELECT statement")
    ]


def measure_schema(names: list[str]) -> dict[str, Any]:
    """``MeasureArguments``' schema with ``name`` limited to the project's ``names``."""
    schema = arguments_schema(MeasureArguments)
    schema["properties"]["name"]["enum"] = names
    return schema


def data_tools(catalog: DataCatalog) -> list[AgentTool]:
    """``measure`` (when the project defines any) and ``sql`` over ``catalog``."""

    async def measure(args: Mapping[str, Any]) -> ToolOutput:
        parsed = parse_arguments(MeasureArguments, args)
        name, arguments = parsed.name, parsed.args
        result = await catalog.measure_async(name, arguments)
        call = ", ".join(f"{key}={value!r}" for key, value in sorted(arguments.items()))
        source_id = f"measure:{name}" + (f"?{urlencode(sorted(arguments.items()))}" if call else "")
        return result_output(result, Source(f"cite:{source_id}", f"{name}({call})", source_id))

    async def sql(args: Mapping[str, Any]) -> ToolOutput:
        query = parse_arguments(SqlArguments, args).query
        result = await catalog.sql_async(query)
        shown = " ".join(query.split())
        # The query's own hash: the same query cited twice is one source.
        source_id = "query:" + hashlib.sha256(shown.encode("utf-8")).hexdigest()[:12]
        return result_output(result, Source(f"cite:{source_id}", shown, source_id))

    facts = catalog.facts()
    tools: list[AgentTool] = []
    if catalog.measures:
        tools.append(
            AgentTool(
                name="measure",
                description=load_prompt("measure-tool").replace(
                    "{measures}", catalog.describe_measures()
                ),
                parameters=measure_schema([spec.name for spec in catalog.measures]),
                provenance=ProvenanceTag.GOVERNED,
                run=measure,
                facts=facts,
            )
        )
    tools.append(
        AgentTool(
            name="sql",
            description=load_prompt("sql-tool")
            .replace("{max_rows}", str(catalog.limits.max_rows))
            .replace("{seconds}", f"{catalog.limits.seconds:g}")
            .replace("{memory_mb}", str(catalog.limits.memory_mb))
            .replace("{tables}", catalog.describe_tables()),
            parameters=arguments_schema(SqlArguments),
            provenance=ProvenanceTag.AD_HOC,
            run=sql,
            facts=facts,
        )
    )
    return tools


def result_output(result: QueryResult, source: Source) -> ToolOutput:
    """What the model reads for a data result (the href to cite it by, then its table), the
    source it may cite, and the result's rows as trusted text of kind ``result``."""
    rows = "\n".join(result.value_lines())
    return ToolOutput(
        f"Source: {source.display_name}; cite as {source.href}\n{result.as_text()}",
        sources=(source,),
        trusted=(TrustedText("result", source.id or source.href, source.display_name, rows),)
        if rows
        else (),
    )
