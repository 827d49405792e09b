"""The progress store and its attempt writer, as the pages reach them: the store's problem
(corrupt, locked, unwritable file) is shown in the sidebar in the learner's language, and the
page keeps working without saving.

Attempts go through one `AttemptWriter` per store: put in this server's spool on disk (fsynced),
then written in order by its thread and retried while the database is busy or down; a server
restarted after a crash writes what its spool holds (the writer is made with the store, so it
starts at once).

Below the profile and the sign-in (`app_pages.widgets.auth`, `app_pages.widgets.current_profile`), which
open the store through here: this module knows no profile.
"""

from __future__ import annotations

import os

import streamlit as st

from app_pages.state import lang
from app_pages.widgets import resources
from tutor.store import (
    ENV_URL,
    AttemptWriter,
    ProgressStore,
    Spool,
    StoreUnavailable,
    database_tag,
    spool_dir_for,
)


@st.cache_resource(show_spinner=False)
def _attempt_writer(url: str | None) -> AttemptWriter:
    # One writer per store (`url` keys the cache): the sessions never compete for the write lock.
    # Made, it first writes what a crashed server left in this store's spool.
    db = resources.progress_store()
    return AttemptWriter(db, spool=Spool(spool_dir_for(db.url), database=database_tag(db.url)))


def attempt_writer() -> AttemptWriter | None:
    """The server's attempt writer (None while the store cannot be opened)."""
    try:
        return _attempt_writer(os.environ.get(ENV_URL))
    except StoreUnavailable:
        return None


def store() -> ProgressStore | None:
    """The shared store, or None (with the reason in the sidebar) when it cannot be opened."""
    try:
        db = resources.progress_store()
    except StoreUnavailable as exc:
        st.sidebar.error(exc.message(lang()), icon=":material/database:")
        return None
    attempt_writer()  # with the store: a spool left by a crash is written at once
    return db
