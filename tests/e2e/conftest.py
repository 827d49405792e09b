"""Browser-test fixtures: the real server (session-wide) and a fresh Chromium page per test.

Reuse from any test in tests/e2e/:

    def test_something(page, goto, screenshot):
        goto("practice", "zh")        # opens /practice?lang=zh and waits for the run to finish
        screenshot("practice-zh")     # artifacts/screenshots/practice-zh.png (whole content)

`app_url` is the server's base URL, `app_server` the `Server` (its `.log()` helps when a test
fails), `wait_idle(page)` waits for a rerun after a click.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import app_pages  # noqa: F401 - adds the pages' strings to tutor.i18n: tests read what pages show
from tests.e2e.learner_steps import clear_drafts, new_profile
from tests.e2e.server import (
    CHROMIUM,
    ROOT,
    free_port,
    launch_chromium,
    start_server,
    stop_server,
    wait_idle,
    wait_ready,
)

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 1400, "height": 950}
# Every `expect` waits up to 20 s for its state (Playwright's default is 5 s): a page run on a shared
# machine at load 20 takes longer than 5 s. Set here, for every browser test, so a test's patience
# does not depend on which other test files were collected with it.
expect.set_options(timeout=20_000)

__all__ = ["SCREENSHOTS", "open_page", "save_screenshot", "wait_idle"]


def pytest_collection_modifyitems(items):
    # Everything in this folder drives a real browser. No test is ever run again on failure: a
    # flaky browser test is a bug in the test (it read the page before the state it waits for)
    # or in the app, and is fixed at its cause.
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """When a browser test fails, put what each open page showed into the report (CI keeps only
    the log) and save a screenshot: "no verdict" and "the answer was lost" then look different."""
    outcome = yield
    report = outcome.get_result()
    browser = item.funcargs.get("browser") if report.when == "call" and report.failed else None
    if browser is None:
        return
    pages = [p for context in browser.contexts for p in context.pages if not p.is_closed()]
    for n, page in enumerate(pages):
        try:
            text = page.locator('[data-testid="stMain"]').inner_text(timeout=2000)
            save_screenshot(page, f"failed-{item.name}-{n}".replace("/", "_"))
        except Exception as err:  # noqa: BLE001 - the report must not fail on a dead page
            text = f"(the page could not be read: {type(err).__name__})"
        report.sections.append((f"page {n} at failure: {page.url}", text[:4000]))


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/install_chromium.sh` (make browser)")
    data = tmp_path_factory.mktemp("app-data")
    env = {"TUTOR_DATABASE_URL": f"sqlite:///{data / 'tutor.db'}"}
    server = start_server(ROOT / "streamlit_app.py", env=env, log_path=data / "server.log")
    server.database_url = env["TUTOR_DATABASE_URL"]
    try:
        wait_ready(server)
        yield server
    finally:
        stop_server(server)


class OwnServer:
    """The app on a progress database of its own; `restart()` stops the server and starts it
    again on the same port and database (a tab open on it reconnects)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.database_url = f"sqlite:///{folder / 'progress.db'}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.starts = 0
        self.server = None

    def start(self) -> None:
        self.starts += 1
        self.server = start_server(ROOT / "streamlit_app.py", port=self.port,
                                   env={"TUTOR_DATABASE_URL": self.database_url},
                                   log_path=self.folder / f"server-{self.starts}.log")
        wait_ready(self.server)

    def restart(self) -> None:
        stop_server(self.server)
        self.start()

    def stop(self) -> None:
        if self.server is not None:
            stop_server(self.server)


@pytest.fixture
def own_server(tmp_path):
    """A server with a progress database of its own, for a test that counts what is recorded
    or restarts the server."""
    server = OwnServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def no_drafts_from_earlier_tests(request):
    """The shared server keeps one progress database for every test, and the pages bring back
    the learner's draft of a question opened again (as they should after a reload). Each test
    starts without drafts, so it sees the question fresh whatever ran before it."""
    if not {"app_server", "app_url", "goto"} & set(request.fixturenames):
        return
    clear_drafts(request.getfixturevalue("app_server").database_url)




@pytest.fixture(scope="session")
def app_url(app_server) -> str:
    return app_server.url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.fixture
def person(browser):
    """`person(locale)` -> a fresh browser context's page (its own cookies: one person); for tests
    with several people at once (the class-mode sign-in tests)."""
    contexts = []

    def _new(locale: str = "en-US"):
        context = browser.new_context(viewport=VIEWPORT, locale=locale, accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        return page

    yield _new
    for context in contexts:
        context.close()


def open_page(page, base_url: str, page_name: str = "", lang: str = "en", **params) -> None:
    """Open one app page (its url_path, e.g. "explore") in a language and wait for it to render."""
    query = "&".join(f"{k}={v}" for k, v in {"lang": lang, **params}.items())
    page.goto(f"{base_url}/{page_name}?{query}")
    page.wait_for_selector('.st-key-site_nav', state="attached")  # hidden on phones
    page.locator('[data-testid="stMain"] h1').first.wait_for()
    wait_idle(page)


def save_screenshot(page, name: str) -> Path:
    """A full-page PNG in artifacts/screenshots/ (kept by CI as an artefact)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # Streamlit scrolls inside its main container, so "full page" is one viewport: grow the
    # viewport to the content's height for the shot, then put it back.
    size = page.viewport_size
    height = page.evaluate(
        "() => Math.max(...['stMain', 'stSidebarContent'].map(id =>"
        " document.querySelector(`[data-testid=${id}]`)?.scrollHeight || 0))"
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height, 6000))})
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path


@pytest.fixture
def learner(app_server, app_url):
    """(base URL, a new profile of this test's own): its answers stay out of the first profile,
    which other tests read."""
    import uuid

    return app_url, new_profile(app_server.database_url, f"Learner {uuid.uuid4().hex[:6]}")


@pytest.fixture
def goto(page, app_url):
    def _goto(page_name: str = "", lang: str = "en", **params) -> None:
        open_page(page, app_url, page_name, lang, **params)

    return _goto


@pytest.fixture
def screenshot(browser):
    """`screenshot(name)` shoots the most recently opened page (the `page` fixture's, or one a test
    opened itself in its own context); pass `page=` to choose another."""

    def _screenshot(name: str, page=None) -> Path:
        if page is None:
            pages = [p for context in browser.contexts for p in context.pages if not p.is_closed()]
            if not pages:
                raise RuntimeError("no open page to screenshot")
            page = pages[-1]
        return save_screenshot(page, name)

    return _screenshot
