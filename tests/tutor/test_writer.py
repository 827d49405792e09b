"""AttemptWriter: every submitted attempt lands, in order, even while the database is busy."""

from __future__ import annotations

import sqlite3
import threading
from datetime import timedelta

import pytest

from grader import Verdict
from tests.tutor.conftest import T0
from tutor.store import AttemptWriter, NewAttempt, ProfileError, ProgressStore, StoreUnavailable


def _sqlite_url(path) -> str:
    return f"sqlite:///{path}"


def test_submitted_attempts_are_stored_in_order_with_their_own_time(store, profile):
    writer = AttemptWriter(store)
    futures = [writer.submit(profile.id, NewAttempt(f"q{n}", Verdict.CORRECT, score=1.0),
                             now=T0 + timedelta(seconds=n)) for n in range(20)]
    records = [f.result(timeout=30) for f in futures]
    assert [r.question_id for r in records] == [f"q{n}" for n in range(20)]
    stored = store.list_attempts(profile.id)
    assert [a.question_id for a in stored] == [f"q{n}" for n in range(20)]
    assert [a.created_at for a in stored] == [T0 + timedelta(seconds=n) for n in range(20)]


def test_many_threads_submitting_at_once_lose_nothing(store, profile):
    writer = AttemptWriter(store)
    futures, lock = [], threading.Lock()

    def learner(n: int) -> None:
        for k in range(25):
            f = writer.submit(profile.id, NewAttempt(f"t{n}-{k}", Verdict.WRONG), now=T0)
            with lock:
                futures.append(f)

    threads = [threading.Thread(target=learner, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert writer.flush(timeout=60)
    assert all(f.done() and f.exception() is None for f in futures)
    assert store.count_attempts(profile.id) == 200


def test_a_write_waits_out_a_busy_database_and_then_lands(tmp_path):
    path = tmp_path / "progress.db"
    # A short busy timeout and one try per write: "busy" reaches the writer at once.
    store = ProgressStore.open(_sqlite_url(path), busy_timeout_ms=20, retries=1)
    ada = store.create_profile("Ada")
    writer = AttemptWriter(store, first_delay=0.01, max_delay=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        pending = writer.submit(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
        with pytest.raises(TimeoutError):
            pending.result(timeout=0.5)
        assert writer.retries > 0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert pending.result(timeout=30).question_id == "q1"
    assert store.count_attempts(ada.id) == 1
    store.close()


def test_the_busy_database_does_fail_a_plain_write(tmp_path):
    # What the writer protects against: the same write without it is refused as "locked".
    path = tmp_path / "progress.db"
    store = ProgressStore.open(_sqlite_url(path), busy_timeout_ms=20, retries=1)
    ada = store.create_profile("Ada")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store.record_attempt(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
        assert caught.value.code == "locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.close()


@pytest.mark.parametrize(("profile_id", "attempt", "error"), [
    (10_000, NewAttempt("q1", Verdict.CORRECT, score=1.0), ProfileError),  # no such profile
    (None, NewAttempt("q1", "maybe"), ValueError),  # malformed attempt (profile filled below)
])
def test_a_refused_attempt_fails_its_future_and_the_next_one_lands(store, profile, profile_id,
                                                                   attempt, error):
    writer = AttemptWriter(store)
    refused = writer.submit(profile.id if profile_id is None else profile_id, attempt, now=T0)
    fine = writer.submit(profile.id, NewAttempt("q2", Verdict.WRONG), now=T0)
    with pytest.raises(error):
        refused.result(timeout=30)
    assert fine.result(timeout=30).question_id == "q2"
    assert [a.question_id for a in store.list_attempts(profile.id)] == ["q2"]


def test_flush_reports_a_queue_that_does_not_drain(tmp_path):
    path = tmp_path / "progress.db"
    store = ProgressStore.open(_sqlite_url(path), busy_timeout_ms=20, retries=1)
    ada = store.create_profile("Ada")
    writer = AttemptWriter(store, first_delay=0.01, max_delay=0.02)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        writer.submit(ada.id, NewAttempt("q1", Verdict.WRONG), now=T0)
        assert writer.flush(timeout=0.3) is False
        assert writer.pending() == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert writer.flush(timeout=30) is True
    assert writer.pending() == 0
    store.close()
