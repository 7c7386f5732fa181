"""A first look at the owner's own collection: a docs site ingested with ``--base-url`` and
served with no link template, no example questions and no name given, as an owner first
tries citeline on their site. Chromium against the real server and embedded model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import httpx
from playwright.sync_api import Page, Route, expect
from tests.support.app_servers import Served
from tests.support.scripted_engine import ScriptedEngine

from citeline.events import Citation, Done, Event, Start, Token

Serve = Callable[..., Served]
SITE_NAME = "Tidewater 1.4 documentation"
ANSWERED = "How do I predict the next high tide?"
UNANSWERED = "What colour is the station logo?"
# Where the fixture site is published (conftest.py ingests it under this address).
SITE_BASE_URL = "https://tidewater.example/docs/"


def search(page: Page, query: str) -> None:
    page.get_by_role("searchbox", name="Search the collection").fill(query)
    page.keyboard.press("Enter")


def test_every_chip_links_to_its_section_on_the_owners_site(
    serve: Serve, site_db: Path, page: Page
) -> None:
    server = serve(db=site_db)
    assert httpx.get(f"{server.url}/v1/info", timeout=10).json()["link_template"] is None
    page.goto(f"{server.url}/?q={quote(ANSWERED)}")
    panel = page.locator("#answer")
    expect(panel).to_have_attribute("data-state", "answered")
    chips = panel.locator("li.chip")
    expect(chips.first).to_be_visible()
    assert chips.count() == chips.locator("a").count()
    hrefs = chips.locator("a").evaluate_all("links => links.map((a) => a.href)")
    assert hrefs and all(href.startswith(SITE_BASE_URL) and "#" in href for href in hrefs)
    assert f"{SITE_BASE_URL}guide/predictions.html#predicting-the-next-high-tide" in hrefs
    # The stored answer, and so a chat opened on it, links the same way.
    stored = httpx.get(
        f"{server.url}/v1/answers/{panel.get_attribute('data-answer-id')}", timeout=10
    ).json()
    assert [citation["href"] for citation in stored["citations"]] == hrefs
    page.get_by_role("button", name="Continue in chat").click()
    reply = page.locator("#conversation .turn").nth(1)
    expect(reply.locator("li.chip a").first).to_have_attribute("href", hrefs[0])


def test_the_empty_page_names_the_site_and_offers_its_headings_as_questions(
    serve: Serve, site_db: Path, page: Page, artifacts: Path
) -> None:
    server = serve(db=site_db)
    page.goto(server.url)
    welcome = page.locator("#welcome")
    expect(welcome.get_by_role("heading")).to_have_text(f"Ask {SITE_NAME}")
    expect(page.locator("#welcome-try")).to_be_visible()
    links = welcome.get_by_role("link")
    expect(links).to_have_count(3)
    questions = links.all_text_contents()
    assert all(question.endswith("?") for question in questions)
    assert "Why are my predictions off by an hour?" in questions
    assert not re.search(r"[0-9a-f]{12}", welcome.inner_text())
    page.screenshot(path=str(artifacts / "empty-page-owner-site.png"))
    links.first.click()
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")


def test_an_empty_page_without_examples_never_says_try_for_example(
    serve: Serve, tmp_path: Path, page: Page
) -> None:
    from citeline.corpus import Corpus

    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"_id": "n1", "title": "Introduction", "text": "Plain words."}\n', "utf-8")
    with Corpus.open(tmp_path / "notes.sqlite") as corpus:
        corpus.ingest(notes)
    server = serve(db=tmp_path / "notes.sqlite")
    page.goto(server.url)
    expect(page.locator("#welcome")).to_be_visible()
    expect(page.locator("#welcome-try")).to_be_hidden()
    expect(page.locator("#examples li")).to_have_count(0)


def test_nothing_found_shows_a_card_with_the_sentence_and_the_closest_results(
    serve: Serve, site_db: Path, page: Page
) -> None:
    server = serve(db=site_db)
    page.goto(f"{server.url}/?q={quote(UNANSWERED)}")
    panel = page.locator("#answer")
    expect(panel).to_have_attribute("data-state", "nothing_found")
    expect(panel).to_be_visible()
    expect(page.locator("#answer-note")).to_have_text(
        f"Nothing in {SITE_NAME} answers that directly. The closest results:"
    )
    closest = page.locator("#answer-closest a")
    expect(closest.first).to_be_visible()
    assert 1 <= closest.count() <= 3
    assert all(
        href.startswith(SITE_BASE_URL)
        for href in closest.evaluate_all("links => links.map((a) => a.href)")
    )
    # No header or sources over a card without an answer.
    expect(page.locator("#answer-head")).to_be_hidden()
    expect(page.locator("#answer-sources")).to_be_hidden()


def test_a_refused_answer_names_the_servers_real_window(
    serve: Serve, site_db: Path, page: Page
) -> None:
    server = serve(db=site_db, rate_limit=1, rate_window=90)
    page.goto(f"{server.url}/?q={quote(ANSWERED)}")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    search(page, "Why are my predictions off by an hour?")
    expect(page.locator("#answer")).to_have_attribute("data-state", "refused")
    expect(page.locator("#answer-note")).to_have_text(
        "The answer service is busy or declined this request; try again in 90 seconds."
    )
    expect(page.locator("#answer-head")).to_be_hidden()


def long_answer() -> list[Event]:
    """Sixty lines of answer with two cited sections, as a chatty model might write."""
    lines = [
        f"{n}. Step {n} of the procedure adjusts the station's constituents." for n in range(1, 61)
    ]
    text = "Follow the steps below.\n\n" + "\n".join(lines) + "\n"
    return [
        Start(release=None),
        Token(text),
        Citation(
            n=1,
            display_name="Predicting the next high tide",
            id="guide/predictions#predicting-the-next-high-tide",
            href=f"{SITE_BASE_URL}guide/predictions.html#predicting-the-next-high-tide",
            start=0,
            end=6,
        ),
        Citation(
            n=2,
            display_name="Harmonic constituents",
            id="guide/predictions#harmonic-constituents",
            href=f"{SITE_BASE_URL}guide/predictions.html#harmonic-constituents",
            start=text.index("Step 60"),
            end=text.index("Step 60") + 7,
        ),
        Done(state="answered", provenance="sourced"),
    ]


SHOWN_IN_CARD = """(selector) => {
  const panel = document.getElementById("answer");
  const card = panel.getBoundingClientRect();
  return [...document.querySelectorAll(selector)].map((node) => {
    const box = node.getBoundingClientRect();
    return panel.scrollTop === 0 && window.scrollY === 0 && box.height > 0 &&
      box.top >= Math.max(card.top, 0) &&
      box.bottom <= Math.min(card.bottom, window.innerHeight);
  });
}"""


def test_the_chips_and_label_of_a_long_answer_show_without_scrolling_inside_the_card(
    serve: Serve, site_db: Path, page: Page, artifacts: Path
) -> None:
    server = serve(ScriptedEngine(long_answer()), db=site_db)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server.url}/?q={quote('How do I adjust a station?')}")
        expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
        expect(page.locator("#answer-prose li")).to_have_count(60)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"long-answer-{width}x{height}.png"))
        assert page.evaluate(SHOWN_IN_CARD, "#answer li.chip") == [True, True], (width, height)
        assert page.evaluate(SHOWN_IN_CARD, "#answer-note") == [True], (width, height)
        # The label speaks of the sources "above": it sits under them.
        note = page.locator("#answer-note")
        expect(note).to_have_text("Drawn from the collection's documents cited above.")
        chips_box = page.locator("#answer-sources").bounding_box()
        note_box = note.bounding_box()
        assert chips_box is not None and note_box is not None
        assert note_box["y"] >= chips_box["y"] + chips_box["height"] - 1


def test_on_a_phone_a_new_chat_reply_is_scrolled_into_view(
    serve: Serve, site_db: Path, page: Page
) -> None:
    server = serve(db=site_db)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/?q={quote(ANSWERED)}")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    page.get_by_role("button", name="Continue in chat").click()
    for question in ("How do I use my own station data?", "How many constituents are used?"):
        page.get_by_role("textbox", name="Your follow-up question").fill(question)
        page.keyboard.press("Enter")
        reply = page.locator("#conversation .turn.from-model").last
        expect(reply).to_have_attribute("data-state", "answered")
        page.wait_for_timeout(100)  # the frame that scrolls it
        top, bottom = reply.evaluate(
            "turn => [turn.getBoundingClientRect().top, turn.getBoundingClientRect().bottom]"
        )
        # Its start is on the screen, near the top unless the whole reply fits below.
        assert top >= 0 and (top < 844 * 0.6 or bottom <= 844), (top, bottom)


def test_a_follow_up_sent_while_the_answer_it_continues_loads_comes_after_that_answer(
    serve: Serve, site_db: Path, page: Page
) -> None:
    server = serve(db=site_db)
    page.goto(f"{server.url}/?q={quote(ANSWERED)}")
    expect(page.locator("#answer")).to_have_attribute("data-state", "answered")
    # The stored answer is held back until the reader has sent a follow-up, as on a slow
    # network or a loaded machine.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/v1/answers/*", hold)
    page.get_by_role("button", name="Continue in chat").click()
    page.get_by_role("textbox", name="Your follow-up question").fill(
        "How do I use my own station data?"
    )
    page.keyboard.press("Enter")
    for _ in range(100):  # the page asks for the stored answer as the chat opens
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()
    turns = page.locator("#conversation .turn")
    expect(turns.last).to_have_attribute("data-state", "answered")
    expect(turns).to_have_count(4)
    expect(turns.nth(0)).to_contain_text(ANSWERED)
    expect(turns.nth(1)).to_have_attribute("data-state", "stored")
    expect(turns.nth(2)).to_contain_text("How do I use my own station data?")
