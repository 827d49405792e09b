"""Browser tests of what is recorded and what survives: tries and the reveal counted honestly on
the dashboard, and a reload (or a server restart) in the middle of a question or an interview."""

import re
from datetime import timedelta

from playwright.sync_api import expect

from tests.e2e.learner_steps import (
    click,
    fill_area,
    main,
    open_question,
    open_url,
    seed_caption,
    submit_and_verdict,
    type_formula,
    wait_for_draft,
)
from tutor.store import ProgressStore

NUMERIC = "basics-residual-3d-example"  # [0.5, -0.2, 0.1]
TALL = {"width": 1400, "height": 1600}


def new_page(browser):
    page = browser.new_context(viewport=TALL, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    return page


def metric(page, label: str):
    box = main(page).locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]')


def test_wrong_wrong_reveal_counts_one_failed_attempt_due_tomorrow(browser, own_server, screenshot):
    page = new_page(browser)
    open_question(page, own_server.url, NUMERIC)
    for wrong in ("[0.5, 0.2, 0.1]", "[0.5, 0.3, 0.1]"):
        type_formula(page, "Your answer", wrong)
        assert submit_and_verdict(page) == "Not quite"
    expect(main(page)).to_contain_text("One try left")
    click(page, "I don't know: show the solution")
    expect(main(page)).to_contain_text("Recorded for review as Again: back tomorrow.")
    expect(main(page).get_by_text("Worked solution")).to_be_visible()
    type_formula(page, "Your answer", "[0.5, -0.2, 0.1]")  # the key, retyped after the reveal
    assert submit_and_verdict(page) == "Correct"
    expect(main(page)).to_contain_text("not recorded as an attempt")
    screenshot("practice-after-reveal-en")

    open_url(page, f"{own_server.url}/dashboard?lang=en")
    expect(metric(page, "Attempts")).to_have_text("1")
    expect(metric(page, "Accuracy")).to_have_text("0%")  # the retyped key changed nothing
    store = ProgressStore.open(own_server.database_url)
    try:
        (profile,) = store.list_profiles()
        history = store.list_attempts(profile.id)
        assert [a.phase for a in history] == ["first", "retry", "after_reveal"]
        (card,) = store.list_cards(profile.id)
        assert card.due == history[0].created_at + timedelta(days=1)
    finally:
        store.close()
    page.context.close()


def test_a_reload_mid_question_brings_back_the_question_and_the_typed_text(page, app_url,
                                                                          app_server):
    open_question(page, app_url, "gen-chain-product")
    # both in the query string, in any order (the frame's lang and profile sit among them)
    expect(page).to_have_url(re.compile(r"^(?=.*[?&]q=gen-chain-product(&|$))(?=.*[?&]seed=\d+)"))
    seed = re.search(r"seed=(\d+)", page.url).group(1)
    expect(main(page)).to_contain_text("Variant seed")
    prompt = formulas(page).all_inner_texts()
    box = main(page).get_by_label("Residual network: gradient multiplier", exact=True)
    box.fill("1.25")
    box.press("Enter")
    wait_for_draft(app_server.database_url, '"1.25"')
    open_url(page)  # a reload
    expect(main(page)).to_contain_text(seed_caption(seed))
    expect(main(page).get_by_label("Residual network: gradient multiplier", exact=True)).to_have_value(
        "1.25")
    expect(formulas(page)).to_have_count(len(prompt) + 1)  # the prompt, then the preview
    assert formulas(page).all_inner_texts()[: len(prompt)] == prompt  # the same numbers


def formulas(page):
    return main(page).locator('[data-testid="stMarkdownContainer"]').filter(
        has=page.locator(".katex"))


def test_a_reload_and_a_restart_mid_interview_bring_back_the_answer_and_the_time(
        browser, own_server, screenshot):
    page = new_page(browser)
    open_url(page, f"{own_server.url}/interview?lang=en")
    click(page, "Start the interview")
    timer = main(page).locator(".st-key-interview_timer")
    expect(timer).to_contain_text("Time left")
    fill_area(page, "Your answer, as you would say it in an interview",
              "The identity path keeps a direct gradient")
    main(page).get_by_label("Your answer, as you would say it in an interview", exact=True).press("Tab")
    wait_for_draft(own_server.database_url, "The identity path keeps a direct gradient")
    before = seconds_left(timer.inner_text())
    question = main(page).get_by_text(re.compile(r"Question 1 of \d")).inner_text()

    for restart in (False, True):
        if restart:
            own_server.restart()
        open_url(page)  # a reload
        expect(main(page).get_by_label("Your answer, as you would say it in an interview",
                                       exact=True)).to_have_value("The identity path keeps a direct gradient")
        expect(main(page).get_by_text(question)).to_be_visible()
        expect(timer).to_contain_text("Time left")
        left = seconds_left(timer.inner_text())
        assert before - 60 < left <= before  # the clock kept running, it did not start again
    screenshot("interview-after-restart-en")
    page.context.close()


def seconds_left(text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d+)", text).groups()
    return int(minutes) * 60 + int(seconds)
