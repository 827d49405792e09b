"""Interviews saved before the mock interview ran on question sessions (issue 26) still load: an
interview in progress kept as scratch work in the interview's own shape (one "run" per question),
and the history entries of finished interviews. The dicts below are what that code wrote (its
`to_dict` and `history_entry`, run on `interview_fixtures.small_bank`), not what today's writes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from grader import Verdict
from tutor.interview import QuestionTime, add_to_history, history_entry
from tutor.sessions.interview import InterviewSession, Stage, summarize

from .interview_fixtures import small_bank

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DUE = "2026-03-05T09:00:00+00:00"

# Three questions: the first answered and ticked (correct, recorded as attempt 7, Good with Hard /
# Easy offered), the second "I don't know", the third submitted by the clock at 00:00 and shown
# with its model answer, its ticks not confirmed yet.
IN_PROGRESS = {
    "question_ids": ["iv-grad-flow-2", "iv-identity", "iv-grad-flow"],
    "started_at": "2026-03-02T09:00:00+00:00", "time_limit_seconds": 900, "index": 2,
    "stage": "reveal", "shown_at": "2026-03-02T09:01:20+00:00",
    "runs": [
        {"question_id": "iv-grad-flow-2", "answer": "identity and no long product", "confidence": 2,
         "seconds": 40.0, "suggested": ["identity-term", "multiplicative"],
         "ticked": ["identity-term", "multiplicative"],
         "outcome": {"verdict": "correct", "score": 1.0, "missed_required": [], "misconceptions": [],
                     "bonus": []},
         "skipped": False, "timed_out": False, "attempt_id": 7,
         "unassessed_key": "c04092b87317459680aad02ab5728706", "rating": 3, "due": DUE,
         "choices": [[2, "2026-03-04T09:00:00+00:00"], [3, DUE], [4, "2026-03-10T09:00:00+00:00"]]},
        {"question_id": "iv-identity", "answer": "", "confidence": None, "seconds": 15.0,
         "suggested": [], "ticked": [],
         "outcome": {"verdict": "wrong", "score": 0.0,
                     "missed_required": ["identity-term", "multiplicative"], "misconceptions": [],
                     "bonus": []},
         "skipped": True, "timed_out": False, "attempt_id": 8, "unassessed_key": None, "rating": 1,
         "due": "2026-03-03T09:01:15+00:00", "choices": []},
        {"question_id": "iv-grad-flow", "answer": "never vanish", "confidence": 1, "seconds": 20.0,
         "suggested": ["never-vanish"], "ticked": [], "outcome": None, "skipped": False,
         "timed_out": True, "attempt_id": None,
         "unassessed_key": "ad71f535266d4fc8afdc20d83d78fa80", "rating": None, "due": None,
         "choices": []},
    ],
}

# Finished interviews in a profile's history: one as the interview wrote it last, one from before
# "skipped" was kept (its questions' own flags say which were skipped).
HISTORY = [
    {"started_at": "2026-03-02T09:00:00+00:00", "finished_at": "2026-03-02T09:02:00+00:00",
     "time_limit_seconds": 900, "asked": 3, "answered": 1, "skipped": 1, "correct": 1, "missed": 2,
     "misconceptions": 0,
     "questions": [
         {"question_id": "iv-grad-flow-2", "verdict": "correct", "skipped": False,
          "timed_out": False, "seconds": 40.0},
         {"question_id": "iv-identity", "verdict": "wrong", "skipped": True, "timed_out": False,
          "seconds": 15.0}]},
    {"started_at": "2026-02-01T09:00:00+00:00", "finished_at": "2026-02-01T09:09:00+00:00",
     "time_limit_seconds": 600, "asked": 2, "answered": 2, "correct": 0, "missed": 3,
     "misconceptions": 1,
     "questions": [
         {"question_id": "iv-grad-flow", "verdict": "partial", "skipped": False,
          "timed_out": True, "seconds": 300.0},
         {"question_id": "iv-identity", "verdict": "wrong", "skipped": True, "timed_out": False,
          "seconds": 4.5}]},
]


@pytest.fixture(scope="module")
def bank():
    return small_bank()


def test_an_interview_in_progress_saved_in_the_old_shape_loads_where_it_was(bank):
    interview = InterviewSession.from_dict(json.loads(json.dumps(IN_PROGRESS)), bank.questions)
    assert interview.question_ids == ("iv-grad-flow-2", "iv-identity", "iv-grad-flow")
    assert (interview.stage, interview.index, interview.current_id) == (Stage.REVEAL, 2, "iv-grad-flow")
    assert interview.started_at == T0 and interview.time_left(T0 + timedelta(seconds=100)) == 800
    current = interview.current
    assert (current.held_answer, current.held_confidence, current.held_seconds) == (
        "never vanish", "low", 20.0)
    assert current.unassessed_key == "ad71f535266d4fc8afdc20d83d78fa80" and interview.current_timed_out
    answered, skipped = interview.sessions[:2]
    first = answered.last
    assert (first.result.verdict, first.rubric.missed_required, first.attempt_id, first.rating) == (
        Verdict.CORRECT, (), 7, 3)
    assert first.due == datetime.fromisoformat(DUE) and [r for r, _ in first.choices] == [2, 3, 4]
    assert answered.unassessed_key is None  # assessed: nothing waits for its ticks
    assert skipped.gave_up and skipped.last.result.verdict is Verdict.WRONG and skipped.last.rating == 1
    # and it goes on in today's shape
    assert InterviewSession.from_dict(json.loads(json.dumps(interview.to_dict())), bank.questions) == interview


def test_the_old_interview_goes_on_its_ticks_assess_the_answer_held_then(bank):
    interview = InterviewSession.from_dict(IN_PROGRESS, bank.questions)
    recorded = []
    question = bank.questions["iv-grad-flow"]
    interview = interview.confirm_ticks(question, ["identity-term", "never-vanish"], lang="en",
                                        record=recorded.append)
    (assessment,) = recorded
    assert assessment.assesses == "ad71f535266d4fc8afdc20d83d78fa80"
    assert (assessment.verdict, assessment.mode, assessment.seconds) == (Verdict.PARTIAL, "interview", 20.0)
    assert assessment.rubric_ticks == ("identity-term", "never-vanish") and assessment.confidence == 1
    summary = summarize(interview.next(T0 + timedelta(seconds=130), bank.questions), bank.questions)
    assert (summary.answered, summary.skipped, summary.correct) == (2, 1, 1)
    assert [(t.question_id, t.verdict, t.skipped, t.timed_out, t.seconds) for t in summary.per_question] == [
        ("iv-grad-flow-2", Verdict.CORRECT, False, False, 40.0),
        ("iv-identity", Verdict.WRONG, True, False, 15.0),
        ("iv-grad-flow", Verdict.PARTIAL, False, True, 20.0)]
    # "I don't know" missed every required point; the third missed one and stated a misconception
    assert [(m.question_id, m.point_id) for m in summary.missed] == [
        ("iv-identity", "identity-term"), ("iv-identity", "multiplicative"),
        ("iv-grad-flow", "multiplicative")]
    assert [(m.question_id, m.point_id) for m in summary.misconceptions] == [("iv-grad-flow", "never-vanish")]


def test_an_old_interview_at_its_answer_stage_shows_the_question_with_its_clock(bank):
    saved = {**IN_PROGRESS, "index": 1, "stage": "answer", "shown_at": "2026-03-02T09:00:45+00:00",
             "runs": IN_PROGRESS["runs"][:1]}
    interview = InterviewSession.from_dict(saved, bank.questions)
    assert (interview.stage, interview.current_id) == (Stage.ANSWER, "iv-identity")
    # the question's time runs from when it was shown, as it did
    interview = interview.skip(bank.questions["iv-identity"], now=T0 + timedelta(seconds=50))
    assert interview.current.last.elapsed_s == 5.0 and interview.current.gave_up


def test_an_old_interview_finished_loads_as_done(bank):
    done = {**IN_PROGRESS, "stage": "done", "runs": IN_PROGRESS["runs"][:2]}
    interview = InterviewSession.from_dict(done, bank.questions)
    assert interview.stage is Stage.DONE and summarize(interview, bank.questions).graded == 2


@pytest.mark.parametrize("broken", [
    {**IN_PROGRESS, "runs": [{**IN_PROGRESS["runs"][0], "question_id": "gone-from-the-bank"}]},
    {**IN_PROGRESS, "stage": "sideways"},
    {key: value for key, value in IN_PROGRESS.items() if key != "started_at"},
])
def test_an_old_interview_that_cannot_be_read_is_refused_not_half_loaded(bank, broken):
    with pytest.raises(ValueError):
        InterviewSession.from_dict(broken, bank.questions)


def test_history_saved_before_still_reads_and_takes_new_entries(bank):
    for entry in HISTORY:
        times = [QuestionTime.from_dict(q) for q in entry["questions"]]
        assert all(isinstance(t.verdict, Verdict) for t in times)
    interview = InterviewSession.from_dict({**IN_PROGRESS, "stage": "done"}, bank.questions)
    new = history_entry(interview, summarize(interview, bank.questions),
                        finished_at=T0 + timedelta(minutes=3))
    assert new.keys() == HISTORY[0].keys()  # the same shape as the entries already stored
    assert new["started_at"] == HISTORY[0]["started_at"]  # the same interview: kept once
    assert add_to_history(HISTORY, new) is None
    later = {**new, "started_at": "2026-03-09T09:00:00+00:00"}
    assert add_to_history(HISTORY, later) == [later, *HISTORY]
    assert new["questions"] == HISTORY[0]["questions"]  # the unconfirmed third is not counted
