"""An interview question: answer + confidence, then the model answer and the rubric to tick
(suggested ticks pre-checked, the learner confirms), then the verdict, missed points and
follow-ups. Practice and Review show interview questions this way; the Mock interview reuses
the rubric form.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages.state import tr
from app_pages.widgets import answer_inputs as inputs
from tutor.practice import QuestionSession


def suggested_ticks(question, answer: str) -> set[str]:
    """Rubric points whose keywords or synonyms (zh or en) appear in the answer."""
    from tutor.interview_match import suggest_ticks

    return set(suggest_ticks(question.rubric, answer))


def interview_question(
    question, session: QuestionSession, lang: str, *, key: str, submit: Callable,
    go_to: Callable[[str], None] | None = None,
) -> None:
    if not session.revealed:
        def reveal() -> None:
            # A callback runs before the rerun, so the model answer shows in this very run.
            text = st.session_state.get(f"{key}.answer") or ""
            if text.strip():
                session.reveal(text, st.session_state.get(f"{key}.confidence") or "medium")

        with st.form(f"{key}.answer_form", border=False, enter_to_submit=False):
            inputs.interview_input(f"{key}.answer")
            inputs.confidence_input(f"{key}.confidence")
            pressed = st.form_submit_button(
                tr("practice.reveal"), type="primary", icon=":material/visibility:",
                key=f"{key}.reveal", on_click=reveal,
            )
        if pressed and not session.revealed:
            st.warning(tr("practice.empty_answer"))
        if not session.revealed:
            return

    st.caption(tr("practice.your_answer"))
    st.text(session.draft_answer)  # the learner's words, never Markdown/HTML
    with st.expander(tr("practice.model_answer"), expanded=True, icon=":material/record_voice_over:"):
        st.markdown(question.model_answer.get(lang))

    ticked = rubric_form(question, suggested_ticks(question, session.draft_answer), lang, key=key,
                         locked=session.attempted)
    if ticked is not None and not session.attempted:
        submit({"text": session.draft_answer, "ticked": ticked}, session.draft_confidence)
    if session.last is None:
        return
    from app_pages.widgets.feedback import verdict

    verdict(session.last, lang)
    missed_points(question, session.last.result, lang)
    if question.followups and go_to is not None:
        st.markdown(f"**{tr('practice.followups')}**")
        from app_pages.widgets.resources import question as bank_question
        from app_pages.widgets.resources import question_title

        for qid in question.followups:
            follow = bank_question(qid)
            if follow is None:  # a follow-up the bank no longer has
                continue
            st.button(question_title(follow, lang), key=f"{key}.follow.{qid}", on_click=go_to, args=(qid,),
                      icon=":material/arrow_forward:")


def rubric_form(question, suggested: set[str], lang: str, *, key: str,
                locked: bool = False) -> list[str] | None:
    """The rubric's key points as checkboxes, suggested ones pre-ticked; the ticked ids once the
    learner confirms (None before). `locked` shows the ticks already confirmed.

    Confirming is recorded by the button's callback, before the script runs, so the run that
    confirms already draws the form locked: Confirm is never drawn enabled after it has done its
    job (a double click finds it disabled, and Streamlit ignores a disabled button's click)."""
    confirmed_key = f"{key}.confirmed_ticks"
    tick_keys = {p.id: f"{key}.tick.{p.id}" for p in question.rubric}

    def confirm() -> None:
        ticks = [pid for pid, k in tick_keys.items() if st.session_state.get(k)]
        st.session_state[confirmed_key] = ticks
        for pid, k in tick_keys.items():  # keep the confirmed ticks on the locked checkboxes
            st.session_state[k] = pid in ticks

    confirmed = st.session_state.get(confirmed_key)
    locked = locked or confirmed is not None
    with st.form(f"{key}.rubric_form", border=True):
        st.markdown(f"**{tr('practice.rubric')}**")
        st.caption(tr("practice.rubric_suggested"))
        for p in question.rubric:
            st.checkbox(
                f"{p.text.get(lang)} · _{tr(f'practice.kind_{p.kind}')}_",
                value=False if locked else p.id in suggested,  # locked: the confirmed ticks
                key=tick_keys[p.id],
                disabled=locked,
            )
        st.form_submit_button(
            tr("practice.confirm_ticks"), type="primary", key=f"{key}.confirm", disabled=locked,
            on_click=confirm,
        )
    return confirmed


def missed_points(question, result: dict, lang: str) -> None:
    details = result.get("details") or {}
    by_id = {p.id: p for p in question.rubric}
    missed = [by_id[i] for i in details.get("missed", []) + details.get("misconceptions", [])]
    if missed:
        st.markdown(f"**{tr('practice.missed_points')}**")
        st.markdown("\n".join(f"- {p.text.get(lang)}" for p in missed))
