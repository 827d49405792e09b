"""Pieces of the mock interview screen: the timer, one question's outcome, the summary (with the
time spent on each question) and the list of past interviews."""

from __future__ import annotations

from datetime import datetime

import streamlit as st

from app_pages import state
from app_pages.state import InterviewAnswers, option_labels, page_state, tr, tr_n
from app_pages.state import lang as current_lang
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.plain_text import markdown_escaped
from app_pages.widgets.resources import question_title
from grader import Verdict
from tutor.interview import QuestionTime
from tutor.sessions.interview import summarize
from tutor.store import utc_now

# The learner's choice before the interview starts (WCAG 2.2.1, issue 31): the limit as set, ten
# times it, or none. "None" is a limit no one reaches (30 days, the session stores a number and its
# timer logic stays as it is); the page then draws no clock, and nothing is ever submitted at 00:00.
TIMINGS = ("as_set", "ten_times", "off")
UNTIMED_SECONDS = 30 * 24 * 3600


def time_limit_choice() -> str:
    """The setup form's "Time limit" radio (inside the form: nothing reruns until Start)."""
    return st.radio(tr("interview.timing"), TIMINGS, key="interview.timing",
                    format_func=option_labels(lambda o: f"interview.timing_option.{o}"),
                    help=tr("interview.timing_help"))


def time_limit_seconds(timing: str, minutes_per_question: int, questions: int) -> float:
    """The interview's limit for the choice: minutes × questions, ten times that, or untimed."""
    if timing == "off":
        return UNTIMED_SECONDS
    factor = 10 if timing == "ten_times" else 1
    return minutes_per_question * 60 * questions * factor


def untimed(session) -> bool:
    return session.time_limit_seconds >= UNTIMED_SECONDS


def _clock(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"


# At 00:00 the browser is asked to let go of the answer box: a text area sends what was typed only
# when it loses focus, so this puts the words typed up to 00:00 on the server before the page
# submits them. Our own constant script; nothing of the learner's is in it.
_RELEASE_TYPING = "<script>document.activeElement && document.activeElement.blur();</script>"


@st.fragment(run_every=1.0)
def interview_timer(session) -> None:
    """Time left, ticking once a second (only this fragment reruns). At 00:00 while an answer is
    being typed: the answer box lets go of what was typed, and the next tick reruns the page,
    which submits it."""
    left = session.time_left(utc_now())
    with st.container(key="interview_timer"):
        st.progress(left / session.time_limit_seconds if session.time_limit_seconds else 0.0,
                    text=tr("interview.time_left", clock=_clock(left)))
        if left <= 0:
            st.warning(tr("interview.time_up"), icon=":material/timer_off:")
    current = state.interview_session(current_profile_id())
    answers = page_state(InterviewAnswers)
    if not (left <= 0 and current is not None and current.stage == "answer"):
        answers.expired_ticks = 0
        return
    ticks, answers.expired_ticks = answers.expired_ticks, answers.expired_ticks + 1
    if ticks == 0:
        st.html(_RELEASE_TYPING, unsafe_allow_javascript=True)
    else:
        answers.expired_ticks = 0
        st.rerun(scope="app")


def stage_outcome(question, session, lang: str) -> None:
    """After the ticks are confirmed (or "I don't know"): the verdict, the key points missed and
    the misconceptions the learner stated (`session`: the question's `QuestionSession`)."""
    from app_pages.widgets.interview_view import rubric_outcome

    graded = session.last
    # one verdict per question of the interview: `verdict-1` is what browser tests wait for
    with st.container(key="verdict"), st.container(key="verdict-1"):
        if session.gave_up:  # "recorded … comes back tomorrow" only once the database has it
            st.info(tr("interview.skipped" if graded.rating else "interview.skipped_unrecorded"),
                    icon=":material/help:")
        elif graded.result.verdict is Verdict.CORRECT:
            st.success(tr("practice.correct"), icon=":material/check_circle:")
        else:
            st.error(tr("practice.wrong"), icon=":material/cancel:")
        if not session.gave_up:
            st.caption(tr("practice.score", score=graded.rubric.score))
    if not session.gave_up:
        rubric_outcome(question, graded.rubric, lang)


def _practise(question_id: str) -> None:
    state.request_practice(question_id)


def summary_view(session, bank, lang: str, *, on_again) -> None:
    summary = summarize(session, bank.questions)
    st.header(tr("interview.summary"))
    cols = st.columns(3)
    cols[0].metric(tr("interview.answered"), summary.answered)
    cols[1].metric(tr("interview.skipped_count"), summary.skipped)
    cols[2].metric(tr("interview.correct"), summary.correct)
    if summary.per_question:
        st.markdown(f"**{tr('interview.per_question')}**")
        st.markdown("\n".join(_timed_line(t, bank, lang) for t in summary.per_question))
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
    return summary


def _result(verdict: Verdict, skipped: bool) -> str:
    return tr("interview.result.skipped") if skipped else tr(f"interview.result.{verdict}")


def _timed_line(timed, bank, lang: str) -> str:
    """One summary line: the question, its result and the time it took (bank text, our words)."""
    # an id from an imported history may be anything: shown escaped, like any text from a file
    known = bank.questions.get(str(timed.question_id))
    title = markdown_escaped(question_title(known, lang) if known else str(timed.question_id))
    note = f" · {tr('interview.at_zero')}" if timed.timed_out else ""
    return f"- {title} · {_result(timed.verdict, timed.skipped)} · {_clock(timed.seconds)}{note}"


def history_counts(entry: dict) -> tuple[int, int]:
    """(answered, skipped) of a past interview. Entries saved before "skipped" was kept counted
    a skipped question as answered: their questions' own results say which were skipped."""
    if "skipped" in entry:
        return int(entry["answered"]), int(entry["skipped"])
    skipped = sum(bool(q.get("skipped")) for q in entry["questions"])
    return int(entry["answered"]) - skipped, skipped


def past_interviews(history: list[dict]) -> None:
    """The profile's finished interviews, newest first, each with its summary."""
    if not history:
        return
    st.header(tr("interview.history_title"))
    from app_pages.widgets import resources
    from app_pages.widgets.attempt_history import learner_zone

    bank = resources.bank()
    zone = learner_zone()
    for entry in history:
        try:
            when = datetime.fromisoformat(entry["finished_at"]).astimezone(zone).strftime(
                "%Y-%m-%d %H:%M")
            spent = sum(float(q["seconds"]) for q in entry["questions"])
            answered, skipped = history_counts(entry)
            title = tr("interview.history_entry", when=when, answered=answered,
                       asked=int(entry["asked"]), correct=int(entry["correct"]), clock=_clock(spent))
            if skipped:
                title += " · " + tr_n("interview.history_skipped", skipped)
            lines = [_timed_line(QuestionTime.from_dict(q), bank, current_lang())
                     for q in entry["questions"]]
            missed = int(entry.get("missed") or 0)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # an entry from an edited export: left out rather than shown wrong
        with st.expander(title, icon=":material/history:", expanded=False):
            st.markdown("\n".join(lines))
            if missed:
                st.caption(tr("interview.history_missed", n=missed))
