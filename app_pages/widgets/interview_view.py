"""An interview question: answer + confidence (or "I don't know"), then the model answer and the
rubric to tick (suggested ticks pre-checked, the learner confirms), then the verdict, the key
points missed, the misconceptions the learner stated, the rating and the follow-ups. Practice and
Review show interview questions this way; the Mock interview reuses the rubric form and the
outcome.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_pages.state import (
    InterviewAnswers,
    leave_notice,
    page_state,
    set_widget_value,
    take_notice,
    widget_value,
)
from app_pages.widgets import answer_inputs as inputs
from tutor.i18n import t
from tutor.sessions import question_session as flow


def suggested_ticks(question, answer: str) -> set[str]:
    """Rubric points whose keywords or synonyms (zh or en) appear in the answer."""
    from tutor.interview_match import suggest_ticks

    return set(suggest_ticks(question.rubric, answer))


def suggested_once(question, answer: str, key: str) -> set[str]:
    # The answer is fixed once the model answer is shown: match it once per visit, not on every
    # run that draws the rubric (each match normalizes the answer once per keyword). One slot,
    # not one key per visit, so the session state does not grow with every question.
    answers = page_state(InterviewAnswers)
    kept = answers.suggested
    if kept is None or kept[:2] != (key, answer):
        kept = (key, answer, frozenset(suggested_ticks(question, answer)))
        answers.suggested = kept
    return set(kept[2])


def interview_question(question, session: flow.QuestionSession, lang: str, *, key: str,
                       record, mode: str, rerate=None,
                       go_to: Callable[[str], None] | None = None) -> None:
    from app_pages.widgets import feedback

    if not session.answer_shown and not session.revealed:
        inputs.interview_input(key, lang)
        inputs.confidence_input(key, lang)
        left, right = st.columns(2)
        left.button(t("practice.reveal", lang), type="primary", icon=":material/visibility:",
                    key=f"{key}.reveal", width="stretch", on_click=_show_model_answer,
                    args=(session, question, key), kwargs={"record": record, "mode": mode})
        right.button(t("practice.dont_know", lang), icon=":material/help:", key=f"{key}.give_up",
                     width="stretch", on_click=flow.give_up, args=(session, question),
                     kwargs={"record": record, "mode": mode})
        if take_notice(key):
            st.warning(t("practice.empty_answer", lang))
        return

    if session.answer_shown:
        st.caption(t("practice.your_answer", lang))
        st.text(session.held_answer)  # the learner's words, never Markdown/HTML
    with st.expander(t("practice.model_answer", lang), expanded=True, icon=":material/record_voice_over:"):
        st.markdown(question.model_answer.get(lang))

    if session.held_saved and session.last is None:
        st.caption(t("practice.assess_pending", lang))
    if session.answer_shown:
        # assessed once: whether the store counted it or recorded it as practice
        assessed = session.last is not None
        ticked = rubric_form(question, suggested_once(question, session.held_answer, key), lang,
                             key=key, locked=assessed)
        if ticked is not None and not assessed:
            flow.confirm_ticks(session, question, ticked, lang=lang, record=record, mode=mode)
    last = session.last
    if last is None:
        return
    feedback.verdict(last, lang, number=len(session.graded))
    if record is not None:
        from app_pages.widgets import recording

        recording.save_status()
    rubric_outcome(question, last.rubric, lang)
    first = session.first
    if first is not None:
        on_change = None if rerate is None else (
            lambda rating: flow.change_rating(session, rating, rerate=rerate))
        feedback.rating_panel(first.rating, first.due, first.choices, key=key,
                              on_change=on_change, lang=lang)
    else:
        feedback.repeat_note(session, lang)
    followups(question, lang, key=key, go_to=go_to)


def _show_model_answer(session: flow.QuestionSession, question, key: str, *, record,
                       mode: str) -> None:
    # A callback runs before the rerun, so the model answer shows in this very run.
    text = inputs.interview_answer(key)
    if not text.strip():
        leave_notice(key)
        return
    flow.show_model_answer(session, question, text, inputs.confidence_of(key), record=record,
                           mode=mode)


def followups(question, lang: str, *, key: str, go_to: Callable[[str], None] | None) -> None:
    if not question.followups or go_to is None:
        return
    from app_pages.widgets.resources import question as bank_question
    from app_pages.widgets.resources import question_title

    st.markdown(f"**{t('practice.followups', lang)}**")
    for qid in question.followups:
        follow = bank_question(qid)
        if follow is None:  # a follow-up the bank no longer has
            continue
        st.button(question_title(follow, lang), key=f"{key}.follow.{qid}", on_click=go_to,
                  args=(qid,), icon=":material/arrow_forward:")


def rubric_form(question, suggested: set[str], lang: str, *, key: str,
                locked: bool = False) -> list[str] | None:
    """The rubric's key points as checkboxes, suggested ones pre-ticked; the ticked ids once the
    learner confirms (None before). `locked` shows the ticks already confirmed.

    Confirming is recorded by the button's callback, before the script runs, so the run that
    confirms already draws the form locked: Confirm is never drawn enabled after it has done its
    job (a double click finds it disabled, and Streamlit ignores a disabled button's click)."""
    confirmed_ticks = page_state(InterviewAnswers).confirmed_ticks
    tick_keys = {p.id: f"{key}.tick.{p.id}" for p in question.rubric}

    def confirm() -> None:
        ticks = [pid for pid, k in tick_keys.items() if widget_value(k)]
        confirmed_ticks[key] = ticks
        for pid, k in tick_keys.items():  # keep the confirmed ticks on the locked checkboxes
            set_widget_value(k, pid in ticks)

    confirmed = confirmed_ticks.get(key)
    locked = locked or confirmed is not None
    with st.form(f"{key}.rubric_form", border=True):
        st.markdown(f"**{t('practice.rubric', lang)}**")
        st.caption(t("practice.rubric_suggested", lang))
        for p in question.rubric:
            st.checkbox(
                f"{p.text.get(lang)} · _{t(f'practice.kind_{p.kind}', lang)}_",
                value=False if locked else p.id in suggested,  # locked: the confirmed ticks
                key=tick_keys[p.id],
                disabled=locked,
            )
        st.form_submit_button(
            t("practice.confirm_ticks", lang), type="primary", key=f"{key}.confirm", disabled=locked,
            on_click=confirm,
        )
    return confirmed


def rubric_outcome(question, rubric, lang: str) -> None:
    """The required points the learner missed, and, apart, the misconceptions they stated: those
    are things said, not points missed."""
    if rubric is None:
        return
    by_id = {p.id: p for p in question.rubric}
    if rubric.missed_required:
        st.markdown(f"**{t('practice.missed_points', lang)}**")
        st.markdown("\n".join(f"- {by_id[i].text.get(lang)}" for i in rubric.missed_required))
    if rubric.misconceptions:
        with st.container(key="misconceptions_said"):
            st.warning(t("practice.said_misconception", lang), icon=":material/report:")
            st.markdown("\n".join(f"- {by_id[i].text.get(lang)}" for i in rubric.misconceptions))
