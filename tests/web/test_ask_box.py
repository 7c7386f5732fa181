"""The Ask box on an owner's own site: real Sphinx and MkDocs sites, in Chromium.

Built here, as an owner builds them: the Sphinx project in ``fixtures/ask-sites/sphinx``
with ``extensions = ["citeline.sphinx"]``, and the MkDocs project in
``fixtures/ask-sites/mkdocs`` with ``plugins: - citeline``. Each is served on a loopback
port of its own, ingested with ``--base-url`` at that address, and answered by
``citeline serve --open --allow-origin SITE...``, a process on another port started as an
owner would start it. A guarded server (a key file, no ``--open``) answers a plain page that
embeds the box with docs/page.md's copy-paste snippet and a ``token-url`` the test site
answers, with a token or without one. The Sphinx site served on a third port is an origin
nobody allowed. The embedded model answers, so every answer is a real one.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
import pytest
from playwright.sync_api import Page, Request, Response, expect
from tests.support.caller_keys import make_keys
from tests.support.server_processes import ServerProcess, free_port, start_server, stop_server

from citeline.corpus import Corpus
from citeline.embed import snippet
from citeline.server.tokens import mint_token

FIXTURES = Path(__file__).parent / "fixtures" / "ask-sites"
SPRING = "When do spring tides happen?"
BUDGET_BYTES = 30 * 1024  # the component's whole weight on a page, uncompressed (issue 32)
SAY_REFUSED = "The answer service is busy or declined this request; try again later."
SAY_NOTHING = "Nothing on this site answers that. Try other words, or the site's search."
SAY_UNREACHABLE = "The answer service cannot be reached from this page right now."


@dataclass
class Tokens:
    """What the test site's token URL answers: a fresh caller token, or 403 (none)."""

    private_key: bytes
    give: bool = True
    asked: int = 0

    def next(self) -> str | None:
        self.asked += 1
        if not self.give:
            return None
        return mint_token(
            self.private_key, subject="site-reader", ttl_seconds=120, audience="citeline"
        )


class SiteHandler(SimpleHTTPRequestHandler):
    """A static site, as any web server serves one, plus the owner's token URL."""

    tokens: Tokens | None = None

    def do_GET(self) -> None:
        if urlsplit(self.path).path == "/citeline-token" and self.tokens is not None:
            token = self.tokens.next()
            body = (token or "no session").encode()
            self.send_response(200 if token else 403)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serving(root: Path, tokens: Tokens | None = None) -> Iterator[str]:
    handler = type("Site", (SiteHandler,), {"tokens": tokens})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def build_sphinx(out: Path, doctrees: Path, citeline_url: str) -> None:
    from sphinx.cmd.build import build_main

    status = build_main(
        ["-q", "-b", "html", "-d", str(doctrees), "-D", f"citeline_url={citeline_url}",
         str(FIXTURES / "sphinx"), str(out)]
    )  # fmt: skip
    assert status == 0


def build_mkdocs(out: Path, citeline_url: str) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    previous = os.environ.get("CITELINE_URL")
    os.environ["CITELINE_URL"] = citeline_url
    try:
        build(load_config(str(FIXTURES / "mkdocs" / "mkdocs.yml"), site_dir=str(out)))
    finally:
        if previous is None:
            del os.environ["CITELINE_URL"]
        else:
            os.environ["CITELINE_URL"] = previous


@dataclass
class World:
    sphinx: str  # the Sphinx site, an allowed origin
    mkdocs: str  # the MkDocs site, an allowed origin
    stranger: str  # the Sphinx site again, on an origin nobody allowed
    answers: ServerProcess  # --open, for both sites
    guarded: ServerProcess  # caller tokens required, for the Sphinx site's origin
    tokens: Tokens
    requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("ask-box")
    keys = make_keys(tmp)
    tokens = Tokens(keys.ed25519_private)
    sphinx_root, mkdocs_root = tmp / "sphinx-site", tmp / "mkdocs-site"
    sphinx_root.mkdir()
    mkdocs_root.mkdir()
    with ExitStack() as stack:
        sphinx = stack.enter_context(serving(sphinx_root, tokens))
        stranger = stack.enter_context(serving(sphinx_root))
        mkdocs = stack.enter_context(serving(mkdocs_root))
        answers_port, guarded_port = free_port(), free_port()
        answers_url = f"http://127.0.0.1:{answers_port}"
        build_sphinx(sphinx_root, tmp / "doctrees", answers_url)
        build_mkdocs(mkdocs_root, answers_url)
        database = tmp / "sites.sqlite"
        with Corpus.open(database) as corpus:
            corpus.ingest(sphinx_root, base_url=f"{sphinx}/")
            corpus.ingest(mkdocs_root, base_url=f"{mkdocs}/")
        shutil.copy(database, tmp / "guarded.sqlite")
        # The copy-paste snippet of docs/page.md, on a plain page of the Sphinx site's origin.
        box = snippet(f"http://127.0.0.1:{guarded_port}", "/citeline-token", floating=False)
        (sphinx_root / "guarded.html").write_text(
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Tidewater</title></head><body><h1>Tidewater</h1>{box}</body></html>"
        )
        answers = start_server(
            {}, tmp / "answers.log", answers_port,
            ["--db", str(database), "--open", "--allow-origin", sphinx, "--allow-origin", mkdocs],
        )  # fmt: skip
        stack.callback(stop_server, answers)
        guarded = start_server(
            {"CITELINE_CALLER_KEY_FILE": str(keys.public_file)}, tmp / "guarded.log", guarded_port,
            ["--db", str(tmp / "guarded.sqlite"), "--allow-origin", sphinx],
        )  # fmt: skip
        stack.callback(stop_server, guarded)
        yield World(sphinx, mkdocs, stranger, answers, guarded, tokens)


