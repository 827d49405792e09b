"""Mock interview at 00:00 in a real browser (issue 16, item 4): the words typed up to the end of
the clock, still in the box (never committed by leaving it), are kept and submitted, with a note.
A text area sends its text to the server only when it loses focus; this checks that the page makes
it do so at 00:00. Takes a minute: the shortest interview is one question of one minute."""

from playwright.sync_api import expect

from tests.e2e.learner_steps import click, main, open_url

ANSWER = "Residuals keep an identity path for the gradient"


def test_at_zero_the_answer_still_being_typed_is_submitted(browser, app_url, screenshot):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page = context.new_page()
    try:
        open_url(page, f"{app_url}/interview?lang=en")
        # The sliders' code is fetched after the script run ends: "idle" does not mean drawn, and
        # `.all()` does not wait (on a busy machine it found none, and the interview ran 3 × 4 min).
        sliders = main(page).get_by_role("slider")
        expect(sliders).to_have_count(2)  # questions, minutes
        for slider in sliders.all():
            slider.focus()
            slider.press("Home")  # 1 question of 1 minute
        click(page, "Start the interview")
        expect(main(page).get_by_text("Question 1 of 1", exact=True)).to_be_visible()
        box = main(page).get_by_label("Your answer, as you would say it in an interview", exact=True)
        box.click()
        box.press_sequentially(ANSWER)  # still focused: nothing sent to the server yet
        note = main(page).get_by_text("Time ran out at 00:00: your answer was kept and submitted")
        expect(note).to_be_visible(timeout=90_000)
        expect(main(page).get_by_text(ANSWER, exact=True)).to_be_visible()  # as typed, kept
        expect(main(page).get_by_role("button", name="Confirm my key points")).to_be_visible()
        screenshot("interview-time-up-en", page=page)
    finally:
        context.close()
