"""The learner pages' per-user state: every `st.session_state` key these pages use lives here.

(The language and the profile id live in `app_pages.state`, owned by the shell.)
"""

from __future__ import annotations

import streamlit as st

from tutor.practice import Filters, PracticeRun

_RUN = "{page}.run"
_FILTERS = "{page}.filters"
_REQUESTED = "practice.requested"  # a question another page asked Practice to open


def run(page: str) -> PracticeRun:
    """The page's run through questions, created on first use."""
    return st.session_state.setdefault(_RUN.format(page=page), PracticeRun())


def filters_changed(page: str, filters: Filters) -> bool:
    """True once each time the learner changes the filters (the first run counts)."""
    key = _FILTERS.format(page=page)
    changed = st.session_state.get(key) != filters
    st.session_state[key] = filters
    return changed


def request_practice(question_id: str) -> None:
    """Ask the Practice page to open this question next (a link from another page)."""
    st.session_state[_REQUESTED] = question_id


def take_requested() -> str | None:
    return st.session_state.pop(_REQUESTED, None)


QUESTION_PARAM = "q"  # ?q=<question id> opens that question on Practice (shareable links)


def take_url_question() -> str | None:
    """The question a link asked for, once (the parameter is removed after reading)."""
    qid = st.query_params.get(QUESTION_PARAM)
    if qid is not None:
        del st.query_params[QUESTION_PARAM]
    return qid


_INTERVIEW = "interview.session"


def interview_session():
    """The mock interview in progress (a frozen `tutor.interview.InterviewSession`), or None."""
    return st.session_state.get(_INTERVIEW)


def set_interview_session(session) -> None:
    st.session_state[_INTERVIEW] = session