@pytest.fixture
def site_page(page: Page, world: World) -> Page:
    """The page, with every request it makes kept in ``world.requests``."""
    world.requests.clear()
    page.on("request", lambda request: world.requests.append(request.url))
    return page


def ask(page: Page, question: str, *, floating: bool = True) -> None:
    if floating:
        page.get_by_role("button", name="Ask this site").click()
    page.get_by_role("searchbox", name="Ask a question about this site").fill(question)
    page.keyboard.press("Enter")


def box_state(page: Page, state: str) -> None:
    expect(page.locator("citeline-ask")).to_have_attribute("data-state", state)


def chip_links(page: Page) -> list[str | None]:
    links: list[str | None] = page.locator("citeline-ask .chips li").evaluate_all(
        "items => items.map((item) => item.querySelector('a')?.href ?? null)"
    )
    return links


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def test_the_sphinx_sites_box_streams_an_answer_whose_chips_link_to_the_sites_sections(
    site_page: Page, world: World
) -> None:
    page = site_page
    sizes: list[tuple[str, int]] = []

    def weigh(response: Response) -> None:
        path = urlsplit(response.url).path
        if origin(response.url) == world.answers.url and not path.startswith("/v1/"):
            sizes.append((path, len(response.body())))

    page.on("response", weigh)
    page.goto(f"{world.sphinx}/install.html")
    ask(page, SPRING)
    box_state(page, "answered")
    section = f"{world.sphinx}/predictions.html#spring-and-neap-tides"
    assert chip_links(page)[0] == section
    answer = page.locator("citeline-ask .answer")
    expect(answer).to_contain_text("Spring tides happen near new and full moon")
    expect(page.locator("citeline-ask .trust")).to_have_text("Drawn from the pages cited below.")
    expect(page.locator("citeline-ask sup a").first).to_have_attribute("href", section)
    # Nothing but the site and its answer server: no font, library or CDN.
    assert {origin(url) for url in world.requests} <= {world.sphinx, world.answers.url}
    assert {path for path, _ in sizes} == {
        "/embed/citeline-ask.js", "/embed/ask-stream.js", "/embed/ask-markdown.js"
    }  # fmt: skip
    assert sum(size for _, size in sizes) <= BUDGET_BYTES, sizes
    page.locator("citeline-ask .chips a").first.click()
    expect(page).to_have_url(section)
    expect(page.get_by_role("heading", name="Spring and neap tides")).to_be_in_viewport()


def test_continue_in_chat_opens_the_servers_chat_on_that_answer(
    site_page: Page, world: World
) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/index.html")
    ask(page, SPRING)
    box_state(page, "answered")
    chat = page.get_by_role("link", name="Continue in chat")
    href = chat.get_attribute("href") or ""
    assert href.startswith(f"{world.answers.url}/?{urlencode({'q': SPRING})}&chat=")
    with page.context.expect_page() as opened:
        chat.click()
    server_page = opened.value
    expect(server_page.locator("#chat-view")).to_be_visible()
    expect(server_page.locator("#conversation")).to_contain_text("Spring tides happen near")
    server_page.close()


def test_the_mkdocs_sites_box_links_its_chips_to_the_mkdocs_sections(
    site_page: Page, world: World
) -> None:
    page = site_page
    page.goto(f"{world.mkdocs}/signals/flags/")
    ask(page, "What does a green light at the harbour entrance mark?")
    box_state(page, "answered")
    assert chip_links(page)[0] == f"{world.mkdocs}/signals/lights/index.html#entrance-lights"
    assert {origin(url) for url in world.requests} <= {world.mkdocs, world.answers.url}


