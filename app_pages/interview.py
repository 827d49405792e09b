"""Mock interview: a timed run of interview questions; answer (or say "I don't know"), rate
confidence, reveal the model answer, tick the key points, hear the follow-ups; a summary with what
to practise, with the time spent on each question. The interview in progress and the answer being
typed are saved as scratch work, so a reload or a server restart brings them back with the time
still running. At 00:00 the answer as typed is submitted (the page says so). Finished interviews are kept
in the profile's history (a setting, `tutor.interview.HISTORY_SETTING`) and listed under the
setup form."""

import random

import streamlit as st

from app_pages import state
from app_pages.state import lang, tr
from app_pages.widgets import answer_inputs as inputs
from app_pages.widgets import interview_history, progress, recording, resources, scratch_work
from app_pages.widgets.answer_inputs import labelled
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.feedback import rating_panel
from app_pages.widgets.interview_view import rubric_form, suggested_once
from app_pages.widgets.interview_widgets import (
    interview_timer,
    past_interviews,
    stage_outcome,
    summary_view,
    time_limit_choice,
    time_limit_seconds,
    untimed,
)
from quizbank.enums import Topic
from tutor.interview import followup_ids, recently_seen_since
from tutor.sessions.interview import InterviewSession, Stage, start_interview
from tutor.store import TutorError, utc_now

PAGE = "interview"

st.title(tr("interview.title"))
st.caption(tr("interview.intro"))
record = recording.recorder()
rerate = recording.rerater()
bank = resources.bank()

if state.first_visit(PAGE, current_profile_id()):  # a reload or a restart: the interview as it was
    scratch = scratch_work.load(PAGE)
    try:
        restored = (InterviewSession.from_dict(scratch["session"], bank.questions)
                    if isinstance(scratch, dict) else None)
    except (KeyError, ValueError):  # not an interview, or one of questions the bank lost
        restored = None
    if restored is not None and all(q in bank.questions for q in restored.question_ids):
        state.set_interview_session(current_profile_id(), restored)
        for name, value in (scratch.get("typed") or {}).items():
            # An empty box is not restored: a value set from here replaces what the browser's
            # box holds, and after a failover it may hold words typed but not sent yet.
            if value not in ("", None):
                state.default_widget_value(name, value)
session = state.interview_session(current_profile_id())

if session is None:
    with st.form("interview.setup", border=True):
        count = st.slider(tr("interview.count"), 1, 6, 3, key="interview.count")
        minutes = st.slider(tr("interview.minutes"), 1, 10, 4, key="interview.minutes")
        timing = time_limit_choice()  # off, or ten times longer (WCAG 2.2.1)
        topics = st.multiselect(tr("practice.topics"), [t.value for t in Topic],
                                format_func=labelled("practice.topic.", [t.value for t in Topic]),
                                placeholder=tr("practice.any"), key="interview.topics")
        started = st.form_submit_button(tr("interview.start"), type="primary",
                                        icon=":material/play_arrow:")
    if started:
        now = utc_now()
        seen = set()
        db = progress.store()
        if db is not None and current_profile_id() is not None:
            try:
                seen = db.recent_question_ids(current_profile_id(),
                                              since=recently_seen_since(now))
            except TutorError:
                seen = set()
        try:
            state.set_interview_session(current_profile_id(), start_interview(
                bank, n=count, now=now, seed=random.SystemRandom().randint(1, 10**9),
                topics=topics or None, recently_seen=seen,
                time_limit_seconds=time_limit_seconds(timing, minutes, count),
            ))
        except ValueError:
            st.warning(tr("interview.none_match"))
        else:
            st.rerun()
    past_interviews(interview_history.load())
    st.stop()


def sync_scratch(session, key: str | None = None) -> None:
    typed = {}
    if key is not None:
        typed = {k: state.widget_value(k) for k in (f"{key}.answer", f"{key}.confidence")
                 if state.has_widget_value(k)}
    scratch_work.sync(PAGE, {"session": session.to_dict(), "typed": typed})


def start_again() -> None:
    state.set_interview_session(current_profile_id(), None)
    scratch_work.clear(PAGE)


