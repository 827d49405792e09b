"""Browser tests of learner progress: attempts survive a server restart and show on the
dashboard; a short mock interview runs end to end."""

from playwright.sync_api import expect

from tests.e2e.learner_steps import (
    click,
    fill_area,
    main,
    open_question,
    pick_radio,
    submit_and_verdict,
    type_formula,
)
from tests.e2e.server import ROOT, start_server, stop_server, wait_idle, wait_ready
from tutor.transfer import parse_export

TALL = {"width": 1400, "height": 1800}


def metric(page, label: str) -> str:
    box = main(page).locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def open_dashboard(page, url: str, lang: str = "en") -> None:
    page.goto(f"{url}/dashboard?lang={lang}")
    main(page).locator("h1").first.wait_for()
    wait_idle(page)
    main(page).locator('[data-testid="stMetric"]').first.wait_for()


def test_attempts_survive_a_restart_and_show_on_the_dashboard(browser, tmp_path, screenshot):
    env = {"TUTOR_DATABASE_URL": f"sqlite:///{tmp_path / 'progress.db'}"}
    first = start_server(ROOT / "streamlit_app.py", env=env, log_path=tmp_path / "first.log")
    context = browser.new_context(viewport=TALL, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        wait_ready(first)
        open_question(page, first.url, "basics-residual-block-form")
        pick_radio(page, 0)
        assert submit_and_verdict(page) == "Correct"
        open_question(page, first.url, "basics-residual-from-target")
        type_formula(page, "Your answer", "H(x) + x")
        assert submit_and_verdict(page) == "Not quite"
        open_question(page, first.url, "basics-residual-3d-example")
        type_formula(page, "Your answer", "[0.5, -0.2, 0.1]")
        assert submit_and_verdict(page) == "Correct"
    finally:
        stop_server(first)

    second = start_server(ROOT / "streamlit_app.py", env=env, log_path=tmp_path / "second.log")
    try:
        wait_ready(second)
        open_dashboard(page, second.url)
        assert metric(page, "Attempts") == "3"
        assert metric(page, "Accuracy") == "67%"
        expect(main(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(4)
        screenshot("dashboard-after-restart-en")
        wait_idle(page)
        with page.expect_download() as download:
            main(page).get_by_role("button", name="Download everything (JSON)").click()
        exported = parse_export(download.value.path().read_bytes())
        assert len(exported.attempts) == 3
        open_dashboard(page, second.url, "zh")
        assert metric(page, "作答次数") == "3"
        screenshot("dashboard-after-restart-zh")
    finally:
        context.close()
        stop_server(second)


def test_short_mock_interview_end_to_end(page, goto, screenshot):
    page.set_viewport_size(TALL)
    goto("interview", "en")
    slider = main(page).locator('[data-testid="stSlider"]').first.get_by_role("slider")
    slider.focus()
    page.keyboard.press("Home")  # one question
    click(page, "Start the interview")
    expect(main(page).get_by_text("Question 1 of 1")).to_be_visible()
    # The timer is a fragment that may render just after the heading: wait for it, do not read once.
    expect(main(page).locator(".st-key-interview_timer")).to_contain_text("Time left")
    fill_area(page, "Your answer, as you would say it in an interview",
              "A residual connection makes the network deeper.")
    click(page, "Submit and show the model answer")
    main(page).get_by_role("button", name="Confirm my key points").wait_for()
    screenshot("interview-rubric-en")
    assert submit_and_verdict(page, "Confirm my key points") == "Not quite"
    click(page, "Finish")  # the last question's button
    # Wait for the summary itself: "Summary" alone also matches words in the questions' text
    # (which made this test read the page before the summary was there).
    expect(main(page).get_by_text("Summary", exact=True)).to_be_visible()
    expect(main(page)).to_contain_text("Key points you missed")
    expect(main(page)).to_contain_text("Practise these next")
    screenshot("interview-summary-en")
    # a practise link opens that question on the Practice page
    main(page).locator('[class*="st-key-interview-practise-"] button').first.click()
    wait_idle(page)
    expect(main(page).locator("h1").first).to_have_text("Practice")
