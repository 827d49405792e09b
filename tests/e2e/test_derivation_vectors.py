"""Browser test of issue 25 on the Derivation checker: the Vectors box (folded away with the
other declarations, kept in the link) and a gradient checked line by line, with a row written
where a column is meant named in the learner's language. Waits for states, never for a time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main
from tests.e2e.server import wait_idle

TALL = {"width": 1400, "height": 1500}
LINES = "\\nabla_x L\n(I+W)^T \\nabla_y L\n(\\nabla_y L)^T (I+W)"


@pytest.mark.parametrize(("lang", "more", "labels", "check", "named"), [
    ("en", "More declarations",
     ("Functions (comma-separated)", "Matrices (comma-separated; I is the identity)", "Vectors",
      "Relations (equations, separated by ;)"), "Check each line",
     "This line is a row vector where line 2 is a column vector"),
    ("zh", "更多声明", ("函数（逗号分隔）", "矩阵（逗号分隔；I 为单位矩阵）", "向量", "关系式（等式，用 ; 分隔）"),
     "逐行检查", "这一行是行向量"),
])
def test_a_gradient_is_checked_from_the_vectors_box_and_the_row_is_named(
        page, goto, screenshot, lang, more, labels, check, named):
    page.set_viewport_size(TALL)
    goto("derivation", lang)
    functions, matrices, vectors, relations = labels  # boxes by their labels, never by place
    main(page).get_by_label(functions, exact=True).fill("L")
    main(page).get_by_label(matrices, exact=True).fill("W")
    main(page).get_by_text(more).click()  # the folded declarations
    main(page).get_by_label(vectors, exact=True).fill("x, y")
    main(page).get_by_label(relations, exact=True).fill("y = x + Wx")
    main(page).locator("textarea").fill(LINES)
    main(page).locator("textarea").blur()  # leaving the box saves it (one rerun)
    wait_idle(page)
    main(page).get_by_role("button", name=check).click()
    expect(main(page).get_by_text(named).first).to_be_visible()
    expect(page).to_have_url(re.compile(r"vectors=x"))
    screenshot(f"derivation-vectors-{lang}")

    page.reload()  # the link opens the same derivation, checked, with its vectors
    expect(main(page).get_by_text(named).first).to_be_visible()
    expect(main(page).get_by_label(vectors, exact=True)).to_have_value("x, y")
