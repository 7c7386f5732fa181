"""Each corpus tool's schema and argument check come from one pydantic model, its
description from its prompt file, and a wrong argument reaches the model as a sentence."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeline.agent import CitationRequest, Toolbox, load_prompt
from citeline.agent.corpus_tools import (
    MAX_K,
    ReadArguments,
    SearchArguments,
    corpus_tools,
)
from citeline.agent.tool_arguments import arguments_schema
from citeline.corpus import Corpus

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)
NOT_TEXT = JSON.filter(lambda value: not (isinstance(value, str) and value.strip()))


def tools(corpus: Corpus) -> dict[str, Any]:
    return {tool.name: tool for tool in corpus_tools(corpus)}


async def call(corpus: Corpus, name: str, args: dict[str, Any]) -> Any:
    box = Toolbox(corpus_tools(corpus), CitationRequest("Cite."))
    return await box.call(tools(corpus)[name], args)


def titles(schema: object) -> list[str]:
    """Every ``title`` key anywhere in ``schema``."""
    if isinstance(schema, dict):
        found = ["title"] if "title" in schema else []
        return found + [title for value in schema.values() for title in titles(value)]
    if isinstance(schema, list):
        return [title for value in schema for title in titles(value)]
    return []


def test_each_corpus_tool_description_is_its_prompt_file(corpus: Corpus) -> None:
    by_name = tools(corpus)
    assert by_name["search"].description == load_prompt("search-tool")
    assert by_name["read"].description == load_prompt("read-tool")


def test_each_corpus_tool_shows_the_schema_of_its_arguments_model(corpus: Corpus) -> None:
    by_name = tools(corpus)
    assert by_name["search"].parameters == arguments_schema(SearchArguments)
    assert by_name["read"].parameters == arguments_schema(ReadArguments)


def test_the_search_schema_is_what_providers_were_shown_before_without_title_noise(
    corpus: Corpus,
) -> None:
    schema = tools(corpus)["search"].parameters
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["required"] == ["query"]
    assert schema["properties"]["query"]["type"] == "string"
    k = schema["properties"]["k"]
    assert (k["type"], k["minimum"], k["maximum"]) == ("integer", 1, MAX_K)
    assert titles(schema) == [] and "description" not in schema
    assert titles(tools(corpus)["read"].parameters) == []
    json.dumps(schema)  # sent to providers as JSON


async def test_a_search_with_a_good_query_finds_passages(corpus: Corpus) -> None:
    output = await tools(corpus)["search"].run({"query": "  apoptosis  ", "k": 2})
    assert output.value["query"] == "apoptosis" and 1 <= len(output.value["results"]) <= 2


async def test_a_search_names_the_words_of_its_query_no_document_holds(corpus: Corpus) -> None:
    output = await tools(corpus)["search"].run({"query": "How do I see apoptosis in Kubernetes?"})
    assert output.value["results"]
    # Words that only make the query a question are no subject the collection lacks.
    assert output.value["not_in_collection"] == ["see", "kubernetes"]


async def test_a_search_whose_words_the_collection_all_holds_names_none(corpus: Corpus) -> None:
    output = await tools(corpus)["search"].run({"query": "apoptosis"})
    assert "not_in_collection" not in output.value


async def test_an_argument_the_schema_does_not_name_is_ignored_not_refused(
    corpus: Corpus,
) -> None:
    output = await tools(corpus)["search"].run({"query": "autophagy", "page": 2})
    assert output.value["results"]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=NOT_TEXT)
async def test_a_search_without_a_text_query_tells_the_model_what_a_query_is(
    corpus: Corpus, query: object
) -> None:
    reply = await call(corpus, "search", {"query": query})
    assert reply.error == "search failed: query must be a non-empty string"


async def test_a_search_without_any_query_tells_the_model_what_a_query_is(
    corpus: Corpus,
) -> None:
    reply = await call(corpus, "search", {"k": 3})
    assert reply.error == "search failed: query must be a non-empty string"


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(k=JSON.filter(lambda value: not (type(value) is int and 1 <= value <= MAX_K)))
async def test_a_search_with_a_bad_k_names_the_range(corpus: Corpus, k: object) -> None:
    reply = await call(corpus, "search", {"query": "glycolysis", "k": k})
    assert reply.error == f"search failed: k must be a whole number from 1 to {MAX_K}"


async def test_a_read_without_an_id_tells_the_model_what_an_id_is(corpus: Corpus) -> None:
    for args in ({}, {"id": ""}, {"id": "   "}, {"id": 7}, {"id": None}):
        reply = await call(corpus, "read", args)
        assert reply.error == "read failed: id must be a non-empty string"


async def test_a_read_by_a_padded_id_reads_the_document(corpus: Corpus) -> None:
    output = await tools(corpus)["read"].run({"id": " R-HSA-70171 "})
    assert output.value["title"] == "Glycolysis"


def test_a_schema_changed_by_one_tool_is_not_changed_for_the_next() -> None:
    # The schema is generated once per class; each caller gets its own copy to change, as
    # the measure tool does when it adds the project's measure names.
    first = arguments_schema(SearchArguments)
    first["properties"]["query"]["enum"] = ["only this"]
    first["required"].append("nonsense")
    second = arguments_schema(SearchArguments)
    assert "enum" not in second["properties"]["query"]
    assert "nonsense" not in second["required"]
