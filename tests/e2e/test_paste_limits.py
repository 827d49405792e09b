"""A paste past a box's limit, in a real browser (issue 22): Streamlit's own max_chars ignored the
whole change, so the box stayed empty without a word. Now what fits is kept and the page says so,
in the learner's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main, open_question, open_url
from tests.e2e.server import wait_idle
from tutor.i18n import t


def paste(box, text: str) -> None:
    """Put `text` in the box as a paste does (one change), then leave the box (it is sent)."""
    box.click()
    box.page.keyboard.insert_text(text)
    box.press("Tab")
    wait_idle(box.page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_interview_answer_pasted_past_4000_characters_keeps_4000(page, app_url, lang):
    open_question(page, app_url, "iv-what-does-residual-solve", lang)
    box = main(page).get_by_label(t("practice.interview_answer", lang), exact=True)
    pasted = "residual " * 500  # 4,500 characters
    paste(box, pasted)
    expect(box).to_have_value(pasted[:4000])
    note = t("common.text_cut", lang, length="4,500", limit="4,000", lost="500")
    expect(main(page).get_by_text(note)).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_derivation_lines_pasted_past_the_limit_keep_what_fits(page, app_url, lang):
    open_url(page, f"{app_url}/derivation?lang={lang}")
    box = main(page).get_by_label(t("derivation.lines_label", lang), exact=True)
    lines = "\n".join(f"x + {k}" for k in range(700))
    paste(box, lines)
    expect(box).to_have_value(lines[:4000])
    note = t("common.text_cut", lang, length=f"{len(lines):,}", limit="4,000",
             lost=f"{len(lines) - 4000:,}")
    expect(main(page).get_by_text(note)).to_be_visible()
