"""One verdict from the grader to the database and back (issue 26, item 2).

Every kind of verdict the store can hold is written the ways the app writes it
(`ProgressStore.record_attempt`, the spool replayed by an `AttemptWriter`, an interview answer
recorded unassessed and then assessed or left so, a JSON import, and the row migration 0003 left
for an old unreadable answer), then read back through every reader (attempt history, the
dashboard's frames, item analytics, the wrong-answer lists, the Class page's numbers, export and
a re-import, the interview history): each gives back the same `grader.Verdict` member, never a
word. On SQLite, and on PostgreSQL when TUTOR_TEST_DATABASE_URL is set (tests/tutor/conftest.py).

Derivation line statuses (`grader.StepStatus`) are not stored: a derivation question's attempt
stores its answer's `Verdict` like any other (the `derivation` row below).

A stored word that is not a `Verdict` value (what a migration renaming a word would leave) is
refused loudly by every reader instead of passing through as a string that no filter matches
(the bug of migration 0003: Analytics kept filtering `error` after it became `unreadable`).
"""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError

from grader import Verdict
from tests.tutor.conftest import T0
from tutor.analytics import item_statistics
from tutor.attempt_table import read_answers, read_attempt_table
from tutor.class_store import load_class
from tutor.class_view import LearnerHistory, activity_of
from tutor.dashboard import attempt_table, question_history
from tutor.interview import QuestionTime
from tutor.rating import Mode
from tutor.store import AttemptWriter, NewAttempt, Spool
from tutor.store.schema import UnknownVerdict, attempts
from tutor.store.spool import SpooledAttempt
from tutor.transfer import ImportRefused, export_csv, export_data, export_json, import_json

NOW = T0 + timedelta(days=1)

# question -> the verdict its one attempt ends with, and how it is written
RECORDED = {"q-correct": Verdict.CORRECT, "q-partial": Verdict.PARTIAL, "q-wrong": Verdict.WRONG,
            "derivation": Verdict.PARTIAL}
SPOOLED = {"s-correct": Verdict.CORRECT, "s-partial": Verdict.PARTIAL, "s-wrong": Verdict.WRONG}
INTERVIEW = {"iv-assessed": Verdict.CORRECT, "iv-unassessed": Verdict.WRONG}
OLD_UNREADABLE = {"q-old-unreadable": Verdict.UNREADABLE}  # a row as migration 0003 left it
EXPECTED = RECORDED | SPOOLED | INTERVIEW | OLD_UNREADABLE
IMPORTED = {"i-correct": "correct", "i-partial": "partial", "i-wrong": "wrong",
            "i-unreadable": "unreadable", "i-error": "error"}  # `error`: files before schema 3
IMPORTED_AS = {qid: Verdict.UNREADABLE if word == "error" else Verdict(word)
               for qid, word in IMPORTED.items()}


def _score(verdict: Verdict) -> float:
    return {Verdict.CORRECT: 1.0, Verdict.PARTIAL: 0.5}.get(verdict, 0.0)


