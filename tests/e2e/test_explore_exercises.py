"""Browser tests of the shell, Explore and the Exercises share link in the real server and headless
Chromium (answering an exercise: tests/e2e/test_exercises.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main, seed_caption

H1 = '[data-testid="stMain"] h1'


def demo(page, name: str):
    """Open one Explore demo (a segmented control above the demos) and wait for its heading."""
    chooser = main(page).locator('[data-testid="stButtonGroup"]').first
    chooser.get_by_role("radio", name=name, exact=True).click()
    expect(chooser.get_by_role("radio", name=name, exact=True)).to_have_attribute("aria-checked", "true")
    return main(page)


def slider(panel, label: str):
    return panel.locator('[data-testid="stSlider"]').filter(has_text=label).get_by_role("slider")


def metric_value(panel, label: str):
    return panel.locator('[data-testid="stMetric"]').filter(has_text=label).locator(
        '[data-testid="stMetricValue"]')


def test_language_switch_changes_strings_and_is_remembered(page, goto, screenshot):
    goto("explore", "en")
    expect(page.locator(H1)).to_have_text("Explore")
    page.locator('[data-testid="stSidebar"]').get_by_role("radio", name="中文").click()
    expect(page.locator(H1)).to_have_text("交互探索")
    expect(page.locator('.st-key-site_nav')).to_contain_text("计算题")
    expect(page).to_have_url(re.compile(r"lang=zh"))
    page.reload()  # the URL keeps the choice
    expect(page.locator(H1)).to_have_text("交互探索")
    page.locator('.st-key-site_nav').get_by_text("计算题").click()
    expect(page.locator(H1)).to_have_text("计算题")
    expect(page).to_have_url(re.compile(r"lang=zh"))


def test_gradient_multiplier_follows_the_sliders(page, goto, screenshot):
    goto("explore", "en")
    panel = demo(page, "Gradient multiplier")
    expect(metric_value(panel, "Residual, n = 20")).to_have_text(f"{1.5 ** 20:.4g}")
    thumb = slider(panel, "Local derivative a")
    thumb.focus()
    thumb.press("Home")  # a = -2: |a|^20 = 2^20, |1 + a|^20 = 1
    expect(metric_value(panel, "Plain, n = 20")).to_have_text(f"{2.0 ** 20:.3e}")
    expect(metric_value(panel, "Residual, n = 20")).to_have_text("1")
    for _ in range(20):  # up to a = -1 in steps of 0.05
        thumb.press("ArrowRight")
    expect(metric_value(panel, "Residual, n = 20")).to_have_text("0")
    expect(panel.get_by_text("residual multiplier is exactly 0")).to_be_visible()
    expect(panel.locator('[data-testid="stVegaLiteChart"]')).to_be_visible()
    screenshot("explore-multiplier-a-minus-1-en")


def test_residual_sum_and_norm_switch(page, goto):
    goto("explore", "en")
    panel = demo(page, "y = x + F(x)")
    expect(panel.get_by_text("Residual output y = [2.1, 2.8]")).to_be_visible()
    thumb = slider(panel, "Update scale")
    thumb.focus()
    for _ in range(10):  # alpha 1.0 -> 0.0
        thumb.press("ArrowLeft")
    expect(panel.get_by_text("Residual output y = [2, 3]")).to_be_visible()
    panel = demo(page, "Pre-LN vs Post-LN")
    panel.get_by_text("Post-LN", exact=True).click()
    expect(panel.get_by_text("Post-LN normalizes after each addition")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explore_tabs_screenshots(page, goto, screenshot, lang):
    names = {"en": ["y = x + F(x)", "Gradient multiplier", "Pre-LN vs Post-LN", "Deep MLP gradients"],
             "zh": ["y = x + F(x)", "梯度倍率", "Pre-LN 与 Post-LN", "深层 MLP 梯度"]}[lang]
    goto("explore", lang)
    for index, name in enumerate(names, start=1):
        panel = demo(page, name)
        if index == 4:
            expect(panel.locator('[data-testid="stMetric"]').first).to_be_visible(timeout=60_000)
        chart = panel.locator('[data-testid="stVegaLiteChart"], [data-testid="stGraphVizChart"]')
        expect(chart.first).to_be_visible()
        page.wait_for_timeout(400)  # charts animate in
        screenshot(f"explore-{index}-{lang}")


def test_shared_link_opens_the_same_problem(page, goto, browser):
    goto("exercises", "en", template="residual_scaling", seed=321, difficulty="hard")
    expect(main(page)).to_contain_text(seed_caption(321))
    page.get_by_role("button", name="New variant").click()
    expect(main(page)).not_to_contain_text(seed_caption(321))
    caption = main(page).get_by_text(re.compile(r"Variant seed \d+")).first
    seed = re.search(r"seed (\d+)", caption.inner_text()).group(1)
    expect(page).to_have_url(re.compile(rf"seed={seed}"))
    page.get_by_role("button", name="Share this problem").click()
    link = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]').inner_text().strip()
    assert f"seed={seed}" in link and "template=residual_scaling" in link
    numbers = main(page).locator('[data-testid="stMarkdownContainer"]').filter(
        has=page.locator(".katex")).all_inner_texts()

    other = browser.new_context(viewport={"width": 1400, "height": 950}).new_page()
    other.goto(link)
    expect(other.locator(H1)).to_have_text("Exercises")
    expect(other.locator('[data-testid="stMain"]')).to_contain_text(seed_caption(seed))
    shared = other.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"]').filter(
        has=other.locator(".katex"))
    expect(shared).to_have_count(len(numbers))  # rendered (KaTeX draws after the text)
    assert shared.all_inner_texts() == numbers  # the prompt with this variant's numbers, the same for anyone
    other.context.close()