if session.stage is Stage.DONE:
    sync_scratch(session)
    summary = summary_view(session, bank, lang(), on_again=start_again)
    interview_history.remember(session, summary)
    st.stop()

question = bank.questions[session.current_id]
if untimed(session):
    st.caption(tr("interview.untimed"))
else:
    interview_timer(session)
st.caption(tr("interview.progress", n=session.index + 1, total=len(session.question_ids)))
st.markdown(question.prompt.get(lang()))
key = f"interview.{session.started_at.timestamp()}.{session.index}"


def go(new_session) -> None:
    state.set_interview_session(current_profile_id(), new_session)


def answered() -> None:
    text = inputs.interview_answer(key)
    if not text.strip():
        state.leave_notice(key)
        return
    go(session.submit_answer(question, text, confidence=inputs.confidence_of(key), now=utc_now(),
                             record=record))


if session.stage is Stage.ANSWER and session.expired(utc_now()):
    # 00:00: the answer as typed is kept and submitted (nothing typed: not known), with a note
    session = session.time_up(question, inputs.interview_answer(key),
                              confidence=inputs.confidence_of(key), now=utc_now(), record=record)
    go(session)

current = session.current  # this question's session (the interview is not done here)
if session.current_timed_out:
    if current.answer_shown:
        note = "interview.submitted_at_zero"
    else:  # "recorded" only once the database has it
        recorded = current.last is not None and current.last.rating
        note = "interview.empty_at_zero" if recorded else "interview.empty_at_zero_unrecorded"
    st.warning(tr(note), icon=":material/timer_off:")
if session.stage is Stage.ANSWER:
    inputs.interview_input(key)
    inputs.confidence_input(key)
    left, right = st.columns(2)
    left.button(tr("practice.reveal"), type="primary", icon=":material/visibility:",
                key=f"{key}.reveal", width="stretch", on_click=answered)
    right.button(tr("interview.dont_know"), icon=":material/help:", key=f"{key}.skip",
                 width="stretch", on_click=lambda: go(session.skip(question, now=utc_now(),
                                                                   record=record)))
    if state.take_notice(key):
        st.warning(tr("practice.empty_answer"))
elif session.stage is Stage.REVEAL:
    st.caption(tr("practice.your_answer"))
    st.text(current.held_answer)  # learner text: plain, never Markdown/HTML
    with st.expander(tr("practice.model_answer"), expanded=True, icon=":material/record_voice_over:"):
        st.markdown(question.model_answer.get(lang()))
    ticked = rubric_form(question, suggested_once(question, current.held_answer, key), lang(),
                         key=key)
    if ticked is not None:
        go(session.confirm_ticks(question, ticked, lang=lang(), record=record))
        st.rerun()
else:  # FOLLOWUPS
    graded = current.last
    stage_outcome(question, current, lang())
    if record is not None:
        recording.save_status()
    rating_panel(graded.rating, graded.due, graded.choices, key=key,
                 on_change=None if rerate is None else (
                     lambda rating: go(state.interview_session(current_profile_id()).rerate(rating, rerate))))
    if current.gave_up:
        with st.expander(tr("practice.model_answer"), expanded=True,
                         icon=":material/record_voice_over:"):
            st.markdown(question.model_answer.get(lang()))
    follow = followup_ids(question, bank.questions)
    if follow:
        st.markdown(f"**{tr('interview.followups_asked')}**")
        st.markdown("\n".join(f"- {bank.questions[f].prompt.get(lang())}" for f in follow))
    cols = st.columns(2)
    last = session.last_question
    cols[0].button(tr("interview.finish_last" if last else "interview.next"), type="primary",
                   icon=":material/flag:" if last else ":material/skip_next:", key=f"{key}.next",
                   on_click=lambda: go(session.next(utc_now(), bank.questions)))
    if not last:
        cols[1].button(tr("interview.finish"), icon=":material/stop:", key=f"{key}.finish",
                       on_click=lambda: go(session.finish()))
sync_scratch(state.interview_session(current_profile_id()), key)
