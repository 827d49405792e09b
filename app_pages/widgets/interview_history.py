"""The profile's past mock interviews: read from and added to the profile setting
`tutor.interview.HISTORY_SETTING` (no table of its own: a short JSON list, exported and imported
with the other settings). A store that cannot be used leaves the history empty; the interview
itself goes on."""

from __future__ import annotations

from typing import Any

from app_pages.widgets import progress
from app_pages.widgets.current_profile import current_profile_id
from tutor.interview import HISTORY_SETTING, add_to_history, history_entry
from tutor.store import TutorError, utc_now


def load() -> list[dict[str, Any]]:
    db, profile = progress.store(), current_profile_id()
    if db is None or profile is None:
        return []
    try:
        history = db.get_settings(profile).get(HISTORY_SETTING)
    except TutorError:
        return []
    return [h for h in history if isinstance(h, dict)] if isinstance(history, list) else []


def remember(session, summary) -> None:
    """Add the finished interview (once: the summary page runs on every click)."""
    db, profile = progress.store(), current_profile_id()
    if db is None or profile is None or summary.graded == 0:
        return
    history = add_to_history(load(), history_entry(session, summary, finished_at=utc_now()))
    if history is None:
        return
    try:
        db.set_setting(profile, HISTORY_SETTING, history)
    except TutorError:
        pass  # the history is a convenience; the attempts themselves are recorded already
