"""Exercises' "Copy the numbers" (issue 16, item 5) in a real browser: the popover shows the
problem's numbers as NumPy and MATLAB code, and the code box's button puts exactly that text on
the clipboard."""

import json
import re

import compute
from tests.e2e.learner_steps import main
from tests.e2e.server import wait_idle
from tutor.sessions.exercises import numbers_as_code

PROBLEM = {"template": "linear_residual_block", "seed": 7, "difficulty": "easy"}


def test_copy_the_numbers_puts_the_code_on_the_clipboard(browser, app_url, screenshot):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US",
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        query = "&".join(f"{k}={v}" for k, v in {"lang": "en", **PROBLEM}.items())
        page.goto(f"{app_url}/exercises?{query}")
        main(page).locator("h1").first.wait_for()
        wait_idle(page)
        main(page).get_by_role("button", name=re.compile("Copy the numbers")).click()
        popover = page.locator('[data-testid="stPopoverBody"]')
        code = popover.locator('[data-testid="stCode"]').first
        code.wait_for()
        params = compute.generate(**PROBLEM)["params"]
        expected = numbers_as_code(params, "numpy")
        assert code.inner_text().strip() == expected
        code.hover()
        code.get_by_role("button").first.click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied.strip() == expected
        x = json.loads(re.search(r"^x = np\.array\((.*)\)$", copied, re.M).group(1))
        assert x == params["x"]
        screenshot("exercises-copy-numbers-en", page=page)
    finally:
        context.close()
