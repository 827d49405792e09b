"""Browser tests of issue 24 on the Derivation checker: the declaration schema's other fields
(folded away, kept in the link) and a whole derivation pasted as written, checked line by line
with its remarks shown. Each waits for a state (`expect`), never for a time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main
from tests.e2e.server import wait_idle

TALL = {"width": 1400, "height": 1500}
BLOCK = ("\\begin{aligned}\n"
         "\\frac{\\partial y}{\\partial x} &= \\frac{\\partial x}{\\partial x}"
         " + \\frac{\\partial F(x, W)}{\\partial x} && \\text{linearity} \\\\\n"
         "&= 1 + \\partial_W F(x, W)\n"
         "\\end{aligned}\n"
         "where W is fixed")


@pytest.mark.parametrize(("lang", "symbols", "functions", "more", "integers", "check", "remark",
                          "broken"), [
    ("en", "Symbols (comma-separated)", "Functions (comma-separated)", "More declarations",
     "Integers", "Check each line", "remark", "Line 2 does not follow from line 1."),
    ("zh", "符号（逗号分隔）", "函数（逗号分隔）", "更多声明", "整数", "逐行检查", "说明",
     "第 2 行不能由第 1 行推出。"),
])
def test_a_pasted_block_is_checked_with_its_remarks_and_the_new_fields_stay_in_the_link(
        page, goto, screenshot, lang, symbols, functions, more, integers, check, remark, broken):
    page.set_viewport_size(TALL)
    goto("derivation", lang)
    main(page).get_by_label(symbols, exact=True).fill("x, W")
    main(page).get_by_label(functions, exact=True).fill("F")
    main(page).get_by_text(more).click()  # the folded declarations
    main(page).get_by_label(integers, exact=True).fill("n")
    main(page).locator("textarea").fill(BLOCK)
    main(page).locator("textarea").blur()  # leaving the box saves it (one rerun)
    wait_idle(page)
    main(page).get_by_role("button", name=check).click()
    expect(main(page).get_by_text(broken).first).to_be_visible()  # ∂_W is not ∂_x
    report = page.locator(".st-key-derivation_report")
    expect(report).to_contain_text("linearity")
    expect(report).to_contain_text("where W is fixed")
    expect(report.locator('[data-testid="stMarkdownContainer"]', has_text=remark)).to_have_count(2)
    expect(page).to_have_url(re.compile(r"integers=n"))
    screenshot(f"derivation-pasted-block-{lang}")

    page.reload()  # the link opens the same derivation, checked, with its new field
    expect(main(page).get_by_text(broken).first).to_be_visible()
    expect(main(page).get_by_label(integers, exact=True)).to_have_value("n")
