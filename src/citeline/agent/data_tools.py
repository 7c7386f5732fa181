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
exactly the words of the descriptions. Queries run in the catalog's worker processes; when
the answer ends mid-query, the cancelled call kills its worker. This module does not decide
what is read-only or how a result is bounded: ``citeline.data`` does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from citeline.agent.prompts import load_prompt
from citeline.agent.provenance import ProvenanceTag
from citeline.agent.tools import AgentTool, Source, ToolOutput, text_argument
from citeline.stream.quotes import TrustedText

if TYPE_CHECKING:
    from citeline.data import DataCatalog, QueryResult


def data_tools(catalog: DataCatalog) -> list[AgentTool]:
    """``measure`` (when the project defines any) and ``sql`` over ``catalog``."""

    async def measure(args: Mapping[str, Any]) -> ToolOutput:
        name = text_argument(args, "name", expected="the name of one of the measures listed")
        arguments = args.get("args") or {}
        if not isinstance(arguments, Mapping):
            raise ValueError('args must be an object such as {"species": "Gentoo"}')
        result = await catalog.measure_async(name, arguments)
        call = ", ".join(f"{key}={value!r}" for key, value in sorted(arguments.items()))
        source_id = f"measure:{name}" + (f"?{urlencode(sorted(arguments.items()))}" if call else "")
        return result_output(result, Source(f"cite:{source_id}", f"{name}({call})", source_id))

    async def sql(args: Mapping[str, Any]) -> ToolOutput:
        query = text_argument(args, "query", expected="one SQL SELECT statement")
        result = await catalog.sql_async(query)
        shown = " ".join(query.split())
        # The query's own hash: the same query cited twice is one source.
        source_id = "query:" + hashlib.sha256(shown.encode("utf-8")).hexdigest()[:12]
        return result_output(result, Source(f"cite:{source_id}", shown, source_id))

    tools: list[AgentTool] = []
    if catalog.measures:
        tools.append(
            AgentTool(
                name="measure",
                description=load_prompt("measure-tool").replace(
                    "{measures}", catalog.describe_measures()
                ),
                parameters={
                    "type": "object",
                    "properties": {
                        "name": {
                            "type": "string",
                            "enum": [spec.name for spec in catalog.measures],
                            "description": "The measure to run.",
                        },
                        "args": {
                            "type": "object",
                            "description": "The measure's arguments by parameter name.",
                        },
                    },
                    "required": ["name"],
                    "additionalProperties": False,
                },
                provenance=ProvenanceTag.GOVERNED,
                run=measure,
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
            parameters={
                "type": "object",
                "properties": {"query": {"type": "string", "description": "One SELECT query."}},
                "required": ["query"],
                "additionalProperties": False,
            },
            provenance=ProvenanceTag.AD_HOC,
            run=sql,
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