def _record_every_kind(store, profile_id: int, spool_dir) -> None:
    for k, (qid, verdict) in enumerate(RECORDED.items()):
        store.record_attempt(profile_id, NewAttempt(qid, verdict, score=_score(verdict),
                                                    answer=f"answer {k}"),
                             now=T0 + timedelta(minutes=k))
    # an unreadable answer is not an attempt: the store refuses it (it only exists as old rows)
    with pytest.raises(ValueError, match="verdict"):
        store.record_attempt(profile_id, NewAttempt("q-new-unreadable", Verdict.UNREADABLE))
    # held in a replica's spool while the database was away, then replayed by the next writer
    dead = Spool(spool_dir)
    dead.append([SpooledAttempt(profile_id, NewAttempt(qid, verdict, score=_score(verdict),
                                                       answer="spooled", key=f"spool-{qid}"),
                                T0 + timedelta(minutes=10 + k))
                 for k, (qid, verdict) in enumerate(SPOOLED.items())])
    dead.close()
    writer = AttemptWriter(store, spool=Spool(spool_dir))
    assert writer.replayed == len(SPOOLED) and writer.flush(timeout=30)
    # interview: recorded unassessed as the model answer is shown; one is then ticked
    for k, qid in enumerate(INTERVIEW):
        store.record_attempt(profile_id, NewAttempt(
            qid, Verdict.WRONG, answer="my answer", mode=Mode.INTERVIEW, unassessed=True,
            key=f"held-{qid}"), now=T0 + timedelta(minutes=20 + k))
    store.record_attempt(profile_id, NewAttempt(
        "iv-assessed", Verdict.CORRECT, score=1.0, mode=Mode.INTERVIEW, confidence=3,
        rubric_ticks=("a",), assesses="held-iv-assessed", key="ticks-iv-assessed"),
        now=T0 + timedelta(minutes=25))
    store.write(lambda conn: conn.execute(attempts.insert().values(
        profile_id=profile_id, question_id="q-old-unreadable", seed=None, answer="((",
        verdict=Verdict.UNREADABLE, score=0.0, hints_used=0, seconds=1.0, mode="practice",
        phase="first", unassessed=False, imported=False, created_at=T0 + timedelta(minutes=30))))


def _import_every_word(store, profile_id: int) -> None:
    document = json.loads(export_json(store, profile_id, now=NOW))
    template = dict(document["attempts"][0], rubric_ticks=[], rating=None, confidence=None)
    document["attempts"] = [dict(template, question_id=qid, verdict=word, score=0.0,
                                 created_at=(T0 - timedelta(days=1, minutes=k)).isoformat())
                            for k, (qid, word) in enumerate(IMPORTED.items())]
    report = import_json(store, json.dumps(document), into_profile_id=profile_id, now=NOW)
    assert report.attempts_added == len(IMPORTED)


def _verdicts(pairs) -> dict:
    """question -> verdict, every one a `grader.Verdict` member (a word fails here)."""
    out = {}
    for qid, verdict in pairs:
        assert type(verdict) is Verdict, (qid, verdict)
        out[qid] = verdict
    return out


@pytest.fixture
def filled(store, profile, tmp_path):
    _record_every_kind(store, profile.id, tmp_path / "spool")
    _import_every_word(store, profile.id)
    return store, profile


def test_every_kind_of_verdict_reads_back_as_the_same_enum(filled):
    store, profile = filled
    everything = EXPECTED | IMPORTED_AS
    records = store.list_attempts(profile.id)
    assert _verdicts((a.question_id, a.verdict) for a in records) == everything
    assert {a.question_id for a in records if a.unassessed} == {"iv-unassessed"}

    table = attempt_table(records)  # the Dashboard's table of answers
    assert _verdicts(zip(table["question_id"], table["verdict"], strict=True)) == everything
    history = question_history(records, store.list_cards(profile.id))  # counted tries only
    counted = {q: v for q, v in everything.items() if v is not Verdict.UNREADABLE}
    assert _verdicts(zip(history["question_id"], history["first_try"], strict=True)) == counted
    assert _verdicts(zip(history["question_id"], history["latest"], strict=True)) == counted


def test_analytics_and_the_class_read_the_same_enum(filled):
    store, profile = filled
    answered_here = EXPECTED  # imports are left out of Analytics and Class
    table = read_attempt_table(store)
    assert _verdicts(zip(table.question, table.verdict, strict=True)) == answered_here
    stats = item_statistics(table).set_index("question")
    graded = {q: v for q, v in answered_here.items() if v is not Verdict.UNREADABLE}
    assert set(stats.index[stats.learners > 0]) == set(graded)
    assert {q: stats.first_try_correct[q] for q in graded} == {
        q: float(v is Verdict.CORRECT) for q, v in graded.items()}
    for qid, verdict in answered_here.items():
        assert _verdicts((qid, a.verdict) for a in read_answers(store, qid)) == {qid: verdict}

    (activity,) = load_class(store, NOW)
    assert activity == activity_of(LearnerHistory(profile, tuple(store.list_attempts(profile.id)),
                                                  tuple(store.list_cards(profile.id))), NOW)
    assert {t.question_id: t.correct == 1 for t in activity.questions} == {
        q: v is Verdict.CORRECT for q, v in graded.items()}


