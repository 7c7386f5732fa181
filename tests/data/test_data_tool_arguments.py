"""Each data tool's schema and argument check come from one pydantic model, its
description from its prompt file, and a wrong argument reaches the model as a sentence."""

from __future__ import annotations

import re
from typing import Any

from citeline.agent import CitationRequest, Toolbox, load_prompt
from citeline.agent.data_tools import MeasureArguments, SqlArguments, data_tools
from citeline.agent.tool_arguments import arguments_schema
from citeline.data import DataCatalog


def tools(catalog: DataCatalog) -> dict[str, Any]:
    return {tool.name: tool for tool in data_tools(catalog)}


async def call(catalog: DataCatalog, name: str, args: dict[str, Any]) -> Any:
    box = Toolbox(data_tools(catalog), CitationRequest("Cite."))
    return await box.call(tools(catalog)[name], args)


def test_each_data_tool_description_is_its_prompt_file_filled_in(sample: DataCatalog) -> None:
    for name in ("measure", "sql"):
        prompt = load_prompt("measure-tool" if name == "measure" else "sql-tool")
        description = tools(sample)[name].description
        # Every word of the file is in the description, in order; only {placeholders} vary.
        pattern = ".*".join(re.escape(part) for part in re.split(r"\{[a-z_]+\}", prompt))
        assert re.fullmatch(pattern, description, flags=re.DOTALL), name


def test_each_data_tool_shows_the_schema_of_its_arguments_model(sample: DataCatalog) -> None:
    by_name = tools(sample)
    assert by_name["sql"].parameters == arguments_schema(SqlArguments)
    measure = dict(by_name["measure"].parameters)
    names = measure["properties"]["name"].pop("enum")
    assert names == [spec.name for spec in sample.measures]
    assert measure == arguments_schema(MeasureArguments)
    assert "title" not in str(by_name["measure"].parameters)


async def test_sql_without_a_query_asks_for_one_select_statement(sample: DataCatalog) -> None:
    for args in ({}, {"query": " "}, {"query": ["SELECT 1"]}):
        reply = await call(sample, "sql", args)
        assert reply.error == "sql failed: query must be one SQL SELECT statement"


async def test_measure_without_a_name_asks_for_a_listed_one(sample: DataCatalog) -> None:
    reply = await call(sample, "measure", {"args": {}})
    assert reply.error == "measure failed: name must be the name of one of the measures listed"


async def test_measure_args_that_are_not_an_object_show_an_example(sample: DataCatalog) -> None:
    name = sample.measures[0].name
    for bad in ([], "species=Gentoo", 3):
        reply = await call(sample, "measure", {"name": name, "args": bad})
        assert reply.error == 'measure failed: args must be an object such as {"species": "Gentoo"}'


async def test_measure_args_of_null_are_read_as_none_given(sample: DataCatalog) -> None:
    # flipper_length_by_species, in the bundled sample, takes no parameters.
    reply = await call(sample, "measure", {"name": "flipper_length_by_species", "args": None})
    assert reply.error is None and "Gentoo" in str(reply.value)
