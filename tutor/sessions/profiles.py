"""Which profile a visit works on, without Streamlit: the one a link or the session names when it
exists, else the first one, else a new one (an empty store: the very first visit)."""

from __future__ import annotations

from tutor.store import Profile, ProfileError, ProgressStore


def parse_profile_id(value: object) -> int | None:
    """A profile id from a URL or session value (`"3"`, `3`); anything else is None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def choose_profile(db: ProgressStore, wanted: object, *, default_name: str) -> Profile:
    """The profile `wanted` names if it exists, else the first profile (oldest), else a new one
    called `default_name`. Raises the store's `TutorError` when the store cannot be read."""
    profiles = db.list_profiles()
    if not profiles:
        try:
            return db.create_profile(default_name)
        except ProfileError:  # another tab made it at the same moment
            profiles = db.list_profiles()
    wanted_id = parse_profile_id(wanted)
    return next((p for p in profiles if p.id == wanted_id), profiles[0])
