"""Dashboard frames against hand-worked numbers and against plain-Python recounts."""

from __future__ import annotations

import math
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import Verdict
from tutor.dashboard import (
    calibration,
    daily_activity,
    dashboard_data,
    date_format,
    due_summary,
    mastery_by_topic,
    reviews_due,
)
from tutor.review import CardState
from tutor.store import NewAttempt
from tutor.store.records import AttemptRecord

from .conftest import T0  # 2026-03-01 09:00 UTC


def _attempt(i, qid, verdict, *, hours=0.0, confidence=None, phase="first"):
    return AttemptRecord(
        id=i, profile_id=1, question_id=qid, seed=None, answer="", verdict=Verdict(verdict),
        score=float(verdict == "correct"), hints_used=0, seconds=1.0, confidence=confidence,
        rubric_ticks=(), rating=None, mode="practice", created_at=T0 + timedelta(hours=hours),
        phase=phase,
    )


HISTORY = [
    _attempt(1, "a", "wrong", hours=0, confidence=3),
    _attempt(2, "a", "correct", hours=1, confidence=3),
    _attempt(3, "b", "unreadable", hours=2),  # a row from before unreadable answers stopped
    _attempt(8, "b", "correct", hours=2.5, confidence=3, phase="retry"),  # history only
    _attempt(9, "c", "correct", hours=2.6, confidence=3, phase="after_reveal"),  # practice
    _attempt(4, "b", "partial", hours=3, confidence=2),
    _attempt(5, "c", "correct", hours=24, confidence=1),
    _attempt(6, "a", "wrong", hours=25, confidence=3),
    _attempt(7, "gone", "correct", hours=26, confidence=3),
]
TOPIC_OF = {"a": "jacobian", "b": "jacobian", "c": "dropout", "d": "dropout", "e": "lstm"}


def test_daily_activity_by_hand():
    daily = daily_activity(HISTORY)
    assert [d.day for d in daily["day"]] == [1, 2]
    assert daily["attempts"].tolist() == [3, 3]
    assert daily["graded"].tolist() == [3, 3]
    assert daily["correct"].tolist() == [1, 2]
    assert daily["accuracy"].tolist() == [1 / 3, 2 / 3]


def test_days_follow_the_learners_time_zone():
    # 14:00, 15:00, 16:00 UTC on 1 March are 22:00, 23:00 (1 March) and 00:00 (2 March) at UTC+8.
    beijing = timezone(timedelta(hours=8))
    late = [_attempt(i, "a", "correct", hours=h) for i, h in enumerate([5, 6, 7])]
    assert daily_activity(late, tz=UTC)["attempts"].tolist() == [3]
    assert daily_activity(late, tz=beijing)["attempts"].tolist() == [2, 1]


def test_mastery_by_topic_by_hand():
    mastery = mastery_by_topic(HISTORY, TOPIC_OF).set_index("topic")
    assert mastery.loc["jacobian", ["questions", "seen", "mastered", "attempts"]].tolist() == [2, 2, 0, 4]
    assert mastery.loc["jacobian", "accuracy"] == 1 / 4  # latest "a" is wrong, "b" is partial
    assert mastery.loc["dropout", ["questions", "seen", "mastered", "attempts"]].tolist() == [2, 1, 1, 1]
    assert mastery.loc["dropout", "mastery"] == 0.5
    assert mastery.loc["lstm", "attempts"] == 0 and math.isnan(mastery.loc["lstm", "accuracy"])
    assert mastery.loc["lstm", "mastery"] == 0.0


def test_calibration_by_hand():
    table = calibration(HISTORY)
    assert table["confidence"].tolist() == [1, 2, 3]
    assert table["attempts"].tolist() == [1, 1, 4]
    assert table["correct"].tolist() == [1, 0, 2]
    assert table["accuracy"].tolist() == [1.0, 0.0, 0.5]


def _card(qid, due):
    return CardState(qid, 2, None, 1.0, 5.0, due, None)


def test_reviews_due_by_day():
    now = T0  # 09:00
    cards = [
        _card("overdue", now - timedelta(days=3)),
        _card("later-today", now + timedelta(hours=10)),
        _card("tomorrow", now + timedelta(hours=16)),
        _card("in-a-week", now + timedelta(days=7)),
        _card("far", now + timedelta(days=30)),
    ]
    due = reviews_due(cards, now)
    assert len(due) == 8 and due["due"].tolist() == [2, 1, 0, 0, 0, 0, 0, 1]
    assert due["day"].iloc[0].day == 1
    assert due_summary(cards, now) == {"now": 1, "today": 2, "next_7_days": 4}


_records = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(["correct", "partial", "wrong", "unreadable"]),
        st.integers(min_value=0, max_value=24 * 10),
        st.one_of(st.none(), st.sampled_from([1, 2, 3])),
        st.sampled_from(["first", "first", "retry", "after_reveal"]),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(_records)
def test_frames_agree_with_a_plain_recount(rows):
    history = [_attempt(i, q, v, hours=h, confidence=c, phase=p)
               for i, (q, v, h, c, p) in enumerate(rows)]
    counted = [(q, v, h, c) for q, v, h, c, p in rows if p == "first" and v != "unreadable"]
    daily = daily_activity(history)
    per_day = Counter((T0 + timedelta(hours=h)).date() for _, _, h, _ in counted)
    assert dict(zip([d.date() for d in daily["day"]], daily["attempts"], strict=True)) == per_day
    assert daily["attempts"].sum() == len(counted)
    table = calibration(history)
    for level in (1, 2, 3):
        graded = [v for _, v, _, c in counted if c == level]
        row = table[table["confidence"] == level].iloc[0]
        assert row["attempts"] == len(graded) and row["correct"] == graded.count("correct")


def test_dashboard_data_from_the_store(store, profile):
    store.record_attempt(profile.id, NewAttempt("a", Verdict.CORRECT, score=1.0, confidence=3), now=T0)
    store.record_attempt(profile.id, NewAttempt("c", Verdict.WRONG, confidence=1), now=T0)
    # the schedule counts in days: the wrong one is due tomorrow, the right one in two days
    data = dashboard_data(store, profile.id, TOPIC_OF, T0 + timedelta(days=1, hours=1))
    assert data.daily["attempts"].tolist() == [2]
    assert data.mastery.set_index("topic").loc["jacobian", "mastered"] == 1
    assert data.due_counts["now"] == 1 and data.due["due"].iloc[0] == 1
    assert data.due_counts["next_7_days"] == 2
    assert data.calibration["attempts"].tolist() == [1, 0, 1]


@pytest.mark.parametrize(("years", "now_year", "pattern"), [
    ((2026, 2026), 2026, "%m-%d"),  # all in this year: month-day
    ((2025, 2025), 2026, "%Y-%m-%d"),  # one earlier year, all rows alike: still the year
    ((2025, 2026), 2026, "%Y-%m-%d"),
    ((), 2026, "%m-%d"),
])
def test_dates_show_the_year_unless_all_are_in_this_year(years, now_year, pattern):
    moments = [datetime(y, 1, 19, 1, 19, tzinfo=UTC) for y in years]
    now = datetime(now_year, 6, 1, tzinfo=UTC)
    assert date_format(moments, now=now) == pattern
    assert date_format(moments, now=now, time=True) == f"{pattern} %H:%M"
