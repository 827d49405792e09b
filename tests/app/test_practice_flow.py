"""The practice session flow (tutor.practice) without Streamlit."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader import Result, Verdict
from tests.app.learner_bank import fixture_bank
from tutor import practice
from tutor.practice import Filters, PracticeRun

BANK = fixture_bank()


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(), sorted(BANK.questions)),
        (Filters.of(types=["choice"]), ["fx-choice"]),
        (Filters.of(topics=["jacobian"]), ["fx-derivation", "fx-expression"]),
        (Filters.of(topics=["jacobian"], difficulties=["hard"]), ["fx-derivation"]),
        (Filters.of(types=["generated"]), []),
    ],
)
def test_filters_select_matching_questions(filters, expected):
    assert practice.matching_ids(BANK, filters) == expected


@given(st.lists(st.sampled_from(sorted(BANK.questions)), max_size=8), st.integers(0, 10_000))
def test_pick_next_avoids_recent_while_others_remain(recent, seed):
    ids = sorted(BANK.questions)
    picked = practice.pick_next(ids, recent=recent, rng=random.Random(seed))
    assert picked in ids
    window = set(recent[-practice.RECENT_WINDOW :])
    if set(ids) - window:
        assert picked not in window


def test_pick_next_of_nothing_is_none():
    assert practice.pick_next([], recent=[], rng=random.Random(0)) is None


def test_hints_are_revealed_one_at_a_time_and_stop_at_the_last():
    q = BANK.questions["fx-choice"]
    session = practice.start_question(q, rng=random.Random(0))
    assert session.visible_hints(q, "en") == []
    session.show_hint(q)
    assert session.visible_hints(q, "en") == ["Hint 1"]
    session.show_hint(q)
    session.show_hint(q)  # beyond the last: no-op
    assert session.visible_hints(q, "zh") == ["提示 1", "提示 2"]
    assert not session.can_show_hint(q)


@pytest.mark.parametrize(
    ("ticked", "correct", "score", "missed", "misconceptions"),
    [
        (["identity"], True, 1.0, [], []),
        (["identity", "ensemble"], True, 1.0, [], []),
        ([], False, 0.0, ["identity"], []),
        (["ensemble"], False, 0.0, ["identity"], []),
        (["identity", "never-vanish"], False, 1.0, [], ["never-vanish"]),
    ],
)
def test_rubric_result(ticked, correct, score, missed, misconceptions):
    result, rubric = practice.rubric_result(BANK.questions["fx-interview"], ticked)
    assert (result.correct, result.score) == (correct, score)
    assert list(rubric.missed_required) == missed
    assert list(rubric.misconceptions) == misconceptions


def test_rubric_result_refuses_unknown_points():
    with pytest.raises(ValueError, match="unknown rubric points: nope"):
        practice.rubric_result(BANK.questions["fx-interview"], ["nope"])


@pytest.mark.parametrize(
    ("result", "verdict"),
    [
        (Result(Verdict.CORRECT, score=1.0), "correct"),
        (Result(Verdict.PARTIAL, score=0.5), "partial"),
        (Result(Verdict.WRONG), "wrong"),
        (Result(Verdict.UNREADABLE, error="cannot read"), "error"),
    ],
)
def test_verdict_of(result, verdict):
    assert practice.verdict_of(result) == verdict


def _fixed_grade(result):
    def grade(question, answer, *, lang, seed=None):
        return result, None

    return grade


def test_submit_records_one_attempt_with_hints_time_and_confidence():
    q = BANK.questions["fx-choice"]
    session = practice.start_question(q, rng=random.Random(0), now=100.0)
    session.show_hint(q)
    recorded = []
    outcome = practice.submit_answer(
        session, q, ["a"], confidence="high", lang="en",
        grade=_fixed_grade(Result(Verdict.CORRECT, score=1.0)),
        record=recorded.append, now=112.5,
    )
    assert outcome.correct and outcome.hints_used == 1 and outcome.elapsed_s == 12.5
    (attempt,) = recorded
    assert (attempt.question_id, attempt.verdict, attempt.answer) == ("fx-choice", "correct", '["a"]')
    assert (attempt.confidence, attempt.hints_used, attempt.seconds) == (3, 1, 12.5)
    assert attempt.problems() == []
    assert session.last is outcome


def test_interview_attempt_carries_rubric_flags():
    q = BANK.questions["fx-interview"]
    session = practice.start_question(q, rng=random.Random(0), now=0.0)
    session.reveal("identity, and never vanish", "medium")
    recorded = []
    practice.submit_answer(
        session, q, {"text": session.draft_answer, "ticked": ["identity", "never-vanish"]},
        confidence=session.draft_confidence, lang="en", grade=practice.grade,
        record=recorded.append, mode="interview", now=30.0,
    )
    (attempt,) = recorded
    assert attempt.answer == "identity, and never vanish"
    assert attempt.rubric_ticks == ("identity", "never-vanish")
    assert attempt.misconception_ticked and not attempt.required_missed
    assert attempt.verdict == "partial" and attempt.mode == "interview"


def test_bad_confidence_is_refused_before_grading():
    q = BANK.questions["fx-choice"]
    session = practice.start_question(q, rng=random.Random(0))
    with pytest.raises(ValueError, match="confidence"):
        practice.submit_answer(session, q, ["a"], confidence="sure", lang="en",
                               grade=_fixed_grade(Result(Verdict.CORRECT)))
    assert not session.attempted


def test_run_next_opens_fresh_sessions_and_remembers_recent():
    run = PracticeRun(rng=random.Random(3))
    ids = practice.matching_ids(BANK, Filters())
    seen = [run.next(BANK.questions, ids).question_id for _ in range(4)]
    assert len(set(seen)) == 4  # no repeat inside the recent window
    assert run.serial == 4 and run.recent == seen
    assert run.next(BANK.questions, []) is None and run.current is None
