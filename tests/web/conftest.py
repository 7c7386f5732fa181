"""Fixtures of the browser tests: Debian's Chromium under Playwright, and the page served.

The tests drive the system Chromium (``/usr/bin/chromium``, installed by ``.ci/run``)
and download nothing. Without it they are skipped on a developer's machine with the
command that installs it, and fail under CI, where a skip would hide a missing install.
Every test leaves a screenshot of its page in ``artifacts/web/``.
"""

from __future__ import annotations

import mimetypes
import os
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, expect, sync_playwright
from tests.support.app_servers import Served, live_server

from citeline.server import AnswerEngine, ServerSettings, create_app
from citeline.server.app import STATIC_DIR

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).parents[2]
ARTIFACTS = REPO / "artifacts" / "web"
HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
# An owner's own documentation site, built by a docs generator and ingested under its
# published address (fixtures/README.md).
SITE = Path(__file__).parent / "fixtures" / "site"
SITE_BASE_URL = "https://tidewater.example/docs/"

# A made-up origin for tests of the page's modules alone: Playwright answers every
# request to it from the static folder, so no server runs and nothing leaves the machine.
STATIC_ORIGIN = "http://page.citeline.test"

# Generous bounds for a 2-core machine shared with other test runs; Playwright fails
# with a clear message when one passes.
TIMEOUT_MS = 20_000
expect.set_options(timeout=TIMEOUT_MS)


# Per module, not per session: for as long as Playwright runs, its sync API keeps its event
# loop marked as running in this thread (playwright/_impl/_greenlets.py, wait_for_future), so
# an asyncio test run after a browser test in the same process was refused ("Runner.run()
# cannot be called from a running event loop"). Stopping it with its module clears the mark,
# for about a second of start-up a module.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install it with `apt-get install -y chromium`"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run does this before the tests)")
        pytest.skip(message)
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (``artifacts/`` is ignored by git and kept by CI)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def page(browser: Browser, artifacts: Path, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page at desktop width; a script error on it fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
    yield opened
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
    opened.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
    context.close()
    assert errors == [], f"the page raised: {errors}"


def _static_file(route: Route) -> None:
    path = route.request.url.removeprefix(STATIC_ORIGIN).split("?")[0].lstrip("/")
    file = (STATIC_DIR / (path or "index.html")).resolve()
    if STATIC_DIR.resolve() not in file.parents or not file.is_file():
        route.fulfill(status=404, body="")
        return
    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    route.fulfill(status=200, body=file.read_bytes(), content_type=kind)


@pytest.fixture
def module_page(page: Page) -> Page:
    """A blank page on the static origin with the vendored libraries loaded."""
    page.route(f"{STATIC_ORIGIN}/**", _static_file)
    page.route(
        f"{STATIC_ORIGIN}/blank",
        lambda route: route.fulfill(
            status=200,
            content_type="text/html",
            body=(
                "<!doctype html><html><body><div id=prose></div><ol id=chips></ol>"
                '<script src="/vendor/markdown-it.min.js"></script>'
                '<script src="/vendor/purify.min.js"></script></body></html>'
            ),
        ),
    )
    page.goto(f"{STATIC_ORIGIN}/blank")
    return page


@pytest.fixture(scope="session")
def collection_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample and the hostile fixture documents, ingested once."""
    from citeline.corpus import Corpus
    from citeline.sample import sample_path

    path = tmp_path_factory.mktemp("web") / "collection.sqlite"
    corpus = Corpus.open(path)
    try:
        for folder in (sample_path(), HOSTILE):
            report = corpus.ingest(folder)
            assert not report.skipped, report
    finally:
        corpus.close()
    return path


@pytest.fixture(scope="session")
def site_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture site ingested as its owner would: ``citeline ingest SITE --base-url URL``."""
    from citeline.corpus import Corpus

    path = tmp_path_factory.mktemp("site") / "site.sqlite"
    with Corpus.open(path) as corpus:
        report = corpus.ingest(SITE, base_url=SITE_BASE_URL)
        assert not report.skipped, report
    return path


@pytest.fixture
def serve(collection_db: Path) -> Iterator[Callable[..., Served]]:
    """``serve(engine=None, **settings)``: the real app on loopback, stopped after the test.

    Open mode and the sample's link template unless the test says otherwise (``db=`` serves
    another index, with no template unless given); the engine defaults to the real one
    (``citeline.answer`` with the embedded model).
    """
    from citeline.corpus import Corpus
    from citeline.sample import LINK_TEMPLATE

    with ExitStack() as stack:

        def start(engine: AnswerEngine | None = None, **overrides: Any) -> Served:
            values: dict[str, Any] = {
                "db": collection_db,
                "open": True,
                "link_template": None if "db" in overrides else LINK_TEMPLATE,
                "log_format": "text",
                # Each test its own budget: the database's count would carry one test's
                # answers into the next, since the session's collection is one file.
                "rate_limit_storage": "memory://",
            }
            values.update(overrides)
            corpus = Corpus.open(values["db"])
            stack.callback(corpus.close)
            app = create_app(ServerSettings(**values), engine=engine, corpus=corpus)
            return stack.enter_context(live_server(app))

        yield start
