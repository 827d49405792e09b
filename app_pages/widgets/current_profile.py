"""The one current profile, as every page reads it, and the frame's query parameters for links.

Above the state (`app_pages.state`, which only keeps the id) and the sign-in (`app_pages.widgets.auth`):
resolving the profile needs both, and neither needs this module.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import (
    LANG_PARAM,
    PROFILE_PARAM,
    chosen_profile_id,
    lang,
    set_current_profile,
    tr,
)
from app_pages.widgets import resources
from app_pages.widgets.auth import class_mode, signed_in_profile_id


def current_profile_id() -> int | None:
    """The id of the one current profile: every page reads it here and nowhere else.

    The shell's sidebar picker settles it before the page runs (`set_current_profile`); the first
    call of a session (or of a page script run without the shell, as in AppTest) resolves it: the
    URL's `?profile=` when that profile exists, else the first profile, else a new one named
    "My profile" in the learner's language. None only while the progress store cannot be opened
    (the shell then shows why in the sidebar).
    """
    chosen = chosen_profile_id()
    if chosen is None:
        chosen = _resolve_profile_id(st.query_params.get(PROFILE_PARAM))
        set_current_profile(chosen)
    return chosen


def _resolve_profile_id(wanted: object) -> int | None:
    # Imported here: every page imports this module, which must not pull in the store
    # (SQLAlchemy) by itself.
    from tutor.sessions.profiles import choose_profile
    from tutor.store import TutorError

    if class_mode():  # the identity's profile, whatever the link says
        return signed_in_profile_id()
    try:
        return choose_profile(resources.progress_store(), wanted,
                              default_name=tr("profile.default_name")).id
    except TutorError:
        return None


def frame_params() -> dict[str, str]:
    """The frame's query parameters (language, current profile), for a link that opens a page in
    a new tab: `st.column_config.LinkColumn` URLs, `st.page_link(..., query_params=...)`."""
    params = {LANG_PARAM: lang()}
    if (profile := chosen_profile_id()) is not None and not class_mode():
        params[PROFILE_PARAM] = str(profile)
    return params
