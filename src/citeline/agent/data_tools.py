"""``measure`` and ``sql``: the data tools, governed and ad hoc.

``measure(name, args)`` runs a query the data owner defined; its results carry the
``governed`` tag and need no citation. ``sql(query)`` runs the model's own read-only
query; its results carry the ``ad_hoc`` tag, are eligible for the citation request, and
make the answer ``untrusted`` unless a quote block backs them. A refusal or failure
(a write attempt, a bad column, a timeout) raises, so the toolbox sends it to the model as
a tool error. The tool descriptions are ``prompts/measure-tool.md`` and ``prompts/sql-tool.md``
with the catalog's trusted text filled in, so the model is shown exactly the words a quote is
checked against. DuckDB work is synchronous and runs in a worker thread. This module does not
decide what is read-only or how a result is bounded: ``citeline.data`` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citeline.agent.prompts import load_prompt
from citeline.agent.provenance import ProvenanceTag
from citeline.agent.tools import AgentTool, ToolOutput, text_argument

if TYPE_CHECKING:
    from citeline.data import DataCatalog


def data_tools(catalog: DataCatalog) -> list[AgentTool]:
    """``measure`` (when the project defines any) and ``sql`` over ``catalog``."""

    async def measure(args: Mapping[str, Any]) -> ToolOutput:
        name = text_argument(args, "name", expected="the name of one of the measures listed")
        arguments = args.get("args") or {}
        if not isinstance(arguments, Mapping):
            raise ValueError('args must be an object such as {"species": "Gentoo"}')
        result = await asyncio.to_thread(catalog.measure, name, arguments)
        return ToolOutput(f"Measure {name}:\n{result.as_text()}")

    async def sql(args: Mapping[str, Any]) -> ToolOutput:
        query = text_argument(args, "query", expected="one SQL SELECT statement")
        result = await asyncio.to_thread(catalog.sql, query)
        return ToolOutput(result.as_text())

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
