"""Deleting a learner's data (issue 28): everything they own goes, one record says it happened,
and the retention period removes exactly the learners idle longer than it. Counts are checked
against what the test wrote, by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from grader import Verdict
from tutor.learner_data import main as learner_data
from tutor.learner_data import retention_period
from tutor.store import NewAttempt, ProfileError
from tutor.store.deletions import Reason, delete_learner, deletion_log, purge_inactive
from tutor.store.identities import Seen, profile_for_identity
from tutor.store.schema import attempts, cards, deletions, drafts, identities, profiles, settings
from tutor.store.scratch import save_scratch

from .conftest import T0

DAY = timedelta(days=1)


def _rows(store, table, profile_id):
    column = table.c.id if table is profiles else table.c.profile_id
    return store.read(lambda conn: conn.execute(
        select(func.count()).select_from(table).where(column == profile_id)).scalar_one())


def _answer(store, profile_id, question_id, when):
    store.record_attempt(profile_id, NewAttempt(question_id, Verdict.CORRECT, score=1.0), now=when)


def test_a_deletion_removes_everything_the_learner_owns_and_records_it(store):
    ada = profile_for_identity(store, "https://idp.test", "ada-sub", "Ada", now=T0)
    bo = store.create_profile("Bo")
    for k in range(3):
        _answer(store, ada.id, f"q{k}", T0 + k * DAY)
    _answer(store, bo.id, "q0", T0)
    store.set_setting(ada.id, "lang", "zh")
    save_scratch(store, ada.id, "practice:q9", "half an answer", now=T0)

    done = delete_learner(store, ada.id, by="instructor #7 Lee", now=T0 + 5 * DAY)

    assert (done.profile_id, done.attempts, done.reason) == (ada.id, 3, Reason.REQUEST)
    for table in (profiles, attempts, cards, settings, drafts, identities):
        assert _rows(store, table, ada.id) == 0, table.name
    assert _rows(store, attempts, bo.id) == 1  # nobody else's
    assert deletion_log(store) == [done]
    assert done.deleted_at == T0 + 5 * DAY and done.deleted_by == "instructor #7 Lee"
    # The same person signing in again starts afresh, in a new profile
    again = profile_for_identity(store, "https://idp.test", "ada-sub", "Ada")
    assert again.id != ada.id and store.count_attempts(again.id) == 0


def test_deleting_twice_records_once(store):
    ada = store.create_profile("Ada")
    delete_learner(store, ada.id, by="operator root")
    with pytest.raises(ProfileError):
        delete_learner(store, ada.id, by="operator root")
    assert len(deletion_log(store)) == 1


def test_the_retention_period_removes_only_learners_idle_longer_than_it(store):
    now = T0 + 400 * DAY
    old = store.create_profile("Old", now=T0)  # made, then nothing for 400 days
    answered = store.create_profile("Answered", now=T0)
    _answer(store, answered.id, "q1", now - 100 * DAY)  # idle 100 days
    drafted = store.create_profile("Drafted", now=T0)
    save_scratch(store, drafted.id, "practice:q1", "x", now=now - 10 * DAY)
    new = store.create_profile("New", now=now - 2 * DAY)
    boundary = store.create_profile("Boundary", now=now - 365 * DAY)  # exactly the period: goes

    done = purge_inactive(store, timedelta(days=365), by="retention 365d", now=now)

    assert sorted(d.profile_id for d in done) == sorted([old.id, boundary.id])
    assert {p.id for p in store.list_profiles()} == {answered.id, drafted.id, new.id}
    assert all(d.reason is Reason.RETENTION for d in done)
    assert purge_inactive(store, timedelta(days=365), by="retention", now=now) == []
    with pytest.raises(ValueError):
        purge_inactive(store, timedelta(0), by="retention", now=now)


@pytest.mark.parametrize(("raw", "days"), [(None, None), ("", None), ("365", 365), ("0.5", 0.5)])
def test_the_retention_setting(raw, days):
    assert retention_period(raw) == (None if days is None else timedelta(days=days))


@pytest.mark.parametrize("raw", ["0", "-3", "a year", "inf", "nan"])
def test_a_bad_retention_setting_is_refused(raw):
    with pytest.raises(ValueError, match="TUTOR_RETENTION_DAYS"):
        retention_period(raw)


def test_the_operator_command(store, store_url, monkeypatch, capsys):
    ada = store.create_profile("Ada")
    _answer(store, ada.id, "q1", T0)
    monkeypatch.setenv("TUTOR_DATABASE_URL", store_url)

    assert learner_data(["export", str(ada.id)]) == 0
    assert '"question_id": "q1"' in capsys.readouterr().out
    assert learner_data(["delete", str(ada.id)]) == 0  # no --yes: only says what it would do
    assert "would delete" in capsys.readouterr().out and store.count_attempts(ada.id) == 1
    assert learner_data(["--by", "J. Smith", "delete", str(ada.id), "--yes"]) == 0
    assert store.list_profiles() == []
    assert learner_data(["deletions"]) == 0
    assert "operator J. Smith" in capsys.readouterr().out
    assert learner_data(["delete", str(ada.id), "--yes"]) == 1  # gone: said, not recorded again
    assert store.read(lambda c: c.execute(select(func.count()).select_from(deletions))
                      .scalar_one()) == 1


def test_the_operator_command_never_opens_a_default_database(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert learner_data(["list"]) == 2
    assert "TUTOR_DATABASE_URL" in capsys.readouterr().err
    assert not any(tmp_path.rglob("*.db"))


def test_an_instructor_is_recorded_as_one_and_can_change(store):
    lee = profile_for_identity(store, "https://idp.test", "lee", "Lee",
                               seen=Seen(instructor=True, email_local="lee"))
    row = store.read(lambda c: c.execute(select(identities.c.instructor, identities.c.email_local)
                                         .where(identities.c.profile_id == lee.id)).one())
    assert tuple(row) == (True, "lee")
    profile_for_identity(store, "https://idp.test", "lee", "Lee", seen=Seen())  # no longer
    row = store.read(lambda c: c.execute(select(identities.c.instructor, identities.c.email_local)
                                         .where(identities.c.profile_id == lee.id)).one())
    assert tuple(row) == (False, None)
