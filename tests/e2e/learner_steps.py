"""Browser steps on the learner pages, shared by the practice and progress browser tests and the
submit benchmark: open a question, answer it with the widget of its kind, submit, read the verdict."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.server import wait_idle

MAIN = '[data-testid="stMain"]'
VERDICT = ".st-key-verdict"


def main(page):
    return page.locator(MAIN)


def seed_caption(seed: int, lang: str = "en") -> re.Pattern:
    """The Exercises page's "Variant seed N" caption for exactly this seed: "seed 7" must not
    match "seed 765" (a new variant drawn after seed 7 can start with its digits)."""
    label = {"en": "Variant seed", "zh": "变体种子"}[lang]
    return re.compile(rf"{label} {seed}(?!\d)")


def uploader_words(page) -> list[str]:
    """The words on the page's one file uploader, its button's then its note's, as the CSS strings
    that draw them (`'"Choose a file"'`: app_pages/widgets/uploader_css.py puts them in `::after`)."""
    zone = main(page).locator('[data-testid="stFileUploaderDropzone"]')
    expect(zone).to_have_count(1)
    return zone.evaluate(
        "z => [z.querySelector('button p'), z.querySelector("
        "'[data-testid=stFileUploaderDropzoneInstructions] span')]"
        ".map(e => getComputedStyle(e, '::after').content)")


def open_question(page, base_url: str, question_id: str, lang: str = "en") -> None:
    """Practice is the default page (URL "/"); `?q=` opens one question."""
    page.goto(f"{base_url}/?lang={lang}&q={question_id}")
    page.wait_for_selector('.st-key-site_nav')
    main(page).locator("h1").first.wait_for()
    wait_idle(page)


def open_url(page, url: str | None = None) -> None:
    """Open any app URL (None: reload the page) and wait until its script run is done (a cold
    page may take seconds)."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector('.st-key-site_nav', state="attached")
    main(page).locator("h1").first.wait_for()
    wait_idle(page)


def type_formula(page, label: str, text: str) -> None:
    """Type into a formula box and press Enter: the "interpreted as" preview appears."""
    box = main(page).get_by_label(label, exact=True)
    box.fill(text)
    box.press("Enter")
    wait_idle(page)


def pick_radio(page, index: int) -> None:
    main(page).locator('[data-testid="stRadio"]').first.locator('[role="radiogroup"] label').nth(index).click()


def pick_in_order(page, labels: list[str]) -> None:
    """Click the multiselect's options in this order (the ordering widget)."""
    select = main(page).locator('[data-testid="stMultiSelect"]').last
    for label in labels:
        select.locator("input").click()
        page.get_by_role("option", name=label, exact=True).click()
    page.keyboard.press("Escape")


def fill_area(page, label: str, text: str) -> None:
    main(page).get_by_label(label, exact=True).fill(text)


def click(page, name: str) -> None:
    main(page).get_by_role("button", name=name).click()
    wait_idle(page)


def verdict_number(page) -> int:
    """How many answers this visit has had graded (0: no verdict on screen yet)."""
    marker = page.locator('[class*="st-key-verdict-"]')
    if marker.count() == 0:
        return 0
    classes = marker.first.get_attribute("class") or ""
    return int(re.search(r"st-key-verdict-(\d+)", classes).group(1))


def submit_and_verdict(page, name: str = "Submit answer") -> str:
    """Submit and return the new verdict's first line ("Correct", "Not quite", …): waits for the
    verdict of this submission, not the one a previous try left on screen."""
    before = verdict_number(page)
    main(page).get_by_role("button", name=name, exact=True).click()
    verdict = page.locator(f".st-key-verdict-{before + 1}")
    verdict.wait_for()
    wait_idle(page)
    alert = verdict.locator('[data-testid="stAlertContentSuccess"], [data-testid="stAlertContentError"], '
                            '[data-testid="stAlertContentWarning"], [data-testid="stAlertContentInfo"]').first
    return alert.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()


# ---- the progress database behind a server (drafts) ------------------------------------------
def wait_for_draft(database_url: str, text: str, timeout: float = 30.0) -> None:
    """Wait until some saved draft contains `text`: what the learner typed has reached the store
    (a reload before that would rightly lose it)."""
    import time

    from sqlalchemy import select

    from tutor.store import ProgressStore
    from tutor.store.schema import drafts

    store = ProgressStore.open(database_url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            values = store.read(lambda conn: conn.execute(select(drafts.c.value)).scalars().all())
            if any(text in value for value in values):
                return
            time.sleep(0.1)
        raise AssertionError(f"no draft contains {text!r} after {timeout} s")
    finally:
        store.close()


def new_profile(database_url: str, name: str) -> int:
    """A profile of the test's own on the shared server (`?profile=<id>` opens it): what the test
    answers stays out of the first profile, which other tests read."""
    from tutor.store import ProgressStore

    store = ProgressStore.open(database_url)
    try:
        return store.create_profile(name).id
    finally:
        store.close()


def open_question_as(page, learner, question_id: str, lang: str) -> None:
    """Open `question_id` in `lang` as the `learner` fixture's own profile."""
    app_url, profile = learner
    open_url(page, f"{app_url}/?lang={lang}&q={question_id}&profile={profile}")


def clear_drafts(database_url: str) -> None:
    from sqlalchemy import delete

    from tutor.store import ProgressStore
    from tutor.store.schema import drafts

    store = ProgressStore.open(database_url)
    try:
        store.write(lambda conn: conn.execute(delete(drafts)))
    finally:
        store.close()
