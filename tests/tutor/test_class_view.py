"""The Class page's numbers against a hand count (worked out in the comments), and end to end
through a real store."""

from __future__ import annotations

import csv
import io
import math
import random
from datetime import timedelta

import pytest

from grader import Verdict
from tutor.class_store import load_class
from tutor.class_view import (
    CSV_COLUMNS,
    LearnerHistory,
    activity_of,
    class_mastery,
    class_rows,
    learner_row,
    rows_csv,
    summarize,
)
from tutor.review import CardState
from tutor.store import NewAttempt
from tutor.store.records import AttemptRecord, Profile
from tutor.store.schema import attempts

from .conftest import T0

NOW = T0 + timedelta(days=10)  # 2026-03-11 09:00 UTC
DAY = timedelta(days=1)
TOPIC_OF = {"a": "jacobian", "b": "jacobian", "c": "dropout", "d": "dropout"}


def _attempt(i, qid, verdict, ago, phase="first"):
    return AttemptRecord(
        id=i, profile_id=0, question_id=qid, seed=None, answer="", verdict=Verdict(verdict),
        score=float(verdict == "correct"), hints_used=0, seconds=1.0, confidence=2,
        rubric_ticks=(), rating=None, mode="practice", created_at=NOW - ago, phase=phase)


def _card(qid, due):
    return CardState(qid, 2, None, 3.0, 5.0, due, NOW - 5 * DAY)


def _learner(pid, name, attempts=(), cards=()):
    """A learner's summary at NOW, computed from their records by the reference definition."""
    return activity_of(LearnerHistory(Profile(pid, name, T0), tuple(attempts), tuple(cards)), NOW)


ADA = _learner(1, "Ada", [
    _attempt(1, "a", "wrong", 1 * DAY),
    _attempt(2, "a", "wrong", 2 * DAY),
    _attempt(3, "b", "partial", 2 * DAY),
    _attempt(4, "a", "correct", 2 * DAY - timedelta(hours=1), phase="retry"),  # not counted
    _attempt(5, "c", "correct", 3 * DAY),
    _attempt(6, "b", "wrong", 9 * DAY),  # counted, but outside the 7-day window
], [_card("a", NOW - timedelta(hours=1)), _card("b", NOW + DAY), _card("c", NOW)])
BO = _learner(2, "Bo", [
    _attempt(7, "a", "wrong", DAY), _attempt(8, "b", "wrong", DAY),
    _attempt(9, "c", "correct", DAY), _attempt(10, "d", "correct", DAY)])
CY = _learner(3, "Cy", [], [_card("a", NOW - 5 * DAY)])
DEE = _learner(4, "Dee", [_attempt(20 + k, "a", "wrong", k * DAY) for k in (1, 2, 3)]
               + [_attempt(30 + k, "c", "correct", k * DAY) for k in (1, 2, 3, 4)])


def test_one_learner_by_hand():
    row = learner_row(ADA, NOW)
    # counted first tries: 1, 2, 3, 5, 6 (4 is a retry); right: 5 only
    assert (row.first_tries, row.correct, row.accuracy) == (5, 1, pytest.approx(0.2))
    # in the last 7 days: 1, 2, 3, 5, of which 1, 2, 3 failed -> 3 >= 3 and 3 >= 4/2: stuck
    assert (row.recent_first_tries, row.recent_failed, row.stuck) == (4, 3, True)
    assert row.stuck_on == ("a", "b")  # a failed twice, b once
    assert row.active_days == 3  # 1, 2 and 3 days ago
    assert row.last_active == NOW - DAY
    assert row.questions_seen == 3  # a, b, c
    assert row.due_now == 2  # the cards due an hour ago and exactly now


def test_stuck_needs_enough_failures_and_half_of_the_window():
    bo, dee = learner_row(BO, NOW), learner_row(DEE, NOW)
    assert (bo.recent_failed, bo.stuck) == (2, False)  # half failed, but only 2
    assert (dee.recent_failed, dee.recent_first_tries, dee.stuck) == (3, 7, False)  # 3 < 7/2
    assert dee.stuck_on == ()


