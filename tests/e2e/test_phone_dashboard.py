"""On a phone (390 x 844), in both languages (issue 22): the Dashboard's per-question table shows
more than the question column (its long titles filled the screen), and a long inline formula
stays on one line instead of breaking mid-expression, without running off the screen."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from grader import Verdict
from tests.e2e.server import wait_idle
from tutor.store import NewAttempt, ProgressStore

PHONE = {"width": 390, "height": 844}
# Long titles, and the bank's longest inline formula (the "highway" question's prompt).
LONG = ["grad-plus-one-highway-nuance", "norm-ln-jacobian-derivation", "norm-sandwich-ln-order"]
# Every inline formula's pieces (KaTeX's .base boxes) on one line: no box starts below another's
# bottom; and the formula's box ends inside the screen.
FORMULAS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] .katex'))
  .filter(k => !k.closest('.katex-display'))
  .map(k => {
    const boxes = Array.from(k.querySelectorAll(':scope > .katex-html > .base'))
      .map(b => b.getBoundingClientRect());
    const oneLine = Math.max(...boxes.map(b => b.top)) < Math.min(...boxes.map(b => b.bottom));
    return {text: k.textContent.slice(0, 40), oneLine, right: k.getBoundingClientRect().right};
  })"""


@pytest.fixture
def phone_learner(app_server):
    store = ProgressStore.open(app_server.database_url)
    try:
        me = store.create_profile(f"phone-{uuid.uuid4().hex[:8]}")
        for k, qid in enumerate(LONG):
            store.record_attempt(me.id, NewAttempt(qid, Verdict.WRONG),
                                 now=datetime.now(UTC) - timedelta(hours=k + 1))
        return me.id
    finally:
        store.close()


@pytest.mark.parametrize(("lang", "question_header"), [("en", "Question"), ("zh", "题目")])
def test_the_per_question_table_shows_several_columns_on_a_phone(page, app_url, phone_learner,
                                                                lang, question_header):
    page.set_viewport_size(PHONE)
    page.goto(f"{app_url}/dashboard?lang={lang}&profile={phone_learner}")
    wait_idle(page)
    table = page.locator('[data-testid="stDataFrame"]').last
    table.scroll_into_view_if_needed()
    headers = table.locator('canvas th[role="columnheader"]')  # the grid's columns on screen
    headers.first.wait_for(state="attached")
    shown = headers.all_text_contents()
    assert shown[0] == question_header and len(shown) >= 3, shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_inline_formula_stays_whole_on_a_phone(page, app_url, lang):
    page.set_viewport_size(PHONE)
    page.goto(f"{app_url}/?lang={lang}&q={LONG[0]}")
    wait_idle(page)
    page.locator('[data-testid="stMain"] .katex').first.wait_for()
    formulas = page.evaluate(FORMULAS)
    assert formulas
    for formula in formulas:
        assert formula["oneLine"], formula
        assert formula["right"] <= PHONE["width"], formula
