"""Item analytics against an independent, slow computation (one question and one learner at a
time, point-biserial by its textbook form (M1 - M0) / s * sqrt(p q)), and on a real store, with
the verdicts as the store writes them (`grader.Verdict`) and as migrations left old rows."""

from __future__ import annotations

import math
import statistics
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine

from grader import Verdict
from tutor.analytics import MIN_LEARNERS, item_statistics
from tutor.attempt_table import AttemptTable, read_answers, read_attempt_table
from tutor.store import NewAttempt, ProgressStore

from . import first_schema as v1
from .conftest import T0
from .test_migrations import NAIVE_T0, _as_the_numbered_migrations_left_it

VERDICTS = [v.value for v in Verdict]
GRADED = {Verdict.CORRECT.value, Verdict.PARTIAL.value, Verdict.WRONG.value}


def table_of(rows):
    """rows: (learner, question, verdict[, hints, seconds, revealed])."""
    full = [(*r, *(0, 10.0, False)[len(r) - 3:]) for r in rows]
    return AttemptTable.from_rows(full)


def slow_statistics(rows):
    """The definitions in tutor/analytics.py, written the long way."""
    first: dict[tuple[int, str], tuple] = {}
    for row in rows:
        learner, question, verdict = row[:3]
        if verdict in GRADED and (learner, question) not in first:
            first[(learner, question)] = row
    questions = sorted({q for _, q, *_ in rows})
    result = {}
    for q in questions:
        mine = {lr: r for (lr, qq), r in first.items() if qq == q}
        xs, ys = [], []
        for learner, row in mine.items():
            elsewhere = [r for (lr, qq), r in first.items() if lr == learner and qq != q]
            if elsewhere:
                xs.append(float(row[2] == "correct"))
                ys.append(sum(r[2] == "correct" for r in elsewhere) / len(elsewhere))
        r = math.nan
        if len(xs) >= MIN_LEARNERS and 0 < sum(xs) < len(xs) and statistics.pstdev(ys) > 0:
            p = sum(xs) / len(xs)
            m1 = statistics.mean(y for x, y in zip(xs, ys, strict=True) if x == 1)
            m0 = statistics.mean(y for x, y in zip(xs, ys, strict=True) if x == 0)
            r = (m1 - m0) / statistics.pstdev(ys) * math.sqrt(p * (1 - p))
        reveals = {r[0] for r in rows if r[1] == q and len(r) > 5 and r[5]}
        result[q] = {
            "learners": len(mine),
            "first_try_correct": (sum(r[2] == "correct" for r in mine.values()) / len(mine)
                                  if mine else math.nan),
            "discrimination": r,
            "reveal_rate": len(reveals) / len(mine) if mine else math.nan,
        }
    return result


def close(a, b):
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


rows_strategy = st.lists(
    st.tuples(st.integers(0, 12), st.sampled_from(["q-a", "q-b", "q-c", "q-d"]),
              st.sampled_from(VERDICTS), st.integers(0, 2), st.floats(0, 300), st.booleans()),
    max_size=150)


@settings(max_examples=150, deadline=None)
@given(rows_strategy)
def test_matches_the_slow_definition(rows):
    frame = item_statistics(AttemptTable.from_rows(rows)).set_index("question")
    expected = slow_statistics(rows)
    assert set(frame.index) == set(expected)
    for q, values in expected.items():
        for column, value in values.items():
            assert close(float(frame.loc[q, column]), value), (q, column)


def test_a_worked_example():
    # Five learners; strong learners (0-2) get q-hard right, weak ones (3-4) do not.
    rows = []
    for learner, skill in enumerate([1.0, 1.0, 0.8, 0.2, 0.0]):
        for k in range(5):
            rows.append((learner, f"q-{k}", "correct" if k < skill * 5 else "wrong"))
        rows.append((learner, "q-hard", "correct" if learner < 3 else "wrong"))
        rows.append((learner, "q-upside", "wrong" if learner < 3 else "correct"))
        rows.append((learner, "q-nobody", "unreadable"))  # unreadable first: not a try
        rows.append((learner, "q-nobody", "wrong"))
        rows.append((learner, "q-all", "correct"))
    frame = item_statistics(table_of(rows)).set_index("question")
    assert frame.loc["q-hard", "first_try_correct"] == pytest.approx(0.6)
    assert frame.loc["q-hard", "discrimination"] > 0.5
    assert frame.loc["q-upside", "discrimination"] < -0.5
    assert frame.loc["q-upside", "flags"] == ("negative_discrimination",)
    assert frame.loc["q-nobody", "flags"] == ("nobody_right",)
    assert frame.loc["q-nobody", "attempts"] == 10
    assert frame.loc["q-all", "flags"] == ("everybody_right",)
    assert math.isnan(frame.loc["q-all", "discrimination"])  # x is constant


def test_few_learners_give_no_discrimination_and_no_flags():
    rows = [(k, "q", "wrong") for k in range(MIN_LEARNERS - 1)]
    rows += [(k, "other", "correct" if k % 2 else "wrong") for k in range(MIN_LEARNERS - 1)]
    frame = item_statistics(table_of(rows)).set_index("question")
    assert math.isnan(frame.loc["q", "discrimination"]) and frame.loc["q", "flags"] == ()


def test_time_hints_and_reveals_come_from_first_tries():
    rows = [(1, "q", "wrong", 2, 30.0, False), (1, "q", "correct", 0, 5.0, False),
            (2, "q", "correct", 0, 50.0, False), (3, "q", "wrong", 0, 70.0, True),
            (3, "q", "wrong", 0, 1.0, True)]
    row = item_statistics(AttemptTable.from_rows(rows)).iloc[0]
    assert row["median_seconds"] == 50.0
    assert row["hint_rate"] == pytest.approx(1 / 3)
    assert row["reveal_rate"] == pytest.approx(1 / 3)


