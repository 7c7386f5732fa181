"""The data tools' facts are the catalog's own, as data: a model that reads structure gets
the tables, columns, listed values and measures without parsing any description, and a
measure's query has a shape only when it is the one shape safe to match a question to."""

from __future__ import annotations

from citeline.agent.data_tools import data_tools
from citeline.data import DataCatalog
from citeline.data.facts import Aggregate, DataFacts, query_shape


def test_the_facts_hold_every_table_column_listed_value_and_measure(sample: DataCatalog) -> None:
    facts = sample.facts()
    [penguins] = facts.tables
    species = penguins.column("species")
    assert species is not None and set(species.values) == {"Adelie", "Chinstrap", "Gentoo"}
    mass = penguins.column("body_mass_g")
    assert mass is not None and mass.numeric and not mass.values
    assert penguins.rows == 344
    assert {m.name for m in facts.measures} == {m.name for m in sample.measures}
    shaped = [m for m in facts.measures if m.shape is not None]
    assert shaped, "the sample's measures have the shape a model may match"


def test_both_data_tools_carry_the_same_facts_and_their_prose_is_unchanged(
    sample: DataCatalog,
) -> None:
    tools = {tool.name: tool for tool in data_tools(sample)}
    assert isinstance(tools["sql"].facts, DataFacts)
    assert tools["measure"].facts == tools["sql"].facts == sample.facts()
    assert "Table penguins" in tools["sql"].description


def test_a_measure_query_of_the_one_shape_is_read_whole() -> None:
    shape = query_shape(
        "SELECT species, round(avg(body_mass_g), 1) AS average_body_mass_g, "
        "count(body_mass_g) AS penguins FROM penguins WHERE species = $species "
        "AND sex IS NOT NULL GROUP BY species ORDER BY species"
    )
    assert shape is not None
    assert shape.table == "penguins" and shape.group_by == ("species",)
    assert shape.aggregates == (
        Aggregate("avg", "body_mass_g", "average_body_mass_g"),
        Aggregate("count", "body_mass_g", "penguins"),
    )
    assert shape.param_columns == (("species", "species"),)


def test_a_query_this_reader_does_not_follow_has_no_shape() -> None:
    for sql in (
        "SELECT avg(x) AS a FROM t WHERE year = 2008",  # a fixed filter
        "SELECT avg(t.x) AS a FROM t JOIN u ON t.id = u.id",
        "SELECT DISTINCT species FROM penguins",
        "SELECT species FROM penguins",  # no aggregate
        "SELECT avg(x) FROM (SELECT x FROM t)",
    ):
        assert query_shape(sql) is None, sql
