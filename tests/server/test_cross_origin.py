"""``--allow-origin``: the routes the Ask box calls answer CORS for the origins named, only.

What a browser decides from these headers is tested in Chromium (tests/web/test_ask_box.py);
here the headers themselves, for each route and origin, without a browser.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_servers import Served, in_process
from tests.support.engine_doubles import CountingEngine

from citeline.server import create_app
from citeline.server.cors import CROSS_ORIGIN_ROUTES
from citeline.server.settings import ServerSettings, SettingsError

DOCS = "https://docs.example.org"
OTHER = "https://elsewhere.example.net"
Serve = Callable[..., Served]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """The app in process on SQLite: headers do not depend on the backend."""
    with ExitStack() as stack:

        def start(engine: CountingEngine, **overrides: Any) -> Served:
            settings = ServerSettings(db=tmp_path / "c.sqlite", **overrides)
            return stack.enter_context(in_process(create_app(settings, engine=engine)))

        yield start


def preflight(server: Served, path: str, origin: str, method: str = "POST") -> dict[str, str]:
    response = server.client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "content-type",
        },
    )
    return {key.lower(): value for key, value in response.headers.items()} | {
        ":status": str(response.status_code)
    }


def cors_headers(headers: dict[str, str]) -> set[str]:
    return {key for key in headers if key.startswith("access-control-")}


@pytest.mark.parametrize("path", sorted(CROSS_ORIGIN_ROUTES))
def test_an_allowed_origin_gets_its_preflight_answered_on_each_route_the_box_calls(
    serve: Serve, path: str
) -> None:
    server = serve(CountingEngine(), open=True, allow_origins=(DOCS,))
    headers = preflight(server, path, DOCS, "POST" if path in ("/v1/answer", "/v1/chat") else "GET")
    assert headers[":status"] == "200"
    assert headers["access-control-allow-origin"] == DOCS
    assert "content-type" in headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in headers


@pytest.mark.parametrize("path", sorted(CROSS_ORIGIN_ROUTES))
def test_an_origin_not_allowed_gets_no_cors_header_at_all(serve: Serve, path: str) -> None:
    server = serve(CountingEngine(), open=True, allow_origins=(DOCS,))
    headers = preflight(server, path, OTHER)
    assert cors_headers(headers) == set()
    assert headers[":status"] == "405"
    assert "origin" in headers["vary"].lower()


def test_the_answer_itself_carries_the_grant_for_an_allowed_origin_only(serve: Serve) -> None:
    engine = CountingEngine()
    server = serve(engine, open=True, allow_origins=(DOCS,))
    body = {"question": "When are spring tides?", "caller_token": ""}
    allowed = server.client.post("/v1/answer", json=body, headers={"Origin": DOCS})
    other = server.client.post("/v1/answer", json=body, headers={"Origin": OTHER})
    assert allowed.headers["access-control-allow-origin"] == DOCS
    assert allowed.headers["vary"].lower().replace(" ", "").split(",").count("origin") == 1
    assert cors_headers({k.lower(): v for k, v in other.headers.items()}) == set()
    # CORS only decides what a browser lets a page read: both reached the engine.
    assert len(engine.calls) == 2


@pytest.mark.parametrize("path", ["/v1/answers/nope", "/metrics", "/healthz", "/openapi.json"])
def test_routes_the_box_does_not_call_stay_same_origin_even_for_an_allowed_origin(
    serve: Serve, path: str
) -> None:
    server = serve(CountingEngine(), open=True, allow_origins=(DOCS,))
    assert cors_headers(preflight(server, path, DOCS, "GET")) == set()
    response = server.client.get(path, headers={"Origin": DOCS})
    assert "access-control-allow-origin" not in response.headers


def test_without_allowed_origins_nothing_answers_cors(serve: Serve) -> None:
    server = serve(CountingEngine(), open=True)
    assert cors_headers(preflight(server, "/v1/answer", DOCS)) == set()
    assert "access-control-allow-origin" not in server.client.get("/embed/citeline-ask.js").headers


def test_the_box_s_files_load_from_any_origin_once_one_is_allowed(serve: Serve) -> None:
    server = serve(CountingEngine(), open=True, allow_origins=(DOCS,))
    for path in ("/embed/citeline-ask.js", "/embed/ask-stream.js", "/sse.js"):
        response = server.client.get(path, headers={"Origin": OTHER})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/javascript")
        assert response.headers["access-control-allow-origin"] == "*"


def test_origins_are_read_as_a_browser_sends_them() -> None:
    settings = ServerSettings.from_env(
        {"CITELINE_ALLOW_ORIGINS": "HTTPS://Docs.Example.org:443/, http://127.0.0.1:8001"}
    )
    assert settings.allow_origins == (DOCS, "http://127.0.0.1:8001")
    flags = ServerSettings.from_env({"CITELINE_ALLOW_ORIGINS": OTHER}, allow_origins=[DOCS])
    assert flags.allow_origins == (DOCS,)


@pytest.mark.parametrize(
    "value", ["*", "docs.example.org", "https://docs.example.org/guide/", "ftp://docs.example.org"]
)
def test_an_allowed_origin_that_is_not_one_stops_start_up_saying_what_to_give(value: str) -> None:
    with pytest.raises(SettingsError, match=re.escape("give one like https://docs.example.org")):
        ServerSettings.from_env({}, allow_origins=[value])
    with pytest.raises(SettingsError, match="CITELINE_ALLOW_ORIGINS"):
        ServerSettings.from_env({"CITELINE_ALLOW_ORIGINS": value})