def test_an_empty_store_gives_an_empty_table():
    assert item_statistics(AttemptTable.from_rows([])).empty


def test_reads_every_profile_from_the_store(tmp_path):
    store = ProgressStore.open(f"sqlite:///{tmp_path / 'p.db'}")
    now = datetime(2026, 5, 1, tzinfo=UTC)
    ada, bo = store.create_profile("Ada"), store.create_profile("Bo")
    store.record_attempt(ada.id, NewAttempt("q", Verdict.WRONG, answer="W g", seconds=3.0), now=now)
    store.record_attempt(bo.id, NewAttempt("q", Verdict.WRONG, answer=""), now=now)
    store.record_attempt(ada.id, NewAttempt("q", Verdict.CORRECT, score=1.0, answer="(I+W)^T g",
                                            hints_used=1), now=now + timedelta(minutes=1))
    table = read_attempt_table(store)
    assert list(table.learner) == [ada.id, bo.id, ada.id]
    assert list(table.revealed) == [False, True, False]
    assert list(table.hints) == [0, 0, 1]
    answers = read_answers(store, "q")
    assert [(a.answer, a.verdict) for a in answers] == [("W g", "wrong"), ("(I+W)^T g", "correct")]
    store.close()


def test_unreadable_rows_left_by_the_migration_are_not_first_tries(store_url):
    # Schema 2 stored an unreadable answer as "error"; migration 0003 renamed it "unreadable".
    # Learner 1's first answer to q was unreadable, then right: their first try is the right one.
    engine = create_engine(store_url)
    with engine.begin() as conn:
        _as_the_numbered_migrations_left_it(conn, 2)
        # no explicit id: PostgreSQL's sequence would not move past it, and Bo's insert below
        # would collide with it
        ada = conn.execute(v1.profiles.insert().values(name="Ada", created_at=NAIVE_T0)
                           ).inserted_primary_key[0]
        conn.execute(v1.attempts.insert(), [{
            "profile_id": ada, "question_id": "q", "seed": None, "answer": "oops(",
            "verdict": "error", "score": 0.0, "hints_used": 0, "seconds": 1.0, "confidence": None,
            "rubric_ticks": None, "rating": None, "created_at": NAIVE_T0}])
    engine.dispose()
    store = ProgressStore.open(store_url)
    later = T0 + timedelta(minutes=1)
    store.record_attempt(ada, NewAttempt("q", Verdict.CORRECT, score=1.0, answer="(I+W)^T g"),
                         now=later)
    bo = store.create_profile("Bo")
    store.record_attempt(bo.id, NewAttempt("q", Verdict.WRONG, answer="W g"), now=later)
    store.record_attempt(bo.id, NewAttempt("q", Verdict.CORRECT, score=1.0, answer="(I+W)^T g",
                                           phase="retry"), now=later + timedelta(minutes=1))
    table = read_attempt_table(store)
    store.close()
    assert sorted(set(table.verdict)) == ["correct", "unreadable", "wrong"]
    row = item_statistics(table).set_index("question").loc["q"]
    assert row["learners"] == 2 and row["attempts"] == 4
    assert row["first_try_correct"] == pytest.approx(0.5)  # Ada right, Bo wrong


def test_order_of_rows_decides_the_first_try():
    rows = [(1, "q", "wrong"), (1, "q", "correct")]
    assert item_statistics(table_of(rows)).iloc[0]["first_try_correct"] == 0
    rows.reverse()
    assert item_statistics(table_of(rows)).iloc[0]["first_try_correct"] == 1
    assert np.all(item_statistics(table_of(rows))["learners"] == 1)


def test_imported_attempts_are_left_out_of_the_statistics(tmp_path):
    from tutor.attempt_table import store_version
    from tutor.transfer import export_json, import_json

    store = ProgressStore.open(f"sqlite:///{tmp_path / 'p.db'}")
    now = datetime(2026, 5, 1, tzinfo=UTC)
    ada, forger = store.create_profile("Ada"), store.create_profile("Mallory")
    store.record_attempt(ada.id, NewAttempt("q", Verdict.WRONG, answer="W g"), now=now)
    store.record_attempt(forger.id, NewAttempt("q", Verdict.WRONG, answer="I g"), now=now)
    answered = store_version(store)
    forged = {"format": "residual-tutor-progress", "format_version": 1,
              "exported_at": now.isoformat(), "profile": {"name": "x", "created_at": now.isoformat()},
              "settings": {}, "cards": [],
              "attempts": [{"question_id": "q", "seed": None, "answer": f"forged {k}",
                            "verdict": "correct" if k else "wrong", "score": float(k > 0),
                            "hints_used": 0, "seconds": 1.0, "confidence": None,
                            "rubric_ticks": [], "rating": None, "mode": "practice",
                            "phase": "first",
                            "created_at": (now - timedelta(days=1, minutes=k)).isoformat()}
                           for k in range(30)]}
    import json

    import_json(store, json.dumps(forged), into_profile_id=forger.id, now=now)
    import_json(store, export_json(store, ada.id, now=now), into_profile_id=forger.id, now=now)
    table = read_attempt_table(store)
    assert list(table.learner) == [ada.id, forger.id] and list(table.verdict) == ["wrong"] * 2
    assert [a.answer for a in read_answers(store, "q")] == ["W g", "I g"]
    assert store_version(store) == answered  # nothing to recompute, nothing more to count
    stats = item_statistics(table).set_index("question")
    assert stats.loc["q", "first_try_correct"] == 0.0 and stats.loc["q", "attempts"] == 2
    store.close()
