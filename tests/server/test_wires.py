"""The server is handed a wire and serves what that wire says: its routes, its encoding.

``create_app`` asks the wire object, never ``settings.wire``'s name, so a wire handed to it
wins, and one that serves other routes serves only those. The reactome wire's own contract
is ``test_reactome_wire.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from tests.support.app_servers import in_process
from tests.support.engine_doubles import CountingEngine
from tests.support.event_streams import post_stream

from citeline.events import Start, Token
from citeline.server import ServerSettings, create_app
from citeline.server.routes import ServerState
from citeline.server.settings import SettingsError
from citeline.server.wires import WIRES, NativeWire, ReactomeWire, Wire, WireName, wire_named


class PingWire(Wire):
    """A wire of one route, and none of the native ones."""

    name: ClassVar[WireName] = "native"

    def routers(self, state: ServerState, static_dir: Path) -> list[APIRouter]:
        router = APIRouter()

        @router.get("/ping")
        async def ping() -> PlainTextResponse:
            return PlainTextResponse(state.engine.model_name)

        return [router]


def test_a_wire_handed_to_the_server_is_the_one_it_serves(
    settings: Callable[..., ServerSettings],
) -> None:
    with in_process(create_app(settings(), engine=CountingEngine(), wire=PingWire())) as served:
        assert served.client.get("/ping").status_code == 200
        assert served.client.get("/ping").text == served.state.engine.model_name
        # No native route: the path falls through to the page's files, which hold no such file.
        assert served.client.get("/v1/info").status_code == 404


def test_the_native_wire_serves_no_reactome_route(
    settings: Callable[..., ServerSettings], token: Callable[..., str]
) -> None:
    with in_process(create_app(settings(), engine=CountingEngine())) as served:
        body = {"question": "What is a list?", "caller_token": token()}
        # Past every route, the page's files, which answer no POST.
        assert served.client.post("/chat/api/answer", json=body).status_code == 405
        assert served.client.get("/api/handoff/anything").status_code == 404
        assert post_stream(served.client, "/v1/answer", body).status == 200


def test_each_wire_is_found_by_the_name_its_setting_gives() -> None:
    assert isinstance(wire_named("native"), NativeWire)
    assert isinstance(wire_named("reactome"), ReactomeWire)
    assert all(wire.name == name for name, wire in WIRES.items())


def test_only_the_reactome_wire_reads_upstreams_names_and_keeps_handoffs() -> None:
    native, reactome = wire_named("native"), wire_named("reactome")
    assert native.variable_names("CITELINE_RATE_LIMIT") == ("CITELINE_RATE_LIMIT",)
    assert reactome.variable_names("CITELINE_RATE_LIMIT") == (
        "CITELINE_RATE_LIMIT",
        "ANSWER_RATE_LIMIT",
    )
    assert reactome.variable_names("CITELINE_MODEL") == ("CITELINE_MODEL",)
    assert (native.keeps_handoffs, reactome.keeps_handoffs) == (False, True)
    assert (native.heading_rule, reactome.heading_rule) == ("strict", "tolerant")


def test_a_wire_encodes_only_what_its_client_reads_differently() -> None:
    native, reactome = wire_named("native"), wire_named("reactome")
    assert native.encode(Token("a")) == reactome.encode(Token("a"))
    assert '"release":"97"' in native.encode(Start(release="97"))
    assert '"release":97' in reactome.encode(Start(release="97"))


def test_a_wire_no_server_speaks_is_refused_with_the_ones_it_does() -> None:
    try:
        ServerSettings.from_env({}, wire="graphql")
    except SettingsError as error:
        assert "native or reactome" in str(error)
    else:
        raise AssertionError("an unknown wire was accepted")
