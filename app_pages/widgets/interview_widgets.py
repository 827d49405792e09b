"""Pieces of the mock interview screen: the timer, one question's outcome, and the summary."""

from __future__ import annotations

import streamlit as st

from app_pages.state import tr
from app_pages.widgets import flow_state
from app_pages.widgets.resources import question_title
from tutor.interview import summarize
from tutor.store import utc_now


def _clock(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"


@st.fragment(run_every=1.0)
def interview_timer(session) -> None:
    """Time left, ticking once a second (only this fragment reruns)."""
    left = session.time_left(utc_now())
    with st.container(key="interview_timer"):
        st.progress(left / session.time_limit_seconds if session.time_limit_seconds else 0.0,
                    text=tr("interview.time_left", clock=_clock(left)))
        if left <= 0:
            st.warning(tr("interview.time_up"), icon=":material/timer_off:")


def stage_outcome(question, run, lang: str) -> None:
    """After the ticks are confirmed (or "I don't know"): the verdict, the key points missed and
    the misconceptions the learner stated."""
    from app_pages.widgets.interview_view import rubric_outcome

    outcome = run.outcome
    # one verdict per question of the interview: `verdict-1` is what browser tests wait for
    with st.container(key="verdict"), st.container(key="verdict-1"):
        if run.skipped:
            st.info(tr("interview.skipped"), icon=":material/help:")
        elif outcome.verdict == "correct":
            st.success(tr("practice.correct"), icon=":material/check_circle:")
        else:
            st.error(tr("practice.wrong"), icon=":material/cancel:")
        if not run.skipped:
            st.caption(tr("practice.score", score=outcome.score))
    if not run.skipped:
        rubric_outcome(question, outcome, lang)


def _practise(question_id: str) -> None:
    flow_state.request_practice(question_id)


def summary_view(session, bank, lang: str, *, on_again) -> None:
    summary = summarize(session, bank.questions)
    st.subheader(tr("interview.summary"))
    cols = st.columns(2)
    cols[0].metric(tr("interview.answered"), summary.answered)
    cols[1].metric(tr("interview.correct"), summary.correct)
    for title, points in ((tr("interview.missed"), summary.missed),
                          (tr("interview.misconceptions"), summary.misconceptions)):
        if points:
            st.markdown(f"**{title}**")
            st.markdown("\n".join(
                f"- {p.text.get(lang)} · {question_title(bank.questions[p.question_id], lang)}"
                for p in points))
    if summary.practise:
        st.markdown(f"**{tr('interview.practise_these')}**")
        for qid in summary.practise:
            if st.button(question_title(bank.questions[qid], lang), key=f"interview.practise.{qid}",
                         icon=":material/edit_note:"):
                _practise(qid)
                st.switch_page("app_pages/practice.py")
    elif summary.answered:
        st.success(tr("interview.all_good"), icon=":material/celebration:")
    st.button(tr("interview.again"), type="primary", icon=":material/replay:", key="interview.again",
              on_click=on_again)
