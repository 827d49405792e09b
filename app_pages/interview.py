"""Mock interview: a timed run of interview questions; answer, rate confidence, reveal the model
answer, tick the key points, hear the follow-ups; a summary with what to practise."""

import random

import streamlit as st

from app_pages.state import lang, profile_id, tr
from app_pages.widgets import answer_inputs as inputs
from app_pages.widgets import flow_state, progress, resources
from app_pages.widgets.answer_inputs import labelled
from app_pages.widgets.interview_view import rubric_form
from app_pages.widgets.interview_widgets import interview_timer, stage_outcome, summary_view
from quizbank.enums import Topic
from tutor.interview import Stage, followup_ids, start_interview
from tutor.practice import CONFIDENCE_LEVEL
from tutor.store import TutorError, utc_now

st.title(tr("interview.title"))
st.caption(tr("interview.intro"))
record = progress.recorder()
bank = resources.bank()
session = flow_state.interview_session()

if session is None:
    with st.form("interview.setup", border=True):
        count = st.slider(tr("interview.count"), 1, 6, 3, key="interview.count")
        minutes = st.slider(tr("interview.minutes"), 1, 10, 4, key="interview.minutes")
        topics = st.multiselect(tr("practice.topics"), [t.value for t in Topic],
                                format_func=labelled("practice.topic.", [t.value for t in Topic]),
                                placeholder=tr("practice.any"), key="interview.topics")
        started = st.form_submit_button(tr("interview.start"), type="primary",
                                        icon=":material/play_arrow:")
    if started:
        now = utc_now()
        seen = set()
        db = progress.store()
        if db is not None and profile_id() is not None:
            try:
                seen = db.recent_question_ids(profile_id(), since=now.replace(year=now.year - 1))
            except TutorError:
                seen = set()
        try:
            flow_state.set_interview_session(start_interview(
                bank, n=count, now=now, seed=random.SystemRandom().randint(1, 10**9),
                topics=topics or None, recently_seen=seen, time_limit_seconds=minutes * 60 * count,
            ))
        except ValueError:
            st.warning(tr("interview.none_match"))
        else:
            st.rerun()
    st.stop()

if session.stage is Stage.DONE:
    summary_view(session, bank, lang())
    st.stop()

question = bank.questions[session.current_id]
interview_timer(session)
st.caption(tr("interview.progress", n=session.index + 1, total=len(session.question_ids)))
st.markdown(question.prompt.get(lang()))
key = f"interview.{session.started_at.timestamp()}.{session.index}"

if session.stage is Stage.ANSWER:
    with st.form(f"{key}.answer_form", border=False, enter_to_submit=False):
        text = inputs.interview_input(f"{key}.answer")
        confidence = inputs.confidence_input(f"{key}.confidence")
        answered = st.form_submit_button(tr("practice.reveal"), type="primary",
                                         icon=":material/visibility:")
    if answered:
        if text is None:
            st.warning(tr("practice.empty_answer"))
        else:
            flow_state.set_interview_session(session.submit_answer(
                question, text, confidence=CONFIDENCE_LEVEL[confidence], now=utc_now()))
            st.rerun()
elif session.stage is Stage.REVEAL:
    run = session.current
    st.caption(tr("practice.your_answer"))
    st.text(run.answer)  # learner text: plain, never Markdown/HTML
    with st.expander(tr("practice.model_answer"), expanded=True, icon=":material/record_voice_over:"):
        st.markdown(question.model_answer.get(lang()))
    ticked = rubric_form(question, set(run.suggested), lang(), key=key)
    if ticked is not None:
        flow_state.set_interview_session(
            session.confirm_ticks(question, ticked, now=utc_now(), record=record))
        st.rerun()
else:  # FOLLOWUPS
    stage_outcome(question, session.current, lang())
    follow = followup_ids(question, bank.questions)
    if follow:
        st.markdown(f"**{tr('interview.followups_asked')}**")
        st.markdown("\n".join(f"- {bank.questions[f].prompt.get(lang())}" for f in follow))
    cols = st.columns(2)
    if cols[0].button(tr("interview.next"), type="primary", icon=":material/skip_next:",
                      key=f"{key}.next"):
        flow_state.set_interview_session(session.next(utc_now()))
        st.rerun()
    if cols[1].button(tr("interview.finish"), icon=":material/stop:", key=f"{key}.finish"):
        flow_state.set_interview_session(session.finish())
        st.rerun()
