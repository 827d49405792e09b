"""Browser tests of Practice: one question of each input kind, the language switch, and a
screenshot of each learner page in both languages (the Derivation checker's own tests are in
test_frame.py)."""

import pytest
from playwright.sync_api import expect

from quizbank import load_bank
from tests.e2e.learner_steps import (
    click,
    fill_area,
    main,
    open_question,
    pick_in_order,
    pick_radio,
    submit_and_verdict,
    type_formula,
)

BANK = load_bank()
TALL = {"width": 1400, "height": 1800}  # the app scrolls inside its main area: show more of it


@pytest.mark.parametrize(
    ("question_id", "answer", "verdict"),
    [
        ("basics-residual-from-target", "H(x) - x", "Correct"),
        ("basics-residual-from-target", "x - H(x)", "Not quite"),
        ("basics-residual-3d-example", "[0.5, -0.2, 0.1]", "Correct"),
    ],
    ids=["expression-right", "expression-malrule", "numeric"],
)
def test_formula_and_number_boxes_preview_then_grade(page, app_url, question_id, answer, verdict):
    open_question(page, app_url, question_id)
    type_formula(page, "Your answer", answer)
    expect(main(page).locator(".katex").first).to_be_visible()  # "interpreted as", before submitting
    assert page.locator(".st-key-verdict").count() == 0
    assert submit_and_verdict(page) == verdict


def test_choice(page, app_url, screenshot):
    page.set_viewport_size(TALL)
    open_question(page, app_url, "basics-residual-block-form")
    pick_radio(page, 1)  # b: a plain block
    assert submit_and_verdict(page) == "Not quite"
    assert "plain block" in main(page).inner_text()
    screenshot("practice-choice-wrong-en")


def shown_letters(page, question) -> dict[str, str]:
    """Step id -> the letter the page shows it under (the order is drawn anew for every visit)."""
    items = [t for t in main(page).locator("li").all_inner_texts() if t[:2].rstrip(".").isalpha()
             and t[1:2] == "."]
    letter = {}
    for step in question.steps:
        code = step.text.get("en").strip("`").split("`")[0]
        (item,) = [t for t in items if code in t]
        letter[step.id] = item[0]
    return letter


def test_ordering(page, app_url):
    question = BANK.questions["worked-pytorch-check-order"]
    open_question(page, app_url, question.id)
    letter = shown_letters(page, question)
    pick_in_order(page, [letter[s.id] for s in question.steps])
    assert submit_and_verdict(page) == "Correct"


def test_derivation_question_lines(page, app_url, screenshot):
    page.set_viewport_size(TALL)
    question = BANK.by_type("derivation")[0]
    open_question(page, app_url, question.id)
    fill_area(page, "Your derivation, one step per line", "\n".join([question.steps[0], "0"]))
    assert submit_and_verdict(page) == "Not quite"
    report = page.locator(".st-key-derivation_report")
    assert "verified" in report.inner_text() and "does not follow" in report.inner_text()
    screenshot("practice-derivation-en")


def test_interview_question(page, app_url, screenshot):
    page.set_viewport_size(TALL)
    open_question(page, app_url, "iv-what-does-residual-solve")
    fill_area(page, "Your answer, as you would say it in an interview",
              "It fixes the degradation problem: the block learns a correction, and the identity "
              "term gives the gradient a direct path.")
    click(page, "Submit and show the model answer")
    expect(main(page).get_by_text("Model answer").first).to_be_visible()
    # the three required points, suggested from the wording (expect retries while it renders)
    expect(main(page).locator('[data-testid="stCheckbox"] input:checked')).to_have_count(3)
    assert submit_and_verdict(page, "Confirm my key points") == "Correct"
    screenshot("practice-interview-en")


def test_language_switch_changes_the_practice_page(page, app_url):
    open_question(page, app_url, "basics-residual-block-form")
    assert main(page).locator("h1").first.inner_text() == "Practice"
    page.locator('[data-testid="stSidebar"]').get_by_text("中文", exact=True).click()
    # The rerun may not have started when the click returns: wait for the text, do not read once.
    expect(main(page).locator("h1").first).to_have_text("练习")
    expect(main(page).get_by_role("button", name="提交答案")).to_have_count(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page_name", ["", "derivation", "review", "interview", "dashboard"])
def test_screenshot_each_learner_page(page, goto, screenshot, page_name, lang):
    page.set_viewport_size(TALL)
    goto(page_name, lang)
    assert main(page).locator('[data-testid="stException"]').count() == 0
    screenshot(f"{page_name or 'practice'}-{lang}")


def test_typing_then_clicking_submit_without_enter_grades_what_was_typed(page, app_url):
    open_question(page, app_url, "basics-residual-from-target")
    box = main(page).get_by_label("Your answer", exact=True)
    box.fill("x - H(x)")  # no Enter: the click itself commits the text
    assert submit_and_verdict(page) == "Not quite"
    assert "The sign is flipped" in page.locator(".st-key-verdict").inner_text()
