"""The verdict and what follows an attempt: feedback, hints one at a time, the worked solution.

Grader feedback may quote what the learner typed, so it is shown as plain text (`st.text`) or
LaTeX from the parsed tree; only bank-authored text (hints, solutions, mal-rule feedback, option
feedback) goes through Markdown.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import tr
from tutor.practice import Outcome, QuestionSession

VERDICT_TEST_ID = "verdict"  # the e2e tests and the submit benchmark wait for this marker


# Types whose feedback is built only from grader messages and bank text (option and step
# texts): safe for Markdown. Other feedback may quote what the learner typed: plain text only.
MARKDOWN_FEEDBACK = ("choice", "ordering")


def verdict(outcome: Outcome, lang: str, kind: str = "") -> None:
    """Correct / not quite / unreadable, with everything the grader explained."""
    result = outcome.result
    with st.container(key=VERDICT_TEST_ID):
        if result.unreadable:
            st.warning(tr("practice.unreadable"), icon=":material/help:")
            st.code(result.feedback or result.error or "", language=None)
            return
        if outcome.correct:
            st.success(tr("practice.correct"), icon=":material/check_circle:")
        else:
            st.error(tr("practice.wrong"), icon=":material/cancel:")
        if 0 < outcome.score < 1:
            st.caption(tr("practice.score", score=outcome.score))
        if result.interpreted:
            st.caption(tr("practice.interpreted_as"))
            st.latex(result.interpreted)
        if outcome.correct:
            return
        if result.malrule:  # bank text, authored with $LaTeX$
            st.info(f"**{tr('practice.malrule')}** — {result.malrule}", icon=":material/lightbulb:")
        elif kind in MARKDOWN_FEEDBACK and result.feedback:
            st.markdown(result.feedback)
        elif result.feedback:
            st.text(result.feedback)


def hints(question, session: QuestionSession, lang: str, key: str) -> None:
    """Revealed hints, and a button for the next one ("Show a hint (1/3)")."""
    total = session.hints_total(question)
    if total == 0:
        return
    for n, text in enumerate(session.visible_hints(question, lang), start=1):
        st.info(f"**{tr('practice.hint_label', n=n)}** — {text}", icon=":material/tips_and_updates:")
    if session.can_show_hint(question):
        label = tr("practice.hint_button", shown=session.hints_shown + 1, total=total)
        # A callback runs before the rerun, so the new hint shows at once.
        st.button(
            label, key=f"{key}.hint", icon=":material/lightbulb:",
            on_click=session.show_hint, args=(question,),
        )


def solution(question, lang: str) -> None:
    with st.expander(tr("practice.solution"), expanded=True, icon=":material/menu_book:"):
        st.markdown(question.solution.get(lang))
