"""As an instructor, in a real browser: create a numeric and a formula question on the Author page
(validation errors appear and disappear while typing in the code editor), preview both languages,
run author and mutation tests, save; then, as a learner, answer the new questions without a
server restart. Then the Analytics page on a seeded class: flags, a class of wrong answers turned
into a mal-rule, and the next such answer gets its feedback.

This server has its own instructor folder and database (a class seeded by bench/seed_class.py),
so the questions saved here never reach the other browser tests.
"""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest

from tests.e2e.conftest import open_page, save_screenshot
from tests.e2e.learner_steps import click, main, open_question, submit_and_verdict, type_formula
from tests.e2e.server import ROOT, start_server, stop_server, wait_idle, wait_ready

EDITOR = 'iframe[title="code_editor.code_editor"]'
NUMERIC = """\
id: e2e-numeric
type: numeric
topic: worked-example
difficulty: easy
source: {text: gradient-propagation, section: "6.4"}
prompt: {zh: "求 1 + 0.5。", en: "Compute 1 + 0.5."}
hints:
  - {zh: "恒等路径贡献 1。", en: "The identity path gives 1."}
solution: {zh: "1.5", en: "1.5"}
answer: 1.5
tolerance: {kind: relative, value: 1.0e-3}
tests:
  - {answer: "1.5", verdict: correct}
  - {answer: "0.5", verdict: wrong}"""
FORMULA = """\
id: e2e-formula
type: expression
topic: jacobian
difficulty: medium
source: {text: gradient-propagation, section: "3.2"}
prompt: {zh: "写出 $\\\\nabla_x L$（E2E）。", en: "Write $\\\\nabla_x L$ (E2E)."}
solution: {zh: "$(I + W)^T g$", en: "$(I + W)^T g$"}
answer: "(I + W)^T g"
matrices: [W, g]
tests:
  - {answer: "(I + W)^T g", verdict: correct}
  - {answer: "(I + W) g", verdict: wrong}"""


def _seed_class(url: str) -> None:
    spec = importlib.util.spec_from_file_location("seed_class", ROOT / "bench" / "seed_class.py")
    seed = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("seed_class", seed)  # its dataclasses look their module up
    spec.loader.exec_module(seed)
    import quizbank
    from tutor.store import ProgressStore

    store = ProgressStore.open(url)
    questions = seed.simulated_questions(quizbank.load_bank(), random.Random(5))
    seed.seed_class(store, questions, learners=200, seed=5)
    store.close()


@pytest.fixture(scope="module")
def instructor_server(tmp_path_factory):
    data = tmp_path_factory.mktemp("instructor")
    url = f"sqlite:///{data / 'class.db'}"
    _seed_class(url)
    env = {"TUTOR_DATABASE_URL": url, "TUTOR_BANK_PATHS": str(data / "my-bank"),
           "TUTOR_CONFIG": str(data / "no-config.toml")}
    server = start_server(ROOT / "streamlit_app.py", env=env, log_path=data / "server.log")
    try:
        wait_ready(server)
        yield server, data
    finally:
        stop_server(server)


def editor_replace(page, text: str) -> None:
    """Select everything in the code editor and put `text` in its place (as a paste would)."""
    box = page.frame_locator(EDITOR).locator(".ace_text-input").first
    box.focus()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)


def editor_type_at_end(page, text: str) -> None:
    box = page.frame_locator(EDITOR).locator(".ace_text-input").first
    box.focus()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(text)


def wait_text(page, text: str, timeout: float = 30_000) -> None:
    main(page).get_by_text(text).first.wait_for(timeout=timeout)
    wait_idle(page)


def author_one(page, text: str, qid: str, prompt_zh: str, prompt_en: str) -> None:
    editor_replace(page, text)
    wait_text(page, "Valid: this question can be saved.")
    # An error appears while typing, and goes away when it is typed away.
    editor_type_at_end(page, "\ndifficulty_level: 3")
    wait_text(page, "difficulty_level: unknown field")
    page.keyboard.press("Control+Z")
    wait_text(page, "Valid: this question can be saved.")
    assert main(page).get_by_text("unknown field").count() == 0

    preview = main(page).locator('[data-testid="stTabs"]')
    preview.get_by_role("tab", name="中文").click()
    wait_text(page, prompt_zh)
    preview.get_by_role("tab", name="English").click()
    wait_text(page, prompt_en)

    click(page, "Run author tests")
    wait_text(page, "2 passed, 0 failed")
    click(page, "Run mutation tests")
    wait_text(page, "mutants rejected")
    assert main(page).get_by_text("ACCEPTED: key too loose").count() == 0

    name = main(page).get_by_role("textbox", name="File in your folder")
    name.fill("e2e.yaml")
    name.press("Enter")
    wait_idle(page)
    main(page).get_by_role("button", name="Save", exact=True).click()
    wait_text(page, f"Saved {qid}")


