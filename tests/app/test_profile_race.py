"""Many learners opening a fresh server at once: each gets the default profile and can save."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _first_visit_loses_the_race():
    import os

    import streamlit as st

    from app_pages.state import tr
    from app_pages.widgets import progress
    from tutor.store import ProgressStore

    db = ProgressStore.open(os.environ["RACE_DATABASE_URL"])
    listed = db.list_profiles

    def list_profiles():
        # Another tab's first visit creates the default profile between our look and our create.
        if not listed():
            db.create_profile(tr("profile.default_name"))
            return []
        return listed()

    db.list_profiles = list_profiles
    chosen = progress.current_profile(db)
    st.text(chosen.name if chosen is not None else "no profile")


def test_a_visit_that_loses_the_race_for_the_default_profile_still_gets_it(tmp_path, monkeypatch):
    monkeypatch.setenv("RACE_DATABASE_URL", f"sqlite:///{tmp_path / 'progress.db'}")
    at = AppTest.from_function(_first_visit_loses_the_race, default_timeout=60).run()
    assert not at.exception
    assert not at.sidebar.error, [e.value for e in at.sidebar.error]
    assert at.text[0].value == "我的档案"  # the default profile, in the default language
