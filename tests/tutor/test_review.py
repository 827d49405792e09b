"""FSRS card scheduling and the review order, as pure functions."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from fsrs import Rating
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader import Verdict
from tutor.review import CardState, new_card, order_queue, queue_sort_key, schedule
from tutor.store import NewAttempt

from .conftest import T0


def test_a_new_card_is_due_now_and_each_rating_moves_it_on():
    card = new_card("q", T0)
    assert card.is_due(T0) and card.reps == 0
    dues = {r: schedule(card, r, T0).due for r in (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy)}
    assert T0 < dues[Rating.Again] <= dues[Rating.Hard] <= dues[Rating.Good] < dues[Rating.Easy]


def test_schedule_is_deterministic_and_counts_lapses():
    card = new_card("q", T0)
    for day in range(4):
        card = schedule(card, Rating.Good, T0 + timedelta(days=day * 5))
    again = schedule(card, Rating.Again, T0 + timedelta(days=30), confidence=3)
    assert again == schedule(card, Rating.Again, T0 + timedelta(days=30), confidence=3)
    assert (again.reps, again.lapses, again.last_rating) == (5, 1, Rating.Again)
    assert again.high_confidence_error and again.due < card.due + timedelta(days=30)


def test_naive_times_are_refused():
    with pytest.raises(ValueError, match="naive"):
        new_card("q", T0.replace(tzinfo=None))


def _card(qid: str, due_days: float, rating: int, confidence: int | None) -> CardState:
    return CardState(qid, 2, None, 3.0, 5.0, T0 + timedelta(days=due_days), T0, 1, 0, rating, confidence)


def test_order_queue_examples():
    cards = [
        _card("future", 5, 3, 3),
        _card("overdue-good", -3, 3, 3),
        _card("recent-sure-wrong", -0.1, 1, 3),
        _card("old-unsure-wrong", -9, 1, 1),
        _card("older-sure-wrong", -1, 1, 3),
    ]
    assert [c.question_id for c in order_queue(cards, T0)] == [
        "older-sure-wrong", "recent-sure-wrong", "old-unsure-wrong", "overdue-good",
    ]
    assert [c.question_id for c in order_queue(cards, T0, limit=2)] == [
        "older-sure-wrong", "recent-sure-wrong",
    ]


@st.composite
def _histories(draw):
    steps = draw(st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", "d", "e"]),
            st.sampled_from(["correct", "wrong", "partial"]),
            st.one_of(st.none(), st.sampled_from([1, 2, 3])),
            st.integers(min_value=0, max_value=60 * 24 * 20),
        ),
        min_size=1, max_size=12,
    ))
    return steps


# One store for all examples on purpose: each example works in a profile of its own.
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=_histories(), look_ahead_minutes=st.integers(min_value=0, max_value=60 * 24 * 40))
def test_the_store_queue_matches_the_pure_order(store, history, look_ahead_minutes):
    profile = store.create_profile(f"p{len(store.list_profiles())}")
    moment = T0
    for qid, verdict, confidence, gap in history:
        moment += timedelta(minutes=gap)
        attempt = NewAttempt(qid, Verdict(verdict), score=float(verdict == "correct"), confidence=confidence)
        store.record_attempt(profile.id, attempt, now=moment)
    now = (moment + timedelta(minutes=look_ahead_minutes)).astimezone(UTC)
    from_store = store.review_queue(profile.id, now)
    assert from_store == order_queue(store.list_cards(profile.id), now)
    assert from_store == sorted(from_store, key=queue_sort_key)
