"""The page always says something: a refused answer, a Stop before the first word, a
phone's narrow screen and an empty page each leave the reader a sentence, never a blank.

Chromium against the real server and sample collection, as in test_search_page.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
from playwright.sync_api import Page, expect
from tests.support.app_servers import Served

from citeline.events import Done, Event, Start
from citeline.server.store import ConversationMessage

QUESTION = "How do I sort a list of dictionaries by a key?"
# The server's window is 600 s unless set: the page says so in a reader's words.
REFUSED = "The answer service is busy or declined this request; try again in 10 minutes."
Serve = Callable[..., Served]


def search(page: Page, query: str) -> None:
    page.get_by_role("searchbox", name="Search the collection").fill(query)
    page.keyboard.press("Enter")


@dataclass
class SilentEngine:
    """Starts an answer, then writes nothing for far longer than any test."""

    model_name: str = "silent double"

    def answer(
        self, question: str, *, profile: str, history: Sequence[ConversationMessage]
    ) -> AsyncIterator[Event]:
        return self._events()

    async def _events(self) -> AsyncIterator[Event]:
        yield Start()
        await asyncio.sleep(3600)
        yield Done(state="answered")


def wider_than(page: Page, width: int) -> list[str]:
    """Every visible element that reaches past ``width`` pixels, named for the failure."""
    found: list[str] = page.evaluate(
        """(width) => [...document.querySelectorAll("body *")]
            .filter((node) => node.getClientRects().length > 0)
            .filter((node) => {
              const box = node.getBoundingClientRect();
              return box.width > width || box.right > width + 0.5;
            })
            .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`)""",
        width,
    )
    return found


def test_a_refused_answer_shows_a_short_message_and_the_event_stays_as_contracted(
    serve: Serve, page: Page
) -> None:
    server = serve(rate_limit=1)
    page.goto(f"{server.url}/?q={quote(QUESTION)}")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    search(page, "How do I sort in reverse order?")  # over the limit of one answer
    expect(page.locator("#answer")).to_have_attribute("data-state", "refused")
    expect(page.locator("#answer")).to_be_visible()
    expect(page.locator("#answer-note")).to_have_text(REFUSED)
    expect(page.locator("#answer-prose")).to_have_text("")
    # No "Answer · Written by ..." header over a card without an answer.
    expect(page.locator("#answer-head")).to_be_hidden()
    expect(page.locator("#results .result").first).to_be_visible()
    with httpx.stream(
        "POST", f"{server.url}/v1/answer", json={"question": "again", "caller_token": ""}
    ) as response:
        body = response.read().decode()
    assert body.strip().splitlines() == [
        "event: done",
        f"data: {json.dumps({'state': 'refused', 'seconds': 0.0}, separators=(',', ':'))}",
    ]


def test_stop_before_the_first_text_says_stopped(serve: Serve, page: Page) -> None:
    server = serve(engine=SilentEngine())
    page.goto(server.url)
    search(page, "anything at all")
    expect(page.locator("#answer")).to_have_attribute("data-state", "streaming")
    # Before the first words the card says what it is doing, never a header over nothing.
    expect(page.locator("#answer-note")).to_have_text("Writing the answer…")
    page.get_by_role("button", name="Stop").click()
    expect(page.locator("#answer")).to_have_attribute("data-state", "stopped")
    expect(page.locator("#answer")).to_be_visible()
    expect(page.locator("#answer-note")).to_have_text("Stopped.")


def test_at_360_px_nothing_is_wider_than_the_screen_in_search_or_chat(
    serve: Serve, page: Page
) -> None:
    server = serve()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server.url}/?q={quote(QUESTION)}")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    assert wider_than(page, 360) == []
    page.get_by_role("button", name="Continue in chat").click()
    expect(page.locator("#chat-view")).to_be_visible()
    expect(page.locator("#conversation .turn").nth(1)).to_be_visible()
    page.get_by_role("textbox", name="Your follow-up question").fill(
        "How do I sort in reverse order?"
    )
    page.keyboard.press("Enter")
    expect(page.locator("#conversation .turn")).to_have_count(4)
    expect(page.locator("#conversation .turn").nth(3)).to_have_attribute("data-state", "answered")
    assert wider_than(page, 360) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_empty_page_names_the_collection_its_size_and_example_questions(
    serve: Serve, page: Page, tmp_path: Path
) -> None:
    examples = tmp_path / "examples.txt"
    examples.write_text(
        "# shown on the empty page\n"
        f"{QUESTION}\n\nWhy are default values shared between objects?\n"
        "What is a decorator?\nA fourth question the page leaves out?\n",
        "utf-8",
    )
    server = serve(examples=examples, collection_name="the Python docs")
    documents = httpx.get(f"{server.url}/v1/info", timeout=10).json()["documents"]
    assert documents > 100
    page.goto(server.url)
    welcome = page.locator("#welcome")
    expect(welcome).to_be_visible()
    expect(welcome.get_by_role("heading")).to_have_text("Ask the Python docs")
    expect(page.locator("#welcome-size")).to_have_text(f"{documents:,} documents")
    links = welcome.get_by_role("link")
    expect(links).to_have_text(
        [QUESTION, "Why are default values shared between objects?", "What is a decorator?"]
    )
    links.first.click()
    expect(page).to_have_url(f"{server.url}/?q={quote(QUESTION).replace('%20', '+')}")
    expect(welcome).to_be_hidden()
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
