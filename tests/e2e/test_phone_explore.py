"""Explore on a phone (issue 16, item 8): at 390 x 844 every figure of every demo fits the screen
and stays legible; the Pre-LN / Post-LN diagram is drawn stacked (top to bottom) with its labels
at a readable size, and the wide drawing is the one shown on a desktop."""

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main
from tests.e2e.server import wait_idle

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
DEMOS = ["y = x + F(x)", "Gradient multiplier", "Pre-LN vs Post-LN", "Deep MLP gradients"]
MIN_TEXT_PX = 10  # a diagram label shorter than this on screen cannot be read on a phone


def open_demo(page, goto, demo: str) -> None:
    goto("explore", "en")
    main(page).locator('[data-testid="stButtonGroup"] button', has_text=demo).click()
    wait_idle(page)


def visible_diagram_text_heights(page, key: str) -> list[float]:
    """Heights of the diagram's labels once Graphviz has drawn them: the SVG is drawn by the
    browser after the script run ends, so a bare is_visible() right after the run can see none."""
    expect(page.locator(f".{key} [data-testid=stGraphVizChart] svg text").first).to_be_visible()
    labels = page.locator('[data-testid="stGraphVizChart"] svg text')
    return [box["height"] for k in range(labels.count())
            if (box := labels.nth(k).bounding_box()) is not None and labels.nth(k).is_visible()]


@pytest.mark.parametrize("demo", DEMOS)
def test_every_explore_figure_fits_a_phone(page, goto, demo, screenshot):
    page.set_viewport_size(PHONE)
    open_demo(page, goto, demo)
    figures = main(page).locator('[data-testid="stVegaLiteChart"], [data-testid="stGraphVizChart"]')
    main(page).locator('[data-testid="stVegaLiteChart"]:visible, '
                       '[data-testid="stGraphVizChart"]:visible').first.wait_for()
    shown = [figures.nth(k) for k in range(figures.count()) if figures.nth(k).is_visible()]
    assert shown, "no figure shown"
    for figure in shown:
        box = figure.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        assert box["width"] >= 150, box  # not shrunk to a sliver either
    overflow = page.evaluate("() => { const m = document.querySelector('[data-testid=stMain]');"
                             " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 1
    screenshot(f"phone-explore-{DEMOS.index(demo) + 1}-en")


def test_the_norm_diagram_is_stacked_and_legible_on_a_phone(page, goto):
    page.set_viewport_size(PHONE)
    open_demo(page, goto, "Pre-LN vs Post-LN")
    heights = visible_diagram_text_heights(page, "st-key-norm_diagram_narrow")
    assert not page.locator(".st-key-norm_diagram_wide").is_visible()
    assert heights and min(heights) >= MIN_TEXT_PX, heights


def test_the_norm_diagram_is_wide_on_a_desktop(page, goto):
    page.set_viewport_size(DESKTOP)
    open_demo(page, goto, "Pre-LN vs Post-LN")
    heights = visible_diagram_text_heights(page, "st-key-norm_diagram_wide")
    assert not page.locator(".st-key-norm_diagram_narrow").is_visible()
    assert heights and min(heights) >= MIN_TEXT_PX, heights