def test_a_question_nothing_answers_says_so(site_page: Page, world: World) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/index.html")
    ask(page, "zyxwvut qwertyuiop plugh")
    box_state(page, "nothing_found")
    expect(page.locator("citeline-ask .status")).to_have_text(SAY_NOTHING)
    expect(page.locator("citeline-ask .answer")).to_have_text("")


def test_a_guarded_servers_box_asks_the_site_for_a_token_and_shows_the_refusal_without_one(
    site_page: Page, world: World
) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/guarded.html")
    world.tokens.give = False
    try:
        ask(page, SPRING, floating=False)
        box_state(page, "refused")
        expect(page.locator("citeline-ask .status")).to_have_text(SAY_REFUSED)
        expect(page.locator("citeline-ask .answer")).to_have_text("")
        asked = world.tokens.asked
    finally:
        world.tokens.give = True
    ask(page, SPRING, floating=False)
    box_state(page, "answered")
    assert world.tokens.asked == asked + 1
    assert chip_links(page)[0] == f"{world.sphinx}/predictions.html#spring-and-neap-tides"


def test_the_guarded_server_itself_refuses_a_box_that_sends_no_token(
    site_page: Page, world: World
) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/guarded.html")
    page.locator("citeline-ask").evaluate("box => box.removeAttribute('token-url')")
    asked = world.tokens.asked
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/answer") as answer:
        ask(page, SPRING, floating=False)
    assert answer.value.status == 200
    box_state(page, "refused")
    expect(page.locator("citeline-ask .status")).to_have_text(SAY_REFUSED)
    assert world.tokens.asked == asked


def test_an_origin_not_allowed_gets_no_cors_headers_and_the_box_says_it_cannot_reach_the_service(
    site_page: Page, world: World
) -> None:
    preflight = httpx.options(
        f"{world.answers.url}/v1/answer",
        headers={
            "Origin": world.stranger,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert not [key for key in preflight.headers if key.lower().startswith("access-control-")]
    page = site_page
    failed: list[Request] = []
    page.on("requestfailed", lambda request: failed.append(request))
    page.goto(f"{world.stranger}/predictions.html")
    ask(page, SPRING)
    box_state(page, "unreachable")
    expect(page.locator("citeline-ask .status")).to_have_text(SAY_UNREACHABLE)
    assert any(urlsplit(r.url).path == "/v1/answer" for r in failed)


def test_at_390_px_nothing_overflows(site_page: Page, world: World) -> None:
    page = site_page
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{world.sphinx}/predictions.html")
    ask(page, SPRING)
    box_state(page, "answered")
    wider = page.locator("citeline-ask").evaluate(
        """box => [...box.shadowRoot.querySelectorAll('*')]
            .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > 390.5)
            .map((e) => e.tagName + '.' + e.className)"""
    )
    assert wider == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_box_works_from_the_keyboard_and_names_its_parts(site_page: Page, world: World) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/index.html")
    launcher = page.get_by_role("button", name="Ask this site")
    expect(launcher).to_have_attribute("aria-expanded", "false")
    launcher.focus()
    page.keyboard.press("Enter")
    expect(launcher).to_have_attribute("aria-expanded", "true")
    searchbox = page.get_by_role("searchbox", name="Ask a question about this site")
    expect(searchbox).to_be_focused()
    page.keyboard.type(SPRING)
    page.keyboard.press("Enter")
    box_state(page, "answered")
    expect(page.get_by_role("dialog", name="Ask this site")).to_be_visible()
    expect(page.get_by_role("list", name="Sources").get_by_role("listitem")).to_have_count(1)
    expect(page.locator("citeline-ask .answer")).to_have_attribute("aria-live", "polite")
    expect(page.locator("citeline-ask .answer")).to_have_attribute("aria-busy", "false")
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog", name="Ask this site")).to_be_hidden()
    expect(launcher).to_be_focused()


def test_a_site_themes_the_box_with_custom_properties(site_page: Page, world: World) -> None:
    page = site_page
    page.goto(f"{world.sphinx}/index.html")
    page.add_style_tag(content="citeline-ask { --citeline-accent: rgb(170, 0, 60); }")
    page.get_by_role("button", name="Ask this site").click()
    submit = page.get_by_role("button", name="Ask", exact=True)
    expect(submit).to_have_css("background-color", "rgb(170, 0, 60)")
