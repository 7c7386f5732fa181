"""The reactome wire profile, in process: its answer stream, its handoff, its settings.

The cases are ``contracts/fixtures/reactome-wire.json``'s, read here as a front end's test
suite would read them; every test runs on each backend (``backend`` fixture).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.app_servers import Served, in_process
from tests.support.engine_doubles import CountingEngine
from tests.support.event_streams import post_stream
from tests.support.scripted_engine import ScriptedEngine

from citeline.corpus import Corpus
from citeline.database import PostgresUrl
from citeline.events import Event, from_json
from citeline.server import ServerSettings, create_app
from citeline.server.settings import SettingsError
from citeline.server.store import Retention, Stores, open_sqlite_stores
from citeline.server.store.postgres import open_postgres_stores
from citeline.server.wires.reactome import reactome_payload, release_number

FIXTURES = json.loads(
    (Path(__file__).parents[2] / "contracts" / "fixtures" / "reactome-wire.json").read_text()
)
COLLECTION = Path(__file__).parent / "fixtures" / "collection"
STREAMS = {case["name"]: case for case in FIXTURES["streams"]}
HANDOFF = FIXTURES["handoff"]
Serve = Callable[..., Served]


def native_events(case: dict[str, Any]) -> list[Event]:
    return [from_json(item["event"], _without_name(item)) for item in case["native"]]


def _without_name(item: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in item.items() if key != "event"}


def filled(template: Any, **values: str) -> Any:
    """The fixture ``template`` with its ``<placeholders>`` replaced by ``values``."""
    text = json.dumps(template)
    for name, value in values.items():
        text = text.replace(f"<{name.replace('_', ' ')}>", value)
    return json.loads(text)


def ask(server: Served, caller_token: str) -> Any:
    body = filled(FIXTURES["answer_request"], caller_token=caller_token)
    return post_stream(server.client, "/chat/api/answer", body)


def hand_off(server: Served, body: dict[str, Any]) -> httpx.Response:
    return server.client.post("/api/handoff", json=body)


# ---------------------------------------------------------------- the encoding, as data


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_each_fixture_stream_maps_native_events_to_the_reactome_encoding(name: str) -> None:
    case = STREAMS[name]
    encoded = [{"event": e.name, **reactome_payload(e)} for e in native_events(case)]
    assert encoded == case["reactome"]


@pytest.mark.parametrize("case", FIXTURES["releases"], ids=lambda case: repr(case["label"]))
def test_a_release_label_is_a_number_only_when_it_is_whole_digits(case: dict[str, Any]) -> None:
    assert release_number(case["label"]) == case["release"]


# ---------------------------------------------------------------- the answer stream


def test_an_answer_citing_a_reactome_document_carries_st_id_a_numeric_release_and_answered(
    serve: Serve, token: Callable[..., str], database: str
) -> None:
    with Corpus.open(database) as corpus:
        corpus.ingest(COLLECTION, release="97")
    server = serve(model="embedded", wire="reactome", token_audience="citeline")
    streamed = post_stream(
        server.client,
        "/chat/api/answer",
        {"question": "What do caspases do during apoptosis?", "caller_token": token()},
    )
    assert streamed.status == 200
    assert streamed.content_type.startswith("text/event-stream")
    assert streamed.events[0] == ("start", {"release": 97, "answered": True})
    citations = streamed.payloads("citation")
    assert "R-HSA-109581" in {c.get("st_id") for c in citations}
    for citation in citations:
        assert set(citation) - {"href"} in ({"st_id", "display_name"}, {"url", "display_name"})
        assert all(citation.values())
    done = streamed.done()
    assert done["state"] == "answered"
    # The same engine, the same store: the native record of this answer is what streamed.
    stored = server.client.get(f"/v1/answers/{done['answer_id']}").json()
    assert stored["text"] == streamed.text()
    assert [c.get("id", c.get("url")) for c in stored["citations"]] == [
        c.get("st_id", c.get("url")) for c in citations
    ]


def test_a_release_label_too_long_for_a_number_still_streams_start_and_done(
    serve: Serve, token: Callable[..., str]
) -> None:
    # Issue 29: a label of 4,301 digits made every answer end before its start event.
    case = STREAMS["an answer citing a Reactome pathway by st_id and a user-guide page by url"]
    server = serve(
        ScriptedEngine(native_events(case)),
        wire="reactome",
        token_audience="citeline",
        release="9" * 4301,
    )
    streamed = ask(server, token())
    assert streamed.events[0] == ("start", {"release": None, "answered": True})
    assert streamed.done()["state"] == "answered"


def test_the_fixture_answer_streams_over_http_exactly_as_the_contract_writes_it(
    serve: Serve, token: Callable[..., str]
) -> None:
    case = STREAMS["an answer citing a Reactome pathway by st_id and a user-guide page by url"]
    engine = ScriptedEngine(native_events(case))
    server = serve(engine, wire="reactome", token_audience="citeline", release="97")
    streamed = ask(server, token())
    expected = [(item["event"], _without_name(item)) for item in case["reactome"]]
    # `seconds` and `answer_id` are this server's: timed and stored here, not the fixture's.
    *body, (_, done) = streamed.events
    assert body == expected[:-1]
    assert done.keys() == expected[-1][1].keys()
    assert (done["state"], done["provenance"]) == ("answered", "sourced")
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", done["answer_id"])
    assert engine.calls[0].question == FIXTURES["answer_request"]["question"]


def test_a_refusal_is_the_native_single_event_and_calls_no_model(
    serve: Serve, token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine, wire="reactome", token_audience="citeline")
    refusal = STREAMS["a refusal is the single native event"]["reactome"]
    expected = [(item["event"], _without_name(item)) for item in refusal]
    assert ask(server, "").events == expected
    assert ask(server, token(ttl=-60)).events == expected
    assert engine.calls == []


def test_the_native_routes_are_unchanged_in_the_reactome_profile(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), wire="reactome", token_audience="citeline", release="97")
    streamed = post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    assert streamed.events[0] == ("start", {"release": "97"})
    assert all("id" in c or "url" in c for c in streamed.payloads("citation"))
    assert all("st_id" not in c for c in streamed.payloads("citation"))


def test_the_native_profile_serves_none_of_the_reactome_routes(
    serve: Serve, token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine)
    answer = server.client.post("/chat/api/answer", json={"question": "q"})
    handoff = server.client.post("/api/handoff", json={"kind": "search", "answer_id": "x"})
    # Only the search page's static files answer there, and they take no POST.
    assert (answer.status_code, handoff.status_code) == (405, 405)
    assert server.client.get("/chat/guest/").status_code == 404
    assert engine.calls == []


@pytest.mark.parametrize(
    "body",
    [{"caller_token": ""}, {"question": " ", "caller_token": ""}, {"question": "x" * 2001}],
    ids=["missing", "blank", "too-long"],
)
def test_a_malformed_answer_body_gets_422_and_no_model_call(
    serve: Serve, body: dict[str, Any]
) -> None:
    engine = CountingEngine()
    server = serve(engine, wire="reactome")
    assert server.client.post("/chat/api/answer", json=body).status_code == 422
    assert engine.calls == []


# ---------------------------------------------------------------- the handoff


def answered(server: Served, caller_token: str) -> str:
    done = ask(server, caller_token).done()
    assert done["state"] == "answered"
    return str(done["answer_id"])


def test_a_handoff_for_a_stored_answer_returns_a_path_under_the_chat_prefix(
    serve: Serve, token: Callable[..., str]
) -> None:
    case = STREAMS["an answer citing a Reactome pathway by st_id and a user-guide page by url"]
    engine = ScriptedEngine(native_events(case))
    server = serve(engine, wire="reactome", release="97", token_audience="citeline")
    answer_id = answered(server, token())
    body = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token())
    response = hand_off(server, body)
    assert response.status_code == HANDOFF["response"]["status"]
    made = response.json()
    assert response.headers["cache-control"] == "no-store"
    assert made == filled(HANDOFF["response"]["body"], handoff_id=made["id"])
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", made["id"])  # 144 random bits
    assert made["path"].startswith("/chat/guest/#handoff=")

    # Redeemable repeatedly while it lives, always the answer the reader saw.
    for _ in range(3):
        redeemed = server.client.get(f"/api/handoff/{made['id']}")
        assert redeemed.status_code == 200
        assert redeemed.json() == filled(
            HANDOFF["redeemed"]["body"], handoff_id=made["id"], answer_id=answer_id
        )
    page = server.client.get(made["path"].split("#")[0])
    assert page.status_code == 200 and "<title>citeline</title>" in page.text


def test_two_handoffs_of_one_answer_have_different_ids(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), wire="reactome", token_audience="citeline")
    answer_id = answered(server, token())
    body = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token())
    assert hand_off(server, body).json()["id"] != hand_off(server, body).json()["id"]


def test_the_chat_prefix_setting_decides_the_path_and_where_the_page_is(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(
        CountingEngine(), wire="reactome", token_audience="citeline", chat_prefix="/help/chat/"
    )
    body = filled(HANDOFF["request"], answer_id=answered(server, token()), caller_token=token())
    made = hand_off(server, body).json()
    assert made["path"] == f"/help/chat/#handoff={made['id']}"
    assert server.client.get("/help/chat/").status_code == 200
    bare = server.client.get("/help/chat")
    assert (bare.status_code, bare.headers["location"]) == (308, "/help/chat/")


@pytest.mark.parametrize("case", HANDOFF["errors"], ids=lambda case: case["name"])
def test_a_handoff_request_that_cannot_be_served_gets_its_status_and_reason(
    serve: Serve, token: Callable[..., str], case: dict[str, Any]
) -> None:
    engine = CountingEngine()
    server = serve(engine, wire="reactome", token_audience="citeline")
    answer_id = answered(server, token())
    body = filled(
        case["request"],
        answer_id=answer_id,
        caller_token=token(),
        expired_caller_token=token(ttl=-60),
    )
    response = hand_off(server, body)
    assert response.status_code == case["status"]
    if "body" in case:
        assert response.json() == case["body"]
    else:
        assert "detail" in response.json()
    assert len(engine.calls) == 1, "a handoff never calls the model"


def test_a_handoff_over_the_rate_limit_is_429_and_shares_the_answers_budget(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), wire="reactome", token_audience="citeline", rate_limit=2)
    answer_id = answered(server, token("reader-1"))
    body = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token("reader-1"))
    assert hand_off(server, body).status_code == 200
    refused = hand_off(server, body)
    assert (refused.status_code, refused.json()) == (
        HANDOFF["rate_limited"]["status"],
        HANDOFF["rate_limited"]["body"],
    )
    assert ask(server, token("reader-1")).done()["state"] == "refused"
    other = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token("reader-2"))
    assert hand_off(server, other).status_code == 200


def test_a_handoff_refused_for_its_token_does_not_spend_the_budget(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), wire="reactome", token_audience="citeline", rate_limit=2)
    answer_id = answered(server, token("reader-1"))
    bad = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token("reader-1", ttl=-60))
    for _ in range(3):
        assert hand_off(server, bad).status_code == 403
    good = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token("reader-1"))
    assert hand_off(server, good).status_code == 200


def test_an_unknown_handoff_id_is_404_no_handoff(serve: Serve) -> None:
    server = serve(CountingEngine(), wire="reactome")
    response = server.client.get("/api/handoff/AAAAAAAAAAAAAAAAAAAAAAAA")
    assert (response.status_code, response.json()) == (
        HANDOFF["expired"]["status"],
        HANDOFF["expired"]["body"],
    )
    assert server.client.get(f"/api/handoff/{'A' * 65}").status_code == 422
    assert server.client.get("/api/handoff/A%00A").status_code == 422


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def stores_on(settings: ServerSettings, clock: Clock) -> Stores:
    """The stores ``settings`` select, on ``clock`` instead of the wall clock."""
    answers = Retention(settings.answer_ttl, settings.answer_max_entries)
    handoffs = Retention(settings.handoff_ttl, settings.answer_max_entries)
    if settings.database_url is not None:
        return open_postgres_stores(
            PostgresUrl(settings.database_url),
            answers=answers,
            conversations=answers,
            handoffs=handoffs,
            clock=clock,
        )
    return open_sqlite_stores(
        settings.db, answers=answers, conversations=answers, handoffs=handoffs, clock=clock
    )


def test_a_handoff_id_never_redeems_after_it_expires(
    settings: Callable[..., ServerSettings], token: Callable[..., str]
) -> None:
    clock = Clock()
    configured = settings(wire="reactome", token_audience="citeline", handoff_ttl=900)
    stores = stores_on(configured, clock)
    app = create_app(configured, engine=CountingEngine(), stores=stores)
    try:
        with in_process(app) as server:
            answer_id = answered(server, token())
            body = filled(HANDOFF["request"], answer_id=answer_id, caller_token=token())
            made = hand_off(server, body).json()
            redeem = f"/api/handoff/{made['id']}"
            clock.now += made["expires_in"] - 0.5
            assert server.client.get(redeem).status_code == 200
            clock.now += 0.5
            for _ in range(2):
                gone = server.client.get(redeem)
                assert (gone.status_code, gone.json()) == (404, {"reason": "no_handoff"})
            # A new handoff of the same answer is a new id; the old one stays dead.
            fresh = hand_off(server, body).json()
            assert server.client.get(f"/api/handoff/{fresh['id']}").status_code == 200
            assert server.client.get(redeem).status_code == 404
    finally:
        stores.close()


# ---------------------------------------------------------------- settings


def test_upstream_setting_names_are_aliases_in_the_reactome_profile_only(tmp_path: Path) -> None:
    environ = {
        "CALLER_TOKEN_PUBLIC_KEY_PATH": str(tmp_path / "public.pem"),
        "ANSWER_RATE_LIMIT": "7",
        "ANSWER_RATE_WINDOW_SECONDS": "70",
        "ANSWER_TIMEOUT_SECONDS": "45.5",
    }
    reactome = ServerSettings.from_env({**environ, "CITELINE_WIRE": "reactome"})
    assert (reactome.caller_key_file, reactome.rate_limit, reactome.rate_window) == (
        tmp_path / "public.pem",
        7,
        70,
    )
    assert reactome.answer_timeout == 45.5
    assert ServerSettings.from_env(environ, wire="reactome").rate_limit == 7
    native = ServerSettings.from_env(environ)
    assert (native.caller_key_file, native.rate_limit, native.answer_timeout) == (None, 30, 120.0)


def test_a_citeline_name_wins_over_its_upstream_alias() -> None:
    environ = {"CITELINE_WIRE": "reactome", "ANSWER_RATE_LIMIT": "7", "CITELINE_RATE_LIMIT": "9"}
    assert ServerSettings.from_env(environ).rate_limit == 9


def test_a_bad_upstream_value_is_reported_under_the_name_it_was_set_by() -> None:
    with pytest.raises(SettingsError, match="ANSWER_RATE_LIMIT='many'"):
        ServerSettings.from_env({"CITELINE_WIRE": "reactome", "ANSWER_RATE_LIMIT": "many"})


def test_the_reactome_profile_expects_reactome_chatbot_tokens_unless_told_otherwise() -> None:
    assert ServerSettings.from_env({"CITELINE_WIRE": "reactome"}).token_audience == (
        "reactome-chatbot"
    )
    blank = {"CITELINE_WIRE": "reactome", "CITELINE_TOKEN_AUDIENCE": " "}
    assert ServerSettings.from_env(blank).token_audience == "reactome-chatbot"
    named = {"CITELINE_WIRE": "reactome", "CITELINE_TOKEN_AUDIENCE": "my-site"}
    assert ServerSettings.from_env(named).token_audience == "my-site"
    assert ServerSettings.from_env({}).token_audience == "citeline"


def test_reactome_chatbot_tokens_are_answered_by_a_server_built_from_the_environment(
    token: Callable[..., str], db_path: Path, keys: Any
) -> None:
    configured = ServerSettings.from_env(
        {"CITELINE_WIRE": "reactome", "CALLER_TOKEN_PUBLIC_KEY_PATH": str(keys.public_file)},
        db=db_path,
    )
    with in_process(create_app(configured, engine=CountingEngine())) as server:
        assert ask(server, token(audience="reactome-chatbot")).done()["state"] == "answered"
        assert ask(server, token(audience="citeline")).done()["state"] == "refused"


@pytest.mark.parametrize(
    "value", ["//evil.example/", "/chat?x=1/", "/chat#x/", "chat/guest/", "/a/../b/", "/a b/"]
)
def test_a_chat_prefix_that_is_not_a_plain_same_origin_path_stops_start_up(value: str) -> None:
    with pytest.raises(SettingsError, match="CITELINE_CHAT_PREFIX"):
        ServerSettings.from_env({"CITELINE_CHAT_PREFIX": value})


def test_a_chat_prefix_gains_its_trailing_slash() -> None:
    assert ServerSettings.from_env({"CITELINE_CHAT_PREFIX": "/help/chat"}).chat_prefix == (
        "/help/chat/"
    )


def test_an_unknown_wire_stops_start_up() -> None:
    with pytest.raises(SettingsError, match="CITELINE_WIRE"):
        ServerSettings.from_env({"CITELINE_WIRE": "graphql"})
    with pytest.raises(SettingsError, match="--wire"):
        ServerSettings.from_env({}, wire="graphql")


def test_the_reactome_profile_refuses_to_start_on_stores_without_handoffs(
    settings: Callable[..., ServerSettings], db_path: Path
) -> None:
    from citeline.server import StartupError

    retention = Retention(60, 10)
    native = open_sqlite_stores(db_path, answers=retention, conversations=retention)
    try:
        assert native.handoffs is None
        with pytest.raises(StartupError, match="handoff store"):
            create_app(settings(wire="reactome"), engine=CountingEngine(), stores=native)
    finally:
        native.close()


def test_a_native_server_keeps_no_handoff_table(
    serve: Serve, token: Callable[..., str], db_path: Path, backend: dict[str, Any]
) -> None:
    server = serve(CountingEngine())
    assert server.state.stores.handoffs is None
    if "database_url" not in backend:
        with sqlite3.connect(db_path) as connection:
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert "answers" in tables and "handoffs" not in tables


def test_a_refused_handoff_is_counted_as_a_refusal_but_not_as_a_refused_answer(
    serve: Serve, token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), wire="reactome", token_audience="citeline")
    answer_id = answered(server, token())
    body = filled(HANDOFF["request"], answer_id=answer_id, caller_token="")
    assert hand_off(server, body).status_code == 403
    metrics = server.client.get("/metrics").text
    assert 'citeline_refusals_total{cause="no_token"} 1.0' in metrics
    assert 'citeline_answers_total{state="refused"} 0.0' in metrics
