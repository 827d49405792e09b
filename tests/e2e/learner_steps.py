"""Browser steps on the learner pages, shared by the practice and progress browser tests and the
submit benchmark: open a question, answer it with the widget of its kind, submit, read the verdict."""

from __future__ import annotations

from tests.e2e.server import wait_idle

MAIN = '[data-testid="stMain"]'
VERDICT = ".st-key-verdict"


def main(page):
    return page.locator(MAIN)


def open_question(page, base_url: str, question_id: str, lang: str = "en") -> None:
    """Practice is the default page (URL "/"); `?q=` opens one question."""
    page.goto(f"{base_url}/?lang={lang}&q={question_id}")
    page.wait_for_selector('[data-testid="stSidebarNav"]')
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


def submit_and_verdict(page, name: str = "Submit answer") -> str:
    """Submit and return the verdict's first line ("Correct", "Not quite", …)."""
    main(page).get_by_role("button", name=name).click()
    verdict = page.locator(VERDICT)
    verdict.wait_for()
    wait_idle(page)
    alert = verdict.locator('[data-testid="stAlertContentSuccess"], [data-testid="stAlertContentError"], '
                            '[data-testid="stAlertContentWarning"]').first
    return alert.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()