def test_export_and_import_carry_the_same_enum(filled, store):
    _, profile = filled
    everything = EXPECTED | IMPORTED_AS
    exported = export_data(store, profile.id, now=NOW)
    assert _verdicts((a.question_id, a.verdict) for a in exported.attempts) == everything
    rows = list(csv.DictReader(io.StringIO(export_csv(store, profile.id))))
    assert {r["question_id"]: r["verdict"] for r in rows} == {
        q: v.value for q, v in everything.items()}
    again = import_json(store, export_json(store, profile.id, now=NOW), new_profile_name="Copy",
                        now=NOW)
    assert _verdicts((a.question_id, a.verdict)
                     for a in store.list_attempts(again.profile_id)) == everything


def test_a_finished_interview_in_the_history_reads_back_as_the_enum(store, profile):
    times = [QuestionTime(qid, verdict, False, False, 12.5)
             for qid, verdict in [("iv-a", Verdict.CORRECT), ("iv-b", Verdict.PARTIAL),
                                  ("iv-c", Verdict.WRONG)]]
    store.set_setting(profile.id, "interview_history", [{"questions": [
        {"question_id": t.question_id, "verdict": t.verdict, "skipped": False,
         "timed_out": False, "seconds": t.seconds} for t in times]}])
    (entry,) = store.get_settings(profile.id)["interview_history"]
    back = [QuestionTime.from_dict(q) for q in entry["questions"]]
    assert back == times and all(type(t.verdict) is Verdict for t in back)
    with pytest.raises(ValueError):  # an edited history: left out by the page, never shown
        QuestionTime.from_dict(dict(entry["questions"][0], verdict="great"))


def test_a_stored_word_that_is_no_verdict_is_refused_by_every_reader(store, profile):
    """What migration 0003 did once (`error` -> `unreadable`), done the other way: a word no
    `Verdict` has. Today's readers stop on it instead of misfiling it."""
    store.record_attempt(profile.id, NewAttempt("q", Verdict.WRONG, answer="x"), now=T0)
    store.write(lambda conn: conn.execute(text("UPDATE attempts SET verdict = 'error'")))
    with pytest.raises(UnknownVerdict, match="'error'"):
        store.list_attempts(profile.id)
    with pytest.raises(UnknownVerdict, match="'error'"):
        read_attempt_table(store)
    with pytest.raises(UnknownVerdict, match="'error'"):
        read_answers(store, "q")
    with pytest.raises(UnknownVerdict, match="'error'"):
        export_json(store, profile.id)


def test_a_word_is_not_written_as_a_verdict(store, profile):
    with pytest.raises(ValueError, match="verdict 'correct'"):
        store.record_attempt(profile.id, NewAttempt("q", "correct", score=1.0))  # type: ignore[arg-type]
    with pytest.raises(StatementError, match="grader.Verdict"):
        store.write(lambda conn: conn.execute(attempts.insert().values(
            profile_id=profile.id, question_id="q", seed=None, answer="", verdict="correct",
            score=1.0, hints_used=0, seconds=1.0, mode="practice", phase="first",
            unassessed=False, imported=False, created_at=T0)))
    assert store.list_attempts(profile.id) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_import_with_a_verdict_word_this_app_does_not_know_is_refused(store, profile, lang):
    store.record_attempt(profile.id, NewAttempt("q", Verdict.CORRECT, score=1.0), now=T0)
    document = json.loads(export_json(store, profile.id, now=NOW))
    document["attempts"].append(dict(document["attempts"][0], verdict="excellent"))
    with pytest.raises(ImportRefused) as caught:
        import_json(store, json.dumps(document), new_profile_name="Bo", now=NOW)
    assert caught.value.code == "unknown-verdict"
    message = caught.value.message(lang)
    assert "'excellent'" in message and "attempts.1.verdict" in message
    assert all(v.value in message for v in Verdict)
    assert [p.name for p in store.list_profiles()] == ["Ada"]
