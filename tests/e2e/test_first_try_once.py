""""Only the first try counts" in a real browser, tried the way a learner games it (issue 22):
reopen a question after its solution from All questions; "I don't know" on an exercise, then its
share link; switch profile in the sidebar mid-question. Each test has its own server and
database, so what it counts is its own."""

from __future__ import annotations

import re

from playwright.sync_api import expect

import compute
from tests.e2e.learner_steps import (
    click,
    main,
    open_question,
    open_url,
    seed_caption,
    submit_and_verdict,
    type_formula,
)
from tests.e2e.server import wait_idle
from tutor.sessions.exercises import format_value
from tutor.store import ProgressStore

NUMERIC = "basics-residual-3d-example"  # key [0.5, -0.2, 0.1], three tries
KEY = "[0.5, -0.2, 0.1]"
TALL = {"width": 1400, "height": 1600}


def new_page(browser):
    page = browser.new_context(viewport=TALL, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    return page


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def metric(page, label: str):
    box = main(page).locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]')


def history(database_url: str) -> dict[str, list[tuple[str, str]]]:
    """Profile name -> its attempts as (phase, verdict), oldest first."""
    store = ProgressStore.open(database_url)
    try:
        return {p.name: [(a.phase, a.verdict) for a in store.list_attempts(p.id)]
                for p in store.list_profiles()}
    finally:
        store.close()


def test_reopening_a_question_after_its_solution_is_practice(browser, own_server, screenshot):
    page = new_page(browser)
    open_question(page, own_server.url, NUMERIC)
    for wrong in ("[0.5, 0.2, 0.1]", "[0.5, 0.3, 0.1]", "[0.5, 0.4, 0.1]"):
        type_formula(page, "Your answer", wrong)
        assert submit_and_verdict(page) == "Not quite"
    expect(main(page)).to_contain_text("Recorded for review as Again: back tomorrow.")
    expect(main(page).get_by_text("Worked solution")).to_be_visible()
    click(page, "Next question")

    # the same question again, the way a learner finds it: All questions, search, open
    sidebar(page).locator('.st-key-site_nav').get_by_role(
        "link", name="All questions").click()
    wait_idle(page)
    search = main(page).get_by_label("Search", exact=True)
    search.fill(NUMERIC)
    search.press("Enter")
    wait_idle(page)
    main(page).locator('[data-testid="stPageLink"] a').first.click()
    expect(main(page).locator("h1").first).to_have_text("Practice")
    wait_idle(page)
    expect(main(page)).to_contain_text("Try 1 of 3")  # a new visit ...
    type_formula(page, "Your answer", KEY)
    assert submit_and_verdict(page) == "Correct"
    # ... whose answer is practice, said as such, and when the question comes back
    expect(main(page)).to_contain_text("Practice: not counted.")
    expect(main(page)).to_contain_text(re.compile(r"comes back for review on \d{4}-\d{2}-\d{2}"))
    expect(main(page).get_by_text("Recorded for review as Good")).to_have_count(0)
    screenshot("practice-reopened-after-solution-en")

    open_url(page, f"{own_server.url}/dashboard?lang=en")
    expect(metric(page, "Attempts")).to_have_text("1")
    expect(metric(page, "Accuracy")).to_have_text("0%")  # not 50 %
    (attempts,) = history(own_server.database_url).values()
    assert [phase for phase, _ in attempts] == ["first", "retry", "retry", "repeat"]
    page.context.close()


def test_i_dont_know_on_an_exercise_then_its_share_link_is_practice(browser, own_server,
                                                                    screenshot):
    template, seed = "linear_residual_block", 7
    link = (f"{own_server.url}/exercises?lang=zh&template={template}&seed={seed}"
            "&difficulty=easy")
    page = new_page(browser)
    open_url(page, link)
    expect(main(page)).to_contain_text(seed_caption(seed, "zh"))
    click(page, "我不会：显示解答")
    expect(main(page)).to_contain_text("明天再复习")  # the counted failure
    click(page, "换一组数字")  # another variant on screen (and in the draft) ...
    expect(main(page)).not_to_contain_text(seed_caption(seed, "zh"))

    open_url(page, link)  # ... then the share link of the one whose solution was shown
    expect(main(page)).to_contain_text(seed_caption(seed, "zh"))
    asks = ["y", "loss", "grad_x"]  # gen-linear-block-forward-backward, the bank's question
    answers = compute.generate(template, seed=seed, difficulty="easy")["answers"]
    boxes = main(page).locator('[class*="-gen-"] input[type="text"]')
    expect(boxes).to_have_count(len(asks))
    for box, name in zip(boxes.all(), asks, strict=True):
        box.fill(format_value(answers[name]))
        box.press("Tab")
        wait_idle(page)
    assert submit_and_verdict(page, "提交答案") == "正确"
    expect(main(page)).to_contain_text("练习：不计入记录。")
    expect(main(page)).to_contain_text(re.compile(r"本题将于 \d{4}-\d{2}-\d{2} 回到复习"))
    expect(main(page).get_by_text("已按")).to_have_count(0)
    screenshot("exercises-share-link-after-i-dont-know-zh")
    (attempts,) = history(own_server.database_url).values()
    assert attempts == [("first", "wrong"), ("repeat", "correct")]
    page.context.close()


def test_switching_profile_mid_question_starts_the_new_profiles_own_visit(browser, own_server,
                                                                          screenshot):
    page = new_page(browser)
    open_question(page, own_server.url, NUMERIC)
    type_formula(page, "Your answer", "[0.5, 0.2, 0.1]")
    assert submit_and_verdict(page) == "Not quite"
    expect(main(page)).to_contain_text("Try 2 of 3")
    expect(main(page)).to_contain_text("Recorded for review as Again")

    sidebar(page).get_by_role("button", name="New profile").click()
    page.get_by_label("Name", exact=True).fill("Bo")
    page.get_by_role("button", name="Create", exact=True).click()
    picker = sidebar(page).locator('[data-testid="stSelectbox"] input')
    expect(picker).to_have_value("Bo")
    wait_idle(page)
    # Bo's own visit of the question on screen: no verdict, no rating, the first try
    expect(main(page)).to_contain_text("Try 1 of 3")
    expect(main(page).locator('[class*="st-key-verdict-"]')).to_have_count(0)
    expect(main(page).get_by_text("Recorded for review")).to_have_count(0)
    expect(main(page).get_by_label("Your answer", exact=True)).to_have_value("")
    screenshot("practice-switched-profile-en")
    type_formula(page, "Your answer", KEY)
    assert submit_and_verdict(page) == "Correct"
    expect(main(page)).to_contain_text("Recorded for review as Good")

    # back to the first profile: its own visit, as it was
    picker.click()
    page.get_by_role("option", name="My profile").click()
    wait_idle(page)
    expect(picker).to_have_value("My profile")
    expect(main(page)).to_contain_text("Try 2 of 3")
    expect(main(page)).to_contain_text("Recorded for review as Again")
    found = history(own_server.database_url)
    assert found["Bo"] == [("first", "correct")]
    assert [p for p, _ in found[next(n for n in found if n != "Bo")]] == ["first"]
    page.context.close()