def test_a_learner_with_no_attempts():
    row = learner_row(CY, NOW)
    assert (row.first_tries, row.accuracy, row.last_active, row.due_now) == (0, None, None, 1)


def test_the_class_in_order_and_its_summary():
    rows = class_rows([BO, CY, DEE, ADA], NOW)
    assert [r.name for r in rows] == ["Ada", "Cy", "Bo", "Dee"]  # stuck, then most due, then name
    summary = summarize(rows)
    assert (summary.learners, summary.active, summary.stuck) == (4, 3, 1)
    assert (summary.due_now, summary.learners_with_due) == (3, 2)


def test_mastery_by_topic_for_every_learner():
    table = class_mastery([ADA, BO, CY], TOPIC_OF).set_index("learner")
    # Ada's latest first tries: a wrong, b partial (3 is newer than 6), c right
    assert table.loc["Ada", "jacobian"] == 0.0 and table.loc["Ada", "dropout"] == 0.5
    assert table.loc["Bo", "jacobian"] == 0.0 and table.loc["Bo", "dropout"] == 1.0
    assert list(table.columns) == ["dropout", "jacobian"]


def test_mastery_is_no_data_where_nothing_was_answered():
    # Cy has answered nothing: no data, not 0. Eve answered one jacobian question, wrongly:
    # jacobian 0 of 2 (a fact), dropout untouched (no data).
    eve = _learner(5, "Eve", [_attempt(30, "a", "wrong", DAY)])
    table = class_mastery([CY, eve], TOPIC_OF).set_index("learner")
    assert table.loc["Cy"].isna().all()
    assert table.loc["Eve", "jacobian"] == 0.0 and math.isnan(table.loc["Eve", "dropout"])


def test_csv_export():
    rows = class_rows([ADA, _learner(9, "=HYPERLINK(1)", [])], NOW)
    parsed = list(csv.DictReader(io.StringIO(rows_csv(rows))))
    ada = parsed[0]
    assert ada["profile_id"] == "1"
    assert ada["learner"] == "Ada" and ada["accuracy"] == "0.2000" and ada["stuck"] == "1"
    assert ada["stuck_on"] == "a b" and ada["due_now"] == "2"
    assert ada["last_active_utc"] == (NOW - DAY).isoformat()
    assert parsed[1]["learner"] == "'=HYPERLINK(1)" and parsed[1]["accuracy"] == ""


def test_csv_headers_are_given_the_cells_stay_stable():
    rows = class_rows([ADA], NOW)
    shown = rows_csv(rows, header=lambda column: f"<{column}>")
    header, first = list(csv.reader(io.StringIO(shown)))[:2]
    assert header == [f"<{c}>" for c in CSV_COLUMNS]
    assert first == next(csv.reader(io.StringIO(rows_csv(rows).splitlines()[1])))


def test_a_naive_now_is_refused():
    with pytest.raises(ValueError):
        learner_row(ADA, NOW.replace(tzinfo=None))


def test_through_a_real_store(store):
    ada, bo = store.create_profile("Ada"), store.create_profile("Bo")
    for k, verdict in enumerate(["wrong", "wrong", "wrong", "correct"]):
        store.record_attempt(ada.id, NewAttempt(f"q{k}", Verdict(verdict), score=float(verdict == "correct")),
                             now=NOW - timedelta(hours=k + 1))
    store.record_attempt(bo.id, NewAttempt("q0", Verdict.CORRECT, score=1.0), now=NOW - 8 * DAY)
    rows = {r.name: r for r in class_rows(load_class(store, NOW), NOW)}
    assert rows["Ada"].stuck and rows["Ada"].first_tries == 4 and rows["Ada"].correct == 1
    # wrong answers come back tomorrow: nothing due yet; Bo's right answer 8 days ago is due
    assert rows["Ada"].due_now == 0 and rows["Bo"].due_now == 1
    assert rows["Bo"].recent_first_tries == 0 and math.isclose(rows["Bo"].accuracy, 1.0)


