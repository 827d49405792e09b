"""The learner pages' per-user state: every `st.session_state` key these pages use lives here.

(The language and the profile id live in `app_pages.state`, owned by the shell.)

A question on screen belongs to a profile: its tries, its verdicts and the rating recorded are
that profile's. The run through questions, the "looked for the draft" flag and the mock interview
are therefore kept per profile (`_mine`): switching profile in the sidebar mid-question starts the
new profile's own visit (its draft, or a fresh question), and switching back finds the first
profile's visit as it was (issue 22).
"""

from __future__ import annotations

import streamlit as st

from app_pages.flows.practice import Filters, PracticeRun
from app_pages.widgets.current_profile import current_profile_id

_RUN = "{page}.run"
_FILTERS = "{page}.filters"
_REQUESTED = "practice.requested"  # a question another page asked Practice to open
_RESTORED = "{page}.restored"  # the page has looked for its draft in this session


def profile_key(key: str, profile_id: int | None) -> str:
    """The session-state key of `key` ("practice.run", "interview.session") for one profile."""
    return f"{key}@{profile_id}"


def _mine(key: str) -> str:
    """`key` for the current profile (per-question state is a profile's, never shared)."""
    return profile_key(key, current_profile_id())


def run(page: str) -> PracticeRun:
    """The current profile's run through questions on the page, created on first use."""
    return st.session_state.setdefault(_mine(_RUN.format(page=page)), PracticeRun())


def first_visit(page: str) -> bool:
    """True on the page's first run for the current profile in this browser session (then: look
    for that profile's draft), once."""
    key = _mine(_RESTORED.format(page=page))
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
    """The current profile's mock interview in progress (a frozen
    `tutor.interview.InterviewSession`), or None."""
    return st.session_state.get(_mine(_INTERVIEW))


def set_interview_session(session) -> None:
    st.session_state[_mine(_INTERVIEW)] = session
