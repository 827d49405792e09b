"""The learner pages' per-user state: every `st.session_state` key these pages use lives here.

(The language and the profile id live in `app_pages.state`, owned by the shell.)
"""

from __future__ import annotations

import streamlit as st

from app_pages.flows.practice import Filters, PracticeRun

_RUN = "{page}.run"
_FILTERS = "{page}.filters"
_REQUESTED = "practice.requested"  # a question another page asked Practice to open
_RESTORED = "{page}.restored"  # the page has looked for its draft in this session


def run(page: str) -> PracticeRun:
    """The page's run through questions, created on first use."""
    return st.session_state.setdefault(_RUN.format(page=page), PracticeRun())


def first_visit(page: str) -> bool:
    """True on the page's first run in this browser session (then: look for a draft), once."""
    key = _RESTORED.format(page=page)
    first = key not in st.session_state
    st.session_state[key] = True
    return first


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


_INTERVIEW = "interview.session"


def interview_session():
    """The mock interview in progress (a frozen `tutor.interview.InterviewSession`), or None."""
    return st.session_state.get(_INTERVIEW)


def set_interview_session(session) -> None:
    st.session_state[_INTERVIEW] = session