def test_instructor_authors_two_questions_then_a_learner_answers_them(instructor_server, browser):
    server, data = instructor_server
    if (data / "my-bank" / "e2e.yaml").exists():  # a rerun after a flaky step: start afresh
        (data / "my-bank" / "e2e.yaml").unlink()
    page = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    open_page(page, server.url, "author", "en")
    page.frame_locator(EDITOR).locator(".ace_content").wait_for()

    author_one(page, NUMERIC, "e2e-numeric", "求 1 + 0.5。", "Compute 1 + 0.5.")
    author_one(page, FORMULA, "e2e-formula", "（E2E）", "(E2E)")
    save_screenshot(page, "author-saved")
    saved = (data / "my-bank" / "e2e.yaml").read_text(encoding="utf-8")
    assert "id: e2e-numeric" in saved and "id: e2e-formula" in saved

    # As a learner, on the same server: the new questions are there.
    open_question(page, server.url, "e2e-numeric")
    wait_text(page, "Compute 1 + 0.5.")
    type_formula(page, "Your answer", "1.5")
    assert submit_and_verdict(page).startswith("Correct")
    open_question(page, server.url, "e2e-formula")
    type_formula(page, "Your answer", "g + W^T g")
    assert submit_and_verdict(page).startswith("Correct")
    page.context.close()


def test_analytics_flags_classes_and_a_new_malrule(instructor_server, browser):
    server, data = instructor_server
    # An instructor's question of its own (a file dropped into the folder: seen without restart).
    folder = data / "my-bank"
    folder.mkdir(exist_ok=True)
    qid = "e2e-analytics"
    (folder / "analytics.yaml").write_text(
        "questions:\n" + "".join(f"    {line}\n" if k else f"  - {line}\n"
                                   for k, line in enumerate(
                                       FORMULA.replace("e2e-formula", qid).splitlines())),
        encoding="utf-8")
    page = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    # A learner gives a wrong formula to it.
    open_question(page, server.url, qid)
    type_formula(page, "Your answer", "W^T g")
    assert not submit_and_verdict(page).startswith("Correct")

    open_page(page, server.url, "analytics", "en")
    wait_text(page, "Flagged questions")
    for flag in ("nobody right", "everybody right", "negative discrimination"):
        assert main(page).get_by_text(flag).count() >= 1, flag
    save_screenshot(page, "analytics-class")

    select = main(page).locator('[data-testid="stSelectbox"]').last
    select.click()
    page.keyboard.type(qid)
    page.get_by_role("option").first.click()
    wait_text(page, "Class 1")
    assert main(page).get_by_text("Interpreted as").count() >= 1
    main(page).get_by_label("Feedback in English").first.fill("Only the branch: add g itself.")
    main(page).get_by_label("Feedback in Chinese").first.fill("只有分支：还要加上 g 本身。")
    main(page).get_by_role("button", name="Turn this class into a mal-rule").first.click()
    wait_text(page, "now gets this feedback")

    open_question(page, server.url, qid)
    type_formula(page, "Your answer", "W^T  g")
    main(page).get_by_role("button", name="Submit answer").click()
    wait_text(page, "Only the branch: add g itself.")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_save_refuses_failing_tests_and_warns_of_one_language(instructor_server, browser, lang):
    from tutor.i18n import t, tn

    server, data = instructor_server
    page = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    open_page(page, server.url, "author", lang)
    page.frame_locator(EDITOR).locator(".ace_content").wait_for()
    qid = f"e2e-failing-{lang}"
    failing = NUMERIC.replace("e2e-numeric", qid) + '\n  - {answer: "2.5", verdict: correct}'
    editor_replace(page, failing)
    wait_text(page, t("author.valid", lang))
    preview = main(page).locator('[data-testid="stTabs"]')
    # The preview opens on the interface's language, its buttons whole (not "Submit …").
    expect_first_tab = "English" if lang == "en" else "中文"
    assert preview.get_by_role("tab").first.inner_text() == expect_first_tab
    for label in (t("practice.submit", lang), t("practice.show_solution", lang)):
        button = preview.get_by_role("button", name=label).first
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), label
    main(page).get_by_role("button", name=t("author.save_button", lang), exact=True).click()
    wait_text(page, tn("author.save_refused_tests", lang, 1, total=3))
    assert not (data / "my-bank" / "my-questions.yaml").exists() or qid not in (
        data / "my-bank" / "my-questions.yaml").read_text(encoding="utf-8")

    english_less = NUMERIC.replace("e2e-numeric", qid).replace(
        'prompt: {zh: "求 1 + 0.5。", en: "Compute 1 + 0.5."}', 'prompt: {zh: "求 1 + 0.5。"}')
    editor_replace(page, english_less)
    wait_text(page, tn("author.warnings", lang, 1))
    save_screenshot(page, f"author-warning-{lang}")
    page.context.close()
