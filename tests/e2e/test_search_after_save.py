"""All questions → search after a question is saved on the Author page (issue 22's blocker): the
search index was built once per server, so any search after a bank change showed a traceback
(`KeyError: '<new id>'`) to everyone until a restart. Here the list is opened (the index built),
a question saved, and the new question searched for in English and in 中文.

The server has its own instructor folder and database, so the question saved here reaches no
other browser test.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import open_page, save_screenshot
from tests.e2e.learner_steps import main
from tests.e2e.server import ROOT, start_server, stop_server, wait_idle, wait_ready
from tests.e2e.test_instructor import editor_replace, wait_text

QUESTION = """\
id: e2e-search-zebra
type: numeric
topic: worked-example
difficulty: easy
source: {text: gradient-propagation, section: "6.4"}
prompt: {zh: "斑马残差块：求 1 + 0.5。", en: "Zebra residual block: compute 1 + 0.5."}
solution: {zh: "1.5", en: "1.5"}
answer: 1.5
tolerance: {kind: relative, value: 1.0e-3}
tests:
  - {answer: "1.5", verdict: correct}
  - {answer: "0.5", verdict: wrong}"""


@pytest.fixture(scope="module")
def author_server(tmp_path_factory):
    data = tmp_path_factory.mktemp("search")
    env = {"TUTOR_DATABASE_URL": f"sqlite:///{data / 'progress.db'}",
           "TUTOR_BANK_PATHS": str(data / "my-bank"), "TUTOR_CONFIG": str(data / "none.toml")}
    server = start_server(ROOT / "streamlit_app.py", env=env, log_path=data / "server.log")
    try:
        wait_ready(server)
        yield server
    finally:
        stop_server(server)


def search(page, base_url: str, lang: str, label: str, words: str) -> None:
    open_page(page, base_url, "questions", lang)
    box = main(page).get_by_label(label, exact=True)
    box.fill(words)
    box.press("Enter")
    wait_idle(page)


def test_a_question_saved_on_the_author_page_is_found_by_search_in_both_languages(
        author_server, browser):
    page = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    # The search index is built before the save (the page was visited, a search made).
    search(page, author_server.url, "en", "Search", "residual")
    assert main(page).get_by_text("Zebra residual block").count() == 0

    open_page(page, author_server.url, "author", "en")
    page.frame_locator('iframe[title="code_editor.code_editor"]').locator(".ace_content").wait_for()
    editor_replace(page, QUESTION)
    wait_text(page, "Valid: this question can be saved.")
    name = main(page).get_by_role("textbox", name="File in your folder")
    name.fill("search.yaml")
    name.press("Enter")
    wait_idle(page)
    main(page).get_by_role("button", name="Save", exact=True).click()
    wait_text(page, "Saved e2e-search-zebra")

    for lang, label, words, title in (
        ("en", "Search", "zebra", "Zebra residual block"),
        ("zh", "搜索", "斑马", "斑马残差块"),
        ("en", "Search", "斑马", "Zebra residual block"),  # either language's words find it
    ):
        search(page, author_server.url, lang, label, words)
        text = main(page).inner_text()
        assert "KeyError" not in text and "Traceback" not in text, text[:2000]
        main(page).get_by_text(title).first.wait_for(timeout=10_000)
        assert main(page).locator('[data-testid="stException"]').count() == 0
    save_screenshot(page, "search-after-save-zh")
    page.context.close()
