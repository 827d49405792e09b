"""The writers the question pages pass down: record an attempt for the chosen profile, and change
a right answer's rating afterwards. None when nothing can be saved (no store, no profile).
`save_status()` draws, under a verdict, whether the session's answers are saved yet;
`landed_records()` hands over the records of answers stored after the page stopped waiting."""

from __future__ import annotations

import streamlit as st

from app_pages.state import lang, tr
from app_pages.widgets import progress
from app_pages.widgets.current_profile import current_profile_id
from tutor.store import TutorError


def recorder():
    """`record(new_attempt)` for the current profile, or None when nothing can be saved (the
    sidebar's profile picker is drawn by the app's shell, `streamlit_app.py`)."""
    return progress.recorder()


def save_status() -> None:
    """"Not saved yet" / "Saved on this server" / "Saved." for the session's latest answers."""
    progress.save_status()


def landed_records() -> list[tuple[str, object]]:
    """(key, stored attempt) for each answer stored after the page stopped waiting for it."""
    return progress.landed_records()


def rerater():
    """`rerate(attempt_id, rating)` -> the card as now scheduled, or None when it failed."""
    db = progress.store() if current_profile_id() is not None else None
    if db is None:
        return None
    pid = current_profile_id()

    def rerate(attempt_id: int, rating: int):
        try:
            return db.change_rating(pid, attempt_id, rating)
        except (TutorError, ValueError) as exc:
            reason = exc.message(lang()) if isinstance(exc, TutorError) else str(exc)
            st.toast(tr("practice.rating_not_changed", error=reason), icon=":material/error:")
            return None

    return rerate
