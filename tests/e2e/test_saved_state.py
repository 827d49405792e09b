"""In a real browser: an answer the database cannot take yet is "Saved on this server" (in the
replica's spool), never "Recorded for review", and the line turns to "Saved." on its own, with no
click, once the database has it (issue 23, item 2); the rating the database gave it is then drawn
too (the page used to stop waiting for it after `SAVE_WAIT_S`, and the first try's "Recorded for
review as …" never came: tests/e2e/test_first_try_once.py flaked on a loaded machine)."""

import sqlite3

from playwright.sync_api import expect

from tests.e2e.learner_steps import main, open_question, submit_and_verdict, type_formula

NUMERIC = "basics-residual-3d-example"  # [0.5, -0.2, 0.1]


def test_saved_on_this_server_turns_into_saved_and_rated_without_a_click(browser, own_server,
                                                                       screenshot):
    page = browser.new_context(viewport={"width": 1400, "height": 1400}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    open_question(page, own_server.url, NUMERIC)
    # another program holds the database's write lock: every write waits
    holder = sqlite3.connect(own_server.database_url.removeprefix("sqlite:///"),
                             isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        type_formula(page, "Your answer", "[0.5, -0.2, 0.1]")
        assert submit_and_verdict(page) == "Correct"
        expect(page.locator(".st-key-save-spooled")).to_contain_text("Saved on this server")
        expect(main(page)).not_to_contain_text("Recorded for review")
        screenshot("practice-saved-on-this-server-en")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # the database is free: nothing is clicked, the status line looks again by itself
    expect(page.locator(".st-key-save-stored")).to_contain_text("Saved.", timeout=40_000)
    expect(page.locator(".st-key-save-spooled")).to_have_count(0)
    expect(main(page)).to_contain_text("Recorded for review as Good")
    expect(main(page).get_by_text("Recorded for review")).to_have_count(1)
