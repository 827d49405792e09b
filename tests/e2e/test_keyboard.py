"""Keyboard only, in both languages (issue 31): the main flows are done with Tab, the arrow keys,
typing and Enter, never the mouse: a formula question, a multiple-choice question, an ordering
question, the derivation checker, a mock interview from start to summary and an Explore slider.
Every element Tab reaches on the way shows where the focus is (WCAG 2.1.1, 2.4.7)."""

import pytest
from playwright.sync_api import expect

from quizbank import load_bank
from tests.e2e.learner_steps import main, open_question_as
from tests.e2e.server import wait_idle
from tutor.i18n import t

LANGS = ("en", "zh")
TALL = {"width": 1400, "height": 1800}
BANK = load_bank()

# Where the focus is, and whether it shows: an outline or a ring on the element, or on the label
# of a radio or checkbox whose own input is invisible.
_FOCUS = """target => {
  const a = document.activeElement;
  const shows = el => {
    const s = getComputedStyle(el);
    return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
  };
  const box = a.getBoundingClientRect();
  const hidden = box.width <= 1 || box.height <= 1 || getComputedStyle(a).opacity === "0";
  const label = a.closest("label");
  return {here: a === target, visible: hidden ? !!label && shows(label) : shows(a),
          what: a.outerHTML.slice(0, 160)};
}"""


def tab_to(page, target, presses: int = 200) -> None:
    """Press Tab until `target` has the focus; every stop on the way must show its focus."""
    target.wait_for()
    handle = target.element_handle()
    unseen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        focus = page.evaluate(_FOCUS, handle)
        if not focus["visible"]:
            unseen.append(focus["what"])
        if focus["here"]:
            assert not unseen, f"focus not visible on: {unseen}"
            return
    raise AssertionError(f"Tab never reached {target} in {presses} presses")


def press(page, key: str) -> None:
    page.keyboard.press(key)
    wait_idle(page)


def verdict_text(page) -> str:
    return page.locator(".st-key-verdict").first.inner_text()




@pytest.mark.parametrize("lang", LANGS)
def test_a_formula_question_by_keyboard(page, learner, lang):
    open_question_as(page, learner, "basics-residual-from-target", lang)
    tab_to(page, main(page).get_by_label(t("practice.your_answer", lang), exact=True))
    page.keyboard.type("H(x) - x")
    press(page, "Enter")
    tab_to(page, main(page).get_by_role("button", name=t("practice.submit", lang), exact=True))
    press(page, "Enter")
    expect(page.locator(".st-key-verdict")).to_contain_text(t("practice.correct", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_multiple_choice_question_by_keyboard(page, learner, lang):
    page.set_viewport_size(TALL)
    open_question_as(page, learner, "basics-residual-block-form", lang)
    group = main(page).get_by_role("radiogroup")
    tab_to(page, group.get_by_role("radio").first)
    page.keyboard.press("ArrowDown")  # the second option, b: a plain block
    expect(group.get_by_role("radio").nth(1)).to_be_checked()
    wait_idle(page)
    tab_to(page, main(page).get_by_role("button", name=t("practice.submit", lang), exact=True))
    press(page, "Enter")
    expect(page.locator(".st-key-verdict")).to_contain_text(t("practice.wrong", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_an_ordering_question_by_keyboard(page, learner, lang):
    page.set_viewport_size(TALL)
    question = BANK.questions["worked-pytorch-check-order"]
    open_question_as(page, learner, question.id, lang)
    items = [t_ for t_ in main(page).locator("li").all_inner_texts() if t_[1:2] == "."]
    letter = {}
    for step in question.steps:
        code = step.text.get(lang).strip("`").split("`")[0]
        (item,) = [i for i in items if code in i]
        letter[step.id] = item[0]
    box = main(page).locator('[data-testid="stMultiSelect"]').last.get_by_role("combobox")
    tab_to(page, box)
    for step in question.steps:
        page.keyboard.type(letter[step.id])
        page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    wait_idle(page)
    tab_to(page, main(page).get_by_role("button", name=t("practice.submit", lang), exact=True))
    press(page, "Enter")
    expect(page.locator(".st-key-verdict")).to_contain_text(t("practice.correct", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_derivation_checker_by_keyboard(page, goto, lang):
    page.set_viewport_size(TALL)
    goto("derivation", lang)
    tab_to(page, main(page).get_by_label(t("derivation.symbols_label", lang), exact=True))
    page.keyboard.type("x")
    tab_to(page, main(page).get_by_label(t("derivation.lines_label", lang), exact=True))
    page.keyboard.type("x + x")
    page.keyboard.press("Enter")
    page.keyboard.type("2x")
    tab_to(page, main(page).get_by_role("button", name=t("derivation.check", lang)))
    wait_idle(page)  # leaving the box sent the lines
    press(page, "Enter")
    expect(page.locator(".st-key-derivation_report")).to_contain_text(t("derivation.status.verified", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_mock_interview_from_start_to_summary_by_keyboard(page, goto, learner, lang):
    page.set_viewport_size(TALL)
    goto("interview", lang, profile=learner[1])
    tab_to(page, main(page).get_by_role("slider", name=t("interview.count", lang)))
    page.keyboard.press("Home")  # one question
    timing = main(page).get_by_role("radiogroup", name=t("interview.timing", lang))
    tab_to(page, timing.get_by_role("radio", checked=True))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # "No time limit", chosen before the start
    expect(timing.get_by_role("radio", name=t("interview.timing_option.off", lang))).to_be_checked()
    tab_to(page, main(page).get_by_role("button", name=t("interview.start", lang)))
    press(page, "Enter")
    expect(main(page).get_by_text(t("interview.untimed", lang))).to_be_visible()
    tab_to(page, main(page).get_by_label(t("practice.interview_answer", lang), exact=True))
    page.keyboard.type("The identity path carries the gradient past every block.")
    tab_to(page, main(page).get_by_role("button", name=t("practice.reveal", lang)))
    wait_idle(page)
    press(page, "Enter")
    tab_to(page, main(page).get_by_role("button", name=t("practice.confirm_ticks", lang)))
    press(page, "Enter")
    tab_to(page, main(page).get_by_role("button", name=t("interview.finish_last", lang), exact=True))
    press(page, "Enter")
    expect(main(page).get_by_role("heading", name=t("interview.summary", lang))).to_be_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_an_explore_slider_by_keyboard(page, goto, lang):
    goto("explore", lang)
    slider = main(page).get_by_role("slider", name=t("explore.residual.scale", lang))
    tab_to(page, slider)
    before = slider.get_attribute("aria-valuenow")
    result = main(page).get_by_text("y = [").first.inner_text()
    page.keyboard.press("ArrowRight")
    expect(slider).not_to_have_attribute("aria-valuenow", before)
    wait_idle(page)
    expect(main(page).get_by_text("y = [").first).not_to_have_text(result)
