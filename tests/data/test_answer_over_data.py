"""``answer`` over data, against a real local server speaking the OpenAI streaming protocol.

The model's turns are scripted; the server records exactly what a real provider would have
been sent, so these tests check the wire (tool results, the reminder, errors) and the events
(quote citations, the provenance label), not our own bookkeeping.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from citeline.agent import ChatMessage, answer, load_prompt
from citeline.data import DataCatalog, Project, QueryLimits, TableSpec, load_project
from citeline.events import Citation, Done, Event, Token

from .sources import write_all
from .test_sandbox import gone

ScriptedOpenAIServer = Any  # tests/support/openai_stub.py, as the openai_server fixture gives it
REMINDER = load_prompt("citation-request")
GENTOO_SQL = "SELECT avg(body_mass_g) AS grams FROM penguins WHERE species = 'Gentoo'"


async def collect(question: str, data: DataCatalog, **kwargs: Any) -> list[Event]:
    return [event async for event in answer(question, data=data, model="openai:scripted", **kwargs)]


def prose(events: list[Event]) -> str:
    return "".join(event.text for event in events if isinstance(event, Token))


def done(events: list[Event]) -> Done:
    last = events[-1]
    assert isinstance(last, Done)
    return last


def tool_messages(server: ScriptedOpenAIServer) -> dict[str, str]:
    """Every tool result the model was sent, by call id, as the wire carried it."""
    return {
        message["tool_call_id"]: message["content"]
        for body in server.requests()
        for message in body["messages"]
        if message["role"] == "tool"
    }


def reminded(content: str) -> bool:
    return REMINDER in content or json.dumps(REMINDER) in content


def in_call_order(server: ScriptedOpenAIServer) -> list[str]:
    """Tool results in the order they were first sent."""
    seen: dict[str, str] = {}
    for body in server.requests():
        for message in body["messages"]:
            if message["role"] == "tool":
                seen.setdefault(message["tool_call_id"], message["content"])
    return list(seen.values())


async def test_a_measure_only_answer_is_labelled_verified(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    openai_server.script = [
        {"calls": [("measure", {"name": "average_body_mass", "args": {"species": "Gentoo"}})]},
        {"text": ["Gentoo penguins weigh ", "5076 g on average."]},
    ]
    events = await collect("How heavy are Gentoo penguins?", sample)

    (result,) = in_call_order(openai_server)
    assert "| Gentoo | 5076.0 | 123 |" in result
    assert not reminded(result)
    assert prose(events) == "Gentoo penguins weigh 5076 g on average."
    assert (done(events).state, done(events).provenance) == ("answered", "verified")


async def test_an_ad_hoc_answer_backed_by_a_quote_of_its_values_is_cited(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    query_id = "query:" + hashlib.sha256(GENTOO_SQL.encode("utf-8")).hexdigest()[:12]
    openai_server.script = [
        {"calls": [("sql", {"query": GENTOO_SQL})]},
        {
            "text": [
                f"Gentoo penguins weigh [5076 g](cite:{query_id}) on average.\n<cit",
                "ation>\n> | 5076.01626",
                "0162602 |\nThe average my query returned.\n</cita",
                "tion>\nThat is about 5 kg.",
            ]
        },
    ]
    events = await collect("How heavy are Gentoo penguins?", sample)

    (result,) = in_call_order(openai_server)
    assert f"cite as cite:{query_id}" in result
    citations = [event for event in events if isinstance(event, Citation)]
    # The anchor cites the query as a source; the quote, of the same result, shares its number.
    assert citations == [
        Citation(n=1, display_name=GENTOO_SQL, id=query_id, start=22, end=28),
        Citation(
            n=1,
            display_name=GENTOO_SQL,
            id=query_id,
            quote="| 5076.016260162602 |",
            verified=True,
            kind="result",
        ),
    ]
    assert prose(events) == "Gentoo penguins weigh 5076 g on average.\nThat is about 5 kg."
    assert done(events).provenance == "cited"


async def test_a_quote_of_a_description_never_earns_cited(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    # Found by attack: a made-up figure backed by ten characters of the table's description
    # was labelled cited. A description says what a column means, not what any value is.
    openai_server.script = [
        {"calls": [("sql", {"query": GENTOO_SQL})]},
        {
            "text": [
                "Gentoo penguins weigh 9999 g on average.\n<citation>\n> Body mass",
                " in grams.\nThe column I averaged.\n</citation>\n",
            ]
        },
    ]
    events = await collect("How heavy are Gentoo penguins?", sample)

    (quote,) = [event for event in events if isinstance(event, Citation)]
    assert (quote.kind, quote.id, quote.quote) == ("table", "table:penguins", "Body mass in grams.")
    assert done(events).provenance == "untrusted"


async def test_a_quote_not_in_the_trusted_text_is_untrusted_and_never_reaches_the_prose(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.agent.engine")
    openai_server.script = [
        {"calls": [("sql", {"query": GENTOO_SQL})]},
        {
            "text": [
                "Gentoo penguins weigh 5076 g.\n<citation>\n> Body mass in grams, ",
                "weighed at dawn.\nTrust me.\n</citation>\n",
            ]
        },
    ]
    events = await collect("How heavy are Gentoo penguins?", sample)

    assert not [event for event in events if isinstance(event, Citation)]
    text = prose(events)
    assert text == "Gentoo penguins weigh 5076 g.\n"
    assert "weighed at dawn" not in text and "Trust me" not in text and "citation" not in text
    assert done(events).provenance == "untrusted"
    (logged,) = [record for record in caplog.records if hasattr(record, "verdicts")]
    assert logged.verdicts == [
        {
            "quote": "Body mass in grams, weighed at dawn.",
            "status": "rejected",
            "reason": "not_found",
            "source": None,
        }
    ]


async def test_a_measure_definition_backs_an_ad_hoc_figure_as_a_definition(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    openai_server.script = [
        {"calls": [("sql", {"query": GENTOO_SQL})]},
        {
            "text": [
                "5076 g.\n<citation>\n> Average body mass in grams of the penguins of one ",
                "species\n</citation>\n",
            ]
        },
    ]
    events = await collect("How heavy are Gentoo penguins?", sample)

    (quote,) = [event for event in events if isinstance(event, Citation)]
    assert (quote.kind, quote.id, quote.start, quote.end) == (
        "definition",
        "measure:average_body_mass",
        None,
        None,
    )


async def test_the_reminder_rides_on_the_first_ad_hoc_result_never_on_a_measure(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    openai_server.script = [
        {"calls": [("measure", {"name": "penguins_per_island", "args": {"island": "Dream"}})]},
        {"calls": [("sql", {"query": "SELECT count(*) FROM penguins"})]},
        {"calls": [("sql", {"query": "SELECT count(*) FROM penguins WHERE year = 2008"})]},
        {"text": ["344 penguins, 114 of them in 2008."]},
    ]
    await collect("How many penguins?", sample)

    measure, first_sql, second_sql = in_call_order(openai_server)
    assert [reminded(measure), reminded(first_sql), reminded(second_sql)] == [False, True, False]


async def test_an_errored_sql_result_passes_without_the_reminder_and_leaves_it_unspent(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    openai_server.script = [
        {"calls": [("sql", {"query": "SELECT weight FROM penguins"})]},
        {"calls": [("sql", {"query": "SELECT count(*) FROM penguins"})]},
        {"text": ["344 penguins."]},
    ]
    events = await collect("How many penguins?", sample)

    failed, succeeded = in_call_order(openai_server)
    assert "The query failed: Binder Error" in failed and not reminded(failed)
    assert "| 344 |" in succeeded and reminded(succeeded)
    assert done(events).provenance == "untrusted"


async def test_each_user_turn_of_a_conversation_gets_the_reminder_once(
    openai_server: ScriptedOpenAIServer, sample: DataCatalog
) -> None:
    for year in (2007, 2008):
        openai_server.script = [
            {"calls": [("sql", {"query": f"SELECT count(*) FROM penguins WHERE year = {year}"})]},
            {"calls": [("sql", {"query": "SELECT count(*) FROM penguins"})]},
            {"text": ["Counted."]},
        ]
        history = [ChatMessage("user", "How many in 2007?"), ChatMessage("assistant", "110.")]
        openai_server.bodies.clear()
        await collect(
            f"How many in {year}?", sample, profile="chat", history=history[: 2 * (year - 2007)]
        )
        assert [reminded(content) for content in in_call_order(openai_server)] == [True, False]


async def test_the_reminder_asks_for_a_quote_block_behind_ad_hoc_figures() -> None:
    assert "`sql`" in REMINDER and "<citation>" in REMINDER and "`> `" in REMINDER


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


async def test_write_attempts_through_the_sql_tool_are_refused_and_change_no_file(
    openai_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    files = write_all(tmp_path)
    tables = (
        TableSpec("penguins", files["csv"], nulls=("NA",)),
        TableSpec("from_sqlite", files["sqlite"]),
        TableSpec("from_duckdb", files["duckdb"]),
        TableSpec("from_parquet", files["parquet"]),
    )
    attempts = [
        "INSERT INTO penguins SELECT * FROM penguins",
        f"ATTACH '{files['duckdb']}' AS source",
        f"COPY penguins TO '{files['csv']}'",
        "PRAGMA enable_checkpoint_on_shutdown",
        "SELECT 1; DELETE FROM from_sqlite",
    ]
    before = snapshot(tmp_path)
    openai_server.script = [
        *({"calls": [("sql", {"query": attempt})]} for attempt in attempts),
        {"text": ["I could not change anything."]},
    ]
    with DataCatalog.open(Project(tables=tables)) as catalog:
        events = await collect("Delete everything.", catalog)
        assert catalog.sql("SELECT count(*) FROM penguins").rows == ((5,),)

    results = in_call_order(openai_server)
    assert len(results) == len(attempts)
    for result in results:
        assert "sql failed:" in result and (
            "read query (SELECT)" in result or "exactly one query" in result
        )
        assert not reminded(result)
    assert snapshot(tmp_path) == before
    assert done(events).provenance == "none"


async def test_an_answer_that_times_out_mid_query_ends_failed_and_kills_the_query(
    openai_server: ScriptedOpenAIServer,
) -> None:
    # Found by attack: an answer that timed out at 5 s left its query running about 24 s
    # more at 3.8 GB, because cancelling the answer did not stop the query's thread.
    openai_server.script = [
        {"calls": [("sql", {"query": "SELECT count(*) FROM range(100000000000) a"})]},
        {"text": ["Never reached."]},
    ]
    with DataCatalog.open(load_project("sample"), limits=QueryLimits(seconds=120)) as catalog:
        (pid,) = catalog.worker_pids()
        events = await collect("Count forever.", catalog, timeout=3.0)
        assert done(events).state == "failed"
        assert await asyncio.to_thread(gone, pid)
        assert catalog.sql("SELECT count(*) FROM penguins").rows == ((344,),)
