"""React-to-Me's "Continue in chat" end to end: a handoff made over HTTP, opened in Chromium.

The server runs the reactome wire profile; the answer comes from the engine double whose
citations name a Reactome pathway by id and a page by url, so the chips are known exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect
from tests.support.app_servers import Served, live_server
from tests.support.engine_doubles import ANSWER_CITATIONS, ANSWER_TOKENS, CountingEngine
from tests.support.event_streams import post_stream

from citeline.corpus import Corpus
from citeline.sample import LINK_TEMPLATE
from citeline.server import ServerSettings, create_app
from citeline.server.store import Retention, open_sqlite_stores

Serve = Callable[..., Served]
QUESTION = "What is apoptosis?"


def handoff_path(server: Served) -> tuple[str, str]:
    """Answer QUESTION on the reactome route, hand it off; the answer id and the handoff path."""
    streamed = post_stream(
        server.client, "/chat/api/answer", {"question": QUESTION, "caller_token": ""}
    )
    answer_id = streamed.done()["answer_id"]
    made = httpx.post(
        f"{server.url}/api/handoff",
        json={"kind": "search", "answer_id": answer_id, "caller_token": ""},
        timeout=10,
    )
    assert made.status_code == 200, made.text
    body: dict[str, Any] = made.json()
    return answer_id, body["path"]


def test_a_handoff_opens_the_chat_with_the_answer_and_its_chips_as_the_first_turn(
    serve: Serve, page: Page
) -> None:
    engine = CountingEngine()
    server = serve(engine, wire="reactome")
    answer_id, path = handoff_path(server)
    assert path.startswith("/chat/guest/#handoff=")

    page.goto(server.url + path)
    chat = page.locator("#chat-view")
    expect(chat).to_be_visible()
    expect(page.locator("#search-view")).to_be_hidden()
    first = chat.locator(".turn").first
    expect(first).to_have_class("turn from-model")
    expect(first).to_have_attribute("data-state", "stored")
    expect(first.locator(".turn-who")).to_contain_text(QUESTION)
    expect(first.locator(".prose")).to_contain_text("Apoptosis is programmed cell death")
    expect(first.locator(".chip-name")).to_have_text([c.display_name for c in ANSWER_CITATIONS])
    hrefs = first.locator(".chip a").evaluate_all("links => links.map((a) => a.href)")
    assert hrefs == [
        LINK_TEMPLATE.replace("{id}", "R-HSA-109581"),
        "https://example.org/review",
    ]
    expect(first.locator("sup.marker")).to_have_count(1)
    assert chat.locator(".turn").count() == 1

    # A follow-up continues from exactly the handed-off answer.
    page.get_by_role("textbox", name="Your follow-up question").fill("And necroptosis?")
    page.keyboard.press("Enter")
    expect(chat.locator(".turn.from-model").nth(1)).to_have_attribute("data-state", "answered")
    follow_up = engine.calls[-1]
    assert follow_up.question == "And necroptosis?"
    assert [m.text for m in follow_up.history] == [QUESTION, "".join(ANSWER_TOKENS)]
    assert answer_id


def test_reloading_a_handoff_shows_the_same_first_turn_and_a_marker_click_keeps_the_chat(
    serve: Serve, page: Page
) -> None:
    server = serve(CountingEngine(), wire="reactome")
    _, path = handoff_path(server)
    page.goto(server.url + path)
    first = page.locator("#chat-view .turn").first
    expect(first.locator(".chip")).to_have_count(2)
    page.reload()
    expect(first.locator(".chip")).to_have_count(2)
    first.locator("sup.marker a").click()
    expect(page.locator("#chat-view")).to_be_visible()
    expect(page.locator("#chat-view .turn")).to_have_count(1)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_an_expired_handoff_says_so_and_leaves_a_working_chat(
    collection_db: Path, tmp_path: Path, page: Page
) -> None:
    clock = Clock()
    retention = Retention(3600, 100)
    stores = open_sqlite_stores(
        tmp_path / "stores.db",
        answers=retention,
        conversations=retention,
        handoffs=Retention(900, 100),
        clock=clock,
    )
    engine = CountingEngine()
    settings = ServerSettings(db=collection_db, open=True, wire="reactome", log_format="text")
    with (
        Corpus.open(collection_db) as corpus,
        live_server(create_app(settings, engine=engine, corpus=corpus, stores=stores)) as server,
    ):
        _, path = handoff_path(server)
        clock.now += 900
        page.goto(server.url + path)
        expect(page.locator("#chat-note")).to_contain_text("expired")
        expect(page.locator("#chat-view .turn")).to_have_count(0)
        page.get_by_role("textbox", name="Your follow-up question").fill("What is apoptosis?")
        page.keyboard.press("Enter")
        reply = page.locator("#chat-view .turn.from-model")
        expect(reply).to_have_attribute("data-state", "answered")
        assert engine.calls[-1].history == ()
    stores.close()
