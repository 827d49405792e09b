"""Drafts for the pages: the question on screen and what was typed, saved to the store as the
learner goes (once per run that changed them) and read back after a reload or a server restart.

Saving is best effort: without a profile or a store, or when the store is busy, the page goes on
and only a reload would lose the draft.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app_pages.state import current_profile_id
from app_pages.widgets import progress
from tutor.store import TutorError
from tutor.store.drafts import clear_draft, load_draft, save_draft

_LAST = "draft.{key}.saved"  # what this session last wrote, to skip writing the same again


def _where():
    pid = current_profile_id()  # None when no store could be opened (the sidebar already says why)
    db = progress.store() if pid is not None else None
    return (db, pid) if db is not None else (None, None)


def load(key: str) -> Any | None:
    """The profile's draft for this screen, or None."""
    db, pid = _where()
    if db is None:
        return None
    try:
        value = load_draft(db, pid, key)
    except TutorError:
        return None
    st.session_state[_LAST.format(key=key)] = _encoded(value)
    return value


def sync(key: str, value: Any) -> None:
    """Save `value` as this screen's draft when it differs from what was saved last."""
    encoded = _encoded(value)
    if st.session_state.get(_LAST.format(key=key)) == encoded:
        return
    db, pid = _where()
    if db is None:
        return
    try:
        save_draft(db, pid, key, value)
    except (TutorError, ValueError):
        return  # busy or too large: the next change tries again
    st.session_state[_LAST.format(key=key)] = encoded


def clear(key: str) -> None:
    db, pid = _where()
    st.session_state.pop(_LAST.format(key=key), None)
    if db is None:
        return
    try:
        clear_draft(db, pid, key)
    except TutorError:
        pass


def _encoded(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
