"""Browser tests of Exercises: a template's problem answered through the question screen, its
worked numbers, and an attempt that reaches the dashboard and Review."""

import uuid
from datetime import timedelta

import pytest
from playwright.sync_api import expect

import compute
from tests.e2e.learner_steps import main, open_url, seed_caption, submit_and_verdict
from tests.e2e.server import wait_idle
from tutor.sessions.exercises import format_value
from tutor.store import ProgressStore, utc_now

LINKED = {"template": "linear_residual_block", "seed": 7, "difficulty": "easy"}
ASKS = ["y", "loss", "grad_x"]  # gen-linear-block-forward-backward, the bank's question for it


def answer_boxes(page):
    return main(page).locator('[class*="-gen-"] input[type="text"]')


def fill_answers(page, values: list[str]) -> None:
    boxes = answer_boxes(page)
    expect(boxes).to_have_count(len(values))
    for box, value in zip(boxes.all(), values, strict=True):
        box.fill(value)
        box.press("Tab")  # commits the box: its reading shows and the draft is saved
        wait_idle(page)


def own_profile(app_server, name: str) -> int:
    """A profile of the test's own: on the shared server another test (or the other language's
    run) may have answered this very variant, and then an answer is practice (issue 22)."""
    store = ProgressStore.open(app_server.database_url)
    try:
        return store.create_profile(f"{name} {uuid.uuid4().hex[:6]}").id
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_exercise_answered_right_shows_the_verdict_and_this_seeds_solution(page, goto, screenshot,
                                                                          app_server, lang):
    key = compute.generate(LINKED["template"], seed=7, difficulty="easy")
    goto("exercises", lang, profile=own_profile(app_server, "exercises"), **LINKED)
    expect(main(page)).to_contain_text(seed_caption(7, lang))
    screenshot(f"exercises-problem-{lang}")
    fill_answers(page, [format_value(key["answers"][name]) for name in ASKS])
    submit = {"en": "Submit answer", "zh": "提交答案"}[lang]
    assert submit_and_verdict(page, submit) == {"en": "Correct", "zh": "正确"}[lang]
    solution = main(page).locator('[data-testid="stExpander"]').filter(
        has_text={"en": "Worked solution", "zh": "详细解答"}[lang])
    expect(solution).to_contain_text("4.84")  # this seed's loss, from the worked numbers
    expect(main(page)).to_contain_text({"en": "back in 2 days", "zh": "2 天后再复习"}[lang])
    screenshot(f"exercises-correct-{lang}")


def test_an_exercise_answer_is_read_box_by_box_and_a_transpose_is_named(page, goto, screenshot):
    goto("exercises", "en", template="prenorm_postnorm_jacobian", seed=12, difficulty="medium")
    key = compute.generate("prenorm_postnorm_jacobian", seed=12, difficulty="medium")["answers"]
    transposed = [list(column) for column in zip(*key["J_pre"], strict=True)]
    fill_answers(page, [format_value(transposed), "<b>2</b>"])
    expect(main(page)).to_contain_text("Cannot read this yet")  # before submitting
    assert submit_and_verdict(page) == "Your answer could not be read"
    expect(main(page)).to_contain_text("Try 1 of 3")  # an unreadable answer is not a try
    # The learner's text is shown verbatim, never as HTML.
    expect(main(page).locator("b", has_text="2")).to_have_count(0)
    fill_answers(page, [format_value(transposed), format_value(key["J_post"])])
    assert submit_and_verdict(page) == "Not quite"
    expect(main(page)).to_contain_text("looks like the transpose")
    screenshot("exercises-transposed-en")


def test_an_exercise_attempt_reaches_the_dashboard_and_review(browser, own_server, screenshot):
    page = browser.new_context(viewport={"width": 1400, "height": 1600}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    open_url(page, f"{own_server.url}/exercises?lang=en&template=gradient_multiplier&seed=5"
                   "&difficulty=easy")
    fill_answers(page, ["1", "2"])
    assert submit_and_verdict(page) == "Not quite"

    open_url(page, f"{own_server.url}/dashboard?lang=en")
    attempts = main(page).locator('[data-testid="stMetric"]').filter(has_text="Attempts")
    expect(attempts.locator('[data-testid="stMetricValue"]')).to_have_text("1")

    open_url(page, f"{own_server.url}/review?lang=en")
    expect(main(page)).to_contain_text("1 within 7 days")  # wrong today: due tomorrow
    # A day passes: the card falls due, and Review serves the exercise with fresh numbers.
    store = ProgressStore.open(own_server.database_url)
    try:
        (profile,) = store.list_profiles()
        (card,) = store.list_cards(profile.id)
        assert card.question_id == "gen-gradient-multiplier"
        assert card.due.date() == (utc_now() + timedelta(days=1)).date()
        store.write(lambda conn: conn.exec_driver_sql(
            "UPDATE cards SET due = ?", ((utc_now() - timedelta(minutes=1)).replace(tzinfo=None),)))
    finally:
        store.close()
    open_url(page, f"{own_server.url}/review?lang=en")
    expect(main(page).locator('[data-testid="stMetricValue"]').first).to_have_text("1")
    expect(main(page)).to_contain_text("Variant seed")
    expect(answer_boxes(page)).to_have_count(2)
    screenshot("review-exercise-due-en")
    page.context.close()
