"""Ad-hoc SQL is bounded in rows and time and fails with sentences; measures bind the model's
arguments to the owner's query."""

from __future__ import annotations

import pytest

from citeline.data import (
    DataCatalog,
    MeasureError,
    QueryFailedError,
    QueryLimits,
    QueryRefusedError,
    QueryResult,
    load_project,
)


def test_results_past_the_row_bound_are_cut_and_say_so() -> None:
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(max_rows=3)) as catalog:
        result = catalog.sql("SELECT * FROM penguins")
    assert len(result.rows) == 3 and result.truncated
    assert result.as_text().endswith(
        "First 3 rows; the query returned more. Aggregate in SQL to see them all."
    )


def test_a_query_past_the_time_bound_is_stopped_with_a_sentence() -> None:
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(seconds=0.2)) as catalog:
        with pytest.raises(QueryFailedError, match=r"ran past 0\.2 seconds and was stopped"):
            catalog.sql("SELECT count(*) FROM range(100000000000) a")
        # The connection is usable after an interrupted query.
        assert catalog.sql("SELECT count(*) FROM penguins").rows == ((344,),)


def test_a_database_error_reaches_the_caller_as_one_line(sample: DataCatalog) -> None:
    with pytest.raises(QueryFailedError) as raised:
        sample.sql("SELECT weight FROM penguins")
    message = str(raised.value)
    assert message.startswith("The query failed: Binder Error:") and "\n" not in message


def test_text_that_does_not_parse_is_refused(sample: DataCatalog) -> None:
    with pytest.raises(QueryRefusedError, match="does not parse"):
        sample.sql("SELEC species FROM penguins")


def test_with_values_and_describe_count_as_one_read_query(sample: DataCatalog) -> None:
    assert sample.sql("WITH g AS (SELECT 1 AS one) SELECT one FROM g").rows == ((1,),)
    assert sample.sql("VALUES (1), (2)").rows == ((1,), (2,))
    assert len(sample.sql("DESCRIBE penguins").rows) == 8


def test_a_measure_runs_the_owners_query_with_the_arguments_bound(sample: DataCatalog) -> None:
    result = sample.measure("average_body_mass", {"species": "Gentoo"})
    assert result.rows == (("Gentoo", 5076.0, 123),)


def test_a_measure_argument_is_data_not_sql(sample: DataCatalog) -> None:
    result = sample.measure("average_body_mass", {"species": "Gentoo' OR '1'='1"})
    assert result.rows == ()


def test_a_default_fills_an_argument_the_model_left_out(sample: DataCatalog) -> None:
    assert sample.measure("body_mass_by_sex", {"species": "Adelie"}) == sample.measure(
        "body_mass_by_sex", {"species": "Adelie", "year": 2008}
    )


def test_an_integer_given_as_text_is_accepted(sample: DataCatalog) -> None:
    assert sample.measure("body_mass_by_sex", {"species": "Adelie", "year": "2009"}).rows


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("heaviest", {}, "There is no measure 'heaviest'; the measures are: average_body_mass"),
        ("average_body_mass", {}, "needs species \\(text\\)"),
        ("average_body_mass", {"species": "Gentoo", "island": "Dream"}, "has no parameter island"),
        (
            "body_mass_by_sex",
            {"species": "Adelie", "year": "last"},
            "year should be an integer such as 2008, not 'last'",
        ),
        ("body_mass_by_sex", {"species": "Adelie", "year": 2008.5}, "year should be an integer"),
        ("average_body_mass", {"species": ["Gentoo"]}, "species should be a text"),
    ],
)
def test_a_wrong_measure_call_is_a_sentence_naming_the_fix(
    sample: DataCatalog, name: str, arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(MeasureError, match=message):
        sample.measure(name, arguments)


def test_a_result_reads_as_a_table_with_types_and_nulls_spelt_out() -> None:
    result = QueryResult(("species", "mass"), ("VARCHAR", "BIGINT"), (("Gen|too", None),))
    assert result.as_text() == (
        "| species (VARCHAR) | mass (BIGINT) |\n| --- | --- |\n| Gen\\|too | NULL |\n1 row."
    )