def test_a_forged_import_is_kept_out_of_the_class(store):
    # Issue 23: a learner imports back-dated "correct" first tries into her own profile.
    from tutor.transfer import export_json, import_json

    ada, forger = store.create_profile("Ada"), store.create_profile("Mallory")
    store.record_attempt(forger.id, NewAttempt("q0", Verdict.WRONG), now=NOW - timedelta(hours=1))
    for k in range(20):
        store.record_attempt(ada.id, NewAttempt(f"q{k}", Verdict.CORRECT, score=1.0),
                             now=NOW - timedelta(hours=2, minutes=k))
    import_json(store, export_json(store, ada.id, now=NOW), into_profile_id=forger.id, now=NOW)
    assert store.count_attempts(forger.id) == 21  # her Dashboard has them (marked imported)
    rows = {r.name: r for r in class_rows(load_class(store, NOW), NOW)}
    mallory = rows["Mallory"]
    assert (mallory.first_tries, mallory.correct, mallory.accuracy) == (1, 0, 0.0)
    assert mallory.questions_seen == 1 and mallory.recent_first_tries == 1
    assert rows["Ada"].first_tries == 20  # the exporter's own answers are hers, and count
    mastery = class_mastery(load_class(store, NOW), {f"q{k}": "basics" for k in range(20)})
    assert mastery.set_index("learner").loc["Mallory", "basics"] == 0.0


def test_the_stores_aggregate_read_agrees_with_the_records(store):
    # Recorded out of time order (an import adds old attempts after new ones), with retries,
    # answers after the solution, an unreadable row left by migration 0003, cards due or not.
    rng = random.Random(4)
    people = [store.create_profile(name) for name in ("Ada", "Bo", "Cy")]
    for _ in range(120):
        who = rng.choice(people[:2])
        store.record_attempt(who.id, NewAttempt(
            rng.choice("abcde"), rng.choice([Verdict.CORRECT, Verdict.WRONG, Verdict.PARTIAL]),
            phase=rng.choice(["first", "first", "retry", "after_reveal"])),
            now=NOW - timedelta(hours=rng.uniform(0, 24 * 12)))
    store.write(lambda conn: conn.execute(attempts.insert().values(
        profile_id=people[0].id, question_id="z", seed=None, answer="oops(",
        verdict=Verdict.UNREADABLE, score=0.0, hints_used=0, seconds=1.0, mode="practice",
        phase="first", created_at=NOW - DAY)))
    expected = [activity_of(LearnerHistory(p, tuple(store.list_attempts(p.id)),
                                           tuple(store.list_cards(p.id))), NOW) for p in people]
    assert load_class(store, NOW) == expected
    assert expected[0].recent and expected[0].due_now and not expected[2].questions


@pytest.mark.parametrize("verdicts", [("correct", "wrong"), ("wrong", "correct"),
                                      ("partial", "correct", "wrong"), ("correct", "correct")])
def test_first_tries_at_the_same_moment_are_ordered_by_id(store, verdicts):
    # The store finds the newest try by its time, and the id settles a tie (the reference's
    # order): the last written of tries at one moment is the newest. Written as rows: the store's
    # own recording would make a second try at a question practice, not a counted first try.
    ada = store.create_profile("Ada")
    rows = [("a", verdict, NOW - DAY) for verdict in verdicts] + [("b", "correct", NOW - 2 * DAY)]
    for qid, verdict, when in rows:
        store.write(lambda conn, qid=qid, verdict=verdict, when=when: conn.execute(
            attempts.insert().values(profile_id=ada.id, question_id=qid, seed=None, answer="",
                                     verdict=Verdict(verdict), score=0.0, hints_used=0, seconds=1.0,
                                     mode="practice", phase="first", created_at=when)))
    expected = [activity_of(LearnerHistory(ada, tuple(store.list_attempts(ada.id)),
                                           tuple(store.list_cards(ada.id))), NOW)]
    assert load_class(store, NOW) == expected
    assert expected[0].questions[0].first_tries == len(verdicts)
    assert expected[0].questions[0].latest_correct == (verdicts[-1] == "correct")
