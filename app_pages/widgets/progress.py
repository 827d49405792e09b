"""The progress store for the pages: one shared connection pool, the sidebar profile picker,
and the attempt writer for the chosen profile. A store problem (corrupt, locked, unwritable
file) is shown in the learner's language; the page keeps working without saving.

Attempts go through one `AttemptWriter` per store: queued, written in order by its thread and
retried while the database is busy, so an attempt whose verdict the learner saw is never
dropped. The page waits up to `SAVE_WAIT_S` for the write (it takes milliseconds); if the
database is busy longer, it says the answer will be saved and moves on.
"""

from __future__ import annotations

import os

import streamlit as st

from app_pages.state import lang, profile_id, set_profile_id, tr
from tutor.i18n import LANGUAGES, t
from tutor.store import (
    ENV_URL,
    AttemptWriter,
    ProfileError,
    ProgressStore,
    StoreUnavailable,
    TutorError,
)

SAVE_WAIT_S = 1.0


@st.cache_resource(show_spinner=False)
def _open_store(url: str | None) -> ProgressStore:
    # A connection pool (thread-safe), opened once per server and database URL; errors are not
    # cached, so a locked or missing file is retried on the next run.
    return ProgressStore.open(url)


@st.cache_resource(show_spinner=False)
def _attempt_writer(url: str | None) -> AttemptWriter:
    # One writer thread per store: the app's sessions never compete for the write lock.
    return AttemptWriter(_open_store(url))


def store() -> ProgressStore | None:
    try:
        return _open_store(os.environ.get(ENV_URL))
    except StoreUnavailable as exc:
        st.sidebar.error(exc.message(lang()), icon=":material/database:")
        return None


def current_profile(db: ProgressStore):
    """The learner's profile: the one picked this session, else the first, else a new default."""
    try:
        profiles = db.list_profiles()
        if not profiles:
            try:
                profiles = [db.create_profile(tr("profile.default_name"))]
            except ProfileError:  # another learner's first visit made it a moment ago
                profiles = db.list_profiles()
    except TutorError as exc:
        st.sidebar.error(exc.message(lang()))
        return None
    by_id = {p.id: p for p in profiles}
    chosen = by_id.get(profile_id()) or profiles[0]
    set_profile_id(chosen.id)
    return chosen


def shown_name(name: str) -> str:
    """The profile made on the first visit is named in that visit's language; show it in the
    current one ("My profile" / "我的档案"). Names a learner typed are shown as typed."""
    defaults = {t("profile.default_name", code) for code in LANGUAGES}
    return tr("profile.default_name") if name in defaults else name


def profile_picker():
    """Sidebar: pick a profile or create one. Returns the chosen Profile (or None)."""
    db = store()
    if db is None:
        return None
    chosen = current_profile(db)
    if chosen is None:
        return None
    profiles = db.list_profiles()
    ids = [p.id for p in profiles]
    names = {p.id: shown_name(p.name) for p in profiles}
    picked = st.sidebar.selectbox(
        tr("profile.label"), ids, index=ids.index(chosen.id), format_func=names.get,
        key="profile.picker",
    )
    if picked != chosen.id:
        set_profile_id(picked)
        chosen = next(p for p in profiles if p.id == picked)
    with st.sidebar.popover(tr("profile.new"), icon=":material/person_add:"):
        with st.form("profile.create", border=False):
            name = st.text_input(tr("profile.name"), max_chars=80, key="profile.new_name")
            if st.form_submit_button(tr("profile.create")):
                try:
                    made = db.create_profile(name)
                except ProfileError as exc:
                    st.error(exc.message(lang()))
                else:
                    set_profile_id(made.id)
                    st.session_state.pop("profile.picker", None)
                    st.rerun()
    return chosen


def recorder():
    """`record(new_attempt)` for the chosen profile, or None when nothing can be saved.

    `record` returns the stored attempt, or None when it was refused (a warning says why) or is
    still waiting for a busy database (a caption says it will be saved)."""
    db = store()
    profile = profile_picker() if db is not None else None
    if profile is None:
        return None
    writer = _attempt_writer(os.environ.get(ENV_URL))

    def record(attempt):
        pending = writer.submit(profile.id, attempt)
        try:
            return pending.result(timeout=SAVE_WAIT_S)
        except TimeoutError:
            st.caption(tr("practice.saving"))
            return None
        except TutorError as exc:
            st.warning(tr("practice.attempt_not_saved", error=exc.message(lang())))
            return None

    return record
