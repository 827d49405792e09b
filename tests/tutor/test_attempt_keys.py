"""Attempt keys: a retried or replayed attempt is written once; a late one is put in its place
in time (the card ends as if every attempt had been written in time order)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from grader import Verdict
from tests.tutor.conftest import T0
from tutor.store import NewAttempt, ProgressStore


def test_an_attempt_recorded_twice_under_one_key_is_stored_once(store, profile):
    attempt = NewAttempt("q1", Verdict.CORRECT, score=1.0, key="k-1")
    first = store.record_attempt(profile.id, attempt, now=T0)
    again = store.record_attempt(profile.id, attempt, now=T0 + timedelta(minutes=5))
    assert again.id == first.id and again.key == "k-1"
    assert store.count_attempts(profile.id) == 1
    [card] = store.list_cards(profile.id)
    assert card.reps == 1 and card.last_review == T0  # the second write moved nothing


def test_attempts_without_keys_are_all_stored(store, profile):
    for n in range(3):
        store.record_attempt(profile.id, NewAttempt("q1", Verdict.WRONG, phase="retry"),
                             now=T0 + timedelta(seconds=n))
    assert store.count_attempts(profile.id) == 3


def test_a_key_of_another_profile_is_refused(store, profile):
    other = store.create_profile("Bo")
    store.record_attempt(profile.id, NewAttempt("q1", Verdict.CORRECT, score=1.0, key="k-1"), now=T0)
    with pytest.raises(ValueError, match="another profile"):
        store.record_attempt(other.id, NewAttempt("q1", Verdict.CORRECT, score=1.0, key="k-1"), now=T0)
    assert store.count_attempts(other.id) == 0


def test_a_malformed_key_is_refused():
    assert NewAttempt("q1", Verdict.CORRECT, key="").problems() == ["key must be text of 1..64 characters"]
    assert NewAttempt("q1", Verdict.CORRECT, key="x" * 65).problems()


DAY = timedelta(days=1)
# (question, verdict, moment): q1 reviewed four times, each when it is due again, q2 once in
# between. (A late review that would turn a later one into practice, or practice into a review,
# is not re-decided: the later rows keep the phase they were given. tutor/README.md, "Late".)
HISTORY = [("q1", "wrong", T0), ("q1", "correct", T0 + 2 * DAY), ("q2", "correct", T0 + 3 * DAY),
           ("q1", "correct", T0 + 40 * DAY), ("q1", "wrong", T0 + 400 * DAY)]


def _record(store, pid, entries):
    for qid, verdict, moment in entries:
        score = 1.0 if verdict == "correct" else 0.0
        store.record_attempt(pid, NewAttempt(qid, Verdict(verdict), score=score, confidence=2,
                                             key=f"{qid}@{moment.isoformat()}"), now=moment)


@pytest.mark.parametrize("late", [0, 1, 3])
def test_a_late_attempt_moves_the_card_as_if_written_in_time_order(store_url, tmp_path, late):
    # The reference: the same reviews written in time order into a database of its own.
    reference = ProgressStore.open(f"sqlite:///{tmp_path / 'reference.db'}")
    ref = reference.create_profile("Ada")
    _record(reference, ref.id, HISTORY)
    assert all(a.counted for a in reference.list_attempts(ref.id))  # each was due: each counts
    store = ProgressStore.open(store_url)
    ada = store.create_profile("Ada")
    # One review arrives after the later ones (a replica's spool replayed late).
    _record(store, ada.id, [h for n, h in enumerate(HISTORY) if n != late])
    _record(store, ada.id, [HISTORY[late]])
    assert store.list_cards(ada.id) == reference.list_cards(ref.id)
    # The chain of cards before each review is the reference's too: the last review can still
    # have its rating changed, from the card as it was before it.
    last = store.list_attempts(ada.id)[-1]
    store.record_attempt(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0, key="q1-last"),
                         now=T0 + 800 * DAY)
    ref_last = reference.record_attempt(ref.id, NewAttempt("q1", Verdict.CORRECT, score=1.0),
                                        now=T0 + 800 * DAY)
    ours = store.list_attempts(ada.id)[-1]
    assert last.question_id == "q1"
    assert store.change_rating(ada.id, ours.id, 4) == reference.change_rating(ref.id, ref_last.id, 4)
    store.close()
    reference.close()
