"""What a class sees while the database is away (issue 28), in both languages: the Dashboard says
the database is not answering (not "pick a profile in the sidebar": a class has no picker), and
a learner whose sign-in could not be bound to her profile is told above every page that her
answers are not being recorded."""

from __future__ import annotations

import pytest

from tests.app.test_class_mode import ADA, shell
from tutor.i18n import t
from tutor.store import StoreUnavailable


def _away(*_args, **_kwargs):
    raise StoreUnavailable("unreachable")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dashboard_says_the_database_is_not_answering(store, monkeypatch, lang):
    at = shell(ADA, "dashboard", lang=lang)  # signed in and vouched for while it answered
    assert not at.main.error
    monkeypatch.setattr("app_pages.widgets.resources.progress_store", _away)
    at.run()
    assert [e.value for e in at.main.error] == [t("dashboard.database_unreachable", lang)]
    shown = " ".join(i.value for i in at.info)
    assert t("practice.no_profile", lang) not in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_learner_whose_profile_cannot_be_found_is_told_answers_are_not_recorded(
        store, monkeypatch, lang):
    monkeypatch.setattr("tutor.store.identities.profile_for_identity", _away)
    at = shell(ADA, "practice", lang=lang)
    assert at.session_state["profile_id"] is None
    assert t("account.not_recorded", lang) in [w.value for w in at.warning]
    monkeypatch.undo()  # the database answers again: the warning goes
    at.run()
    assert at.session_state["profile_id"] is not None
    assert t("account.not_recorded", lang) not in [w.value for w in at.warning]
