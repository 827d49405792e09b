"""Mock interview: question picking, tick suggestion, the interview (a timer and a summary around one
question session per question) end to end, the summary."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from grader import Verdict
from tutor.interview import (
    followup_ids,
    grade_ticks,
    history_entry,
    pick_questions,
    recently_seen_since,
)
from tutor.interview_match import keyword_in, suggest_ticks
from tutor.sessions.interview import (
    InterviewSession,
    InterviewStateError,
    Stage,
    start_interview,
    summarize,
)

from .conftest import T0
from .interview_fixtures import small_bank


@pytest.fixture(scope="module")
def bank():
    return small_bank()


@pytest.mark.parametrize(
    ("answer", "keyword", "found"),
    [
        ("The Jacobian is I + J", "I+J", True),
        ("the jacobian is i+j", "I + J", True),
        ("ＩＤＥＮＴＩＴＹ mapping", "identity", True),  # full width, upper case
        ("identities", "identity", False),
        ("two products", "product", True),
        ("once again", "gain", False),
        ("恒等映射让梯度直达", "恒等", True),
        ("恒 等 映射", "恒等映射", True),  # spaces typed between Chinese characters
        ("残差是 identity 加上 F(x)", "identity", True),  # mixed zh/en text
        ("梯度消失", "永不消失", False),
        ("", "identity", False),
    ],
)
def test_keyword_matching(answer, keyword, found):
    assert keyword_in(answer, keyword) is found


def test_suggested_ticks_use_both_languages(bank):
    rubric = bank.questions["iv-grad-flow"].rubric
    assert suggest_ticks(rubric, "恒等项 plus an ensemble view") == ("identity-term", "ensemble")
    assert suggest_ticks(rubric, "gradients never vanish, 不用连乘") == ("multiplicative", "never-vanish")
    assert suggest_ticks(rubric, "no idea") == ()


@pytest.mark.parametrize(
    ("ticks", "verdict", "score"),
    [
        (["identity-term", "multiplicative"], Verdict.CORRECT, 1.0),
        (["identity-term", "multiplicative", "ensemble"], Verdict.CORRECT, 1.0),
        (["identity-term", "multiplicative", "never-vanish"], Verdict.PARTIAL, 1.0),
        (["identity-term"], Verdict.PARTIAL, 0.5),
        (["ensemble"], Verdict.WRONG, 0.0),
        ([], Verdict.WRONG, 0.0),
    ],
)
def test_grade_ticks(bank, ticks, verdict, score):
    outcome = grade_ticks(bank.questions["iv-grad-flow"], ticks)
    assert (outcome.verdict, outcome.score) == (verdict, score)


def test_pick_prefers_questions_not_seen_recently(bank):
    qs = bank.questions.values()
    assert pick_questions(qs, n=5, seed=1, topics=["gradient-flow"]) in (
        ["iv-grad-flow", "iv-grad-flow-2"], ["iv-grad-flow-2", "iv-grad-flow"],
    )
    for seed in range(10):
        picked = pick_questions(qs, n=2, seed=seed, recently_seen={"iv-grad-flow"})
        assert "iv-grad-flow" not in picked and len(picked) == 2
        assert pick_questions(qs, n=3, seed=seed, recently_seen={"iv-grad-flow"})[-1] == "iv-grad-flow"
    assert pick_questions(qs, n=3, seed=4) == pick_questions(qs, n=3, seed=4)
    with pytest.raises(ValueError, match="no interview question"):
        start_interview(qs, n=2, now=T0, seed=0, topics=["lstm"])


@pytest.mark.parametrize(("now", "since"), [
    (datetime(2028, 2, 29, 9, 30, tzinfo=UTC), datetime(2027, 3, 1, 9, 30, tzinfo=UTC)),
    (datetime(2029, 3, 1, 0, 0, tzinfo=UTC), datetime(2028, 3, 1, 0, 0, tzinfo=UTC)),
    (datetime(2027, 1, 15, 23, 59, tzinfo=UTC), datetime(2026, 1, 15, 23, 59, tzinfo=UTC)),
])
def test_recently_seen_means_the_last_365_days_even_on_a_leap_day(now, since):
    assert recently_seen_since(now) == since


class FakeStore:
    def __init__(self):
        self.recorded = []

    def __call__(self, attempt):
        self.recorded.append(attempt)


def test_a_mock_interview_end_to_end(bank, store, profile):
    questions = bank.questions
    session = start_interview(questions.values(), n=2, now=T0, seed=3, topics=["gradient-flow"],
                              time_limit_seconds=600)
    assert session.stage is Stage.ANSWER and len(session.question_ids) == 2
    record = lambda attempt: store.record_attempt(profile.id, attempt, now=T0)  # noqa: E731
    first = questions[session.current_id]

    session = session.submit_answer(first, "I + J：恒等项让梯度直达，还有集成视角", confidence="high",
                                    now=T0 + timedelta(seconds=90))
    assert session.stage is Stage.REVEAL
    assert suggest_ticks(first.rubric, session.current.held_answer) == ("identity-term", "ensemble")
    assert session.current.held_seconds == 90
    session = session.confirm_ticks(first, ["identity-term", "ensemble"], lang="zh", record=record)
    assert session.stage is Stage.FOLLOWUPS and session.current.last.rubric.verdict is Verdict.PARTIAL
    assert followup_ids(first, questions) == list(first.followups)
    session = session.next(T0 + timedelta(seconds=100), questions)

    second = questions[session.current_id]
    assert session.stage is Stage.ANSWER and second.id != first.id
    session = session.submit_answer(second, "identity and no long product", confidence="medium",
                                    now=T0 + timedelta(seconds=160))
    assert session.current.held_seconds == 60
    suggested = suggest_ticks(second.rubric, session.current.held_answer)
    session = session.confirm_ticks(second, suggested, lang="en", record=record)
    session = session.next(T0 + timedelta(seconds=170), questions)
    assert session.stage is Stage.DONE and session.current_id is None

    (attempt_1, attempt_2) = store.list_attempts(profile.id)
    assert (attempt_1.question_id, attempt_1.verdict, attempt_1.mode) == (first.id, "partial", "interview")
    assert attempt_1.rubric_ticks == ("identity-term", "ensemble") and attempt_1.rating == 1
    assert (attempt_2.verdict, attempt_2.score, attempt_2.rating) == ("correct", 1.0, 3)

    summary = summarize(session, questions)
    assert (summary.answered, summary.correct) == (2, 1)
    assert [(m.question_id, m.point_id) for m in summary.missed] == [(first.id, "multiplicative")]
    assert summary.missed[0].text.get("zh") == "乘积不再连乘衰减"
    expected_practise = (first.id, *followup_ids(first, questions))
    assert summary.practise == expected_practise


def test_time_up_ends_after_the_current_question(bank):
    session = start_interview(bank.questions.values(), n=3, now=T0, seed=0, time_limit_seconds=60)
    question = bank.questions[session.current_id]
    late = T0 + timedelta(seconds=61)
    assert session.time_left(T0 + timedelta(seconds=15)) == 45 and session.expired(late)
    session = session.submit_answer(question, "identity", confidence="low", now=late)
    recorder = FakeStore()
    session = session.confirm_ticks(question, ["identity-term"], lang="en", record=recorder)
    assert session.next(late, bank.questions).stage is Stage.DONE and len(recorder.recorded) == 1


@pytest.mark.parametrize("step", ["confirm_early", "next_early", "wrong_question", "bad_tick", "bad_confidence"])
def test_steps_out_of_order_are_refused(bank, step):
    session = start_interview(bank.questions.values(), n=2, now=T0, seed=0)
    question = bank.questions[session.current_id]
    other = next(q for q in bank.questions.values() if q.id != question.id)
    with pytest.raises(ValueError):
        if step == "confirm_early":
            session.confirm_ticks(question, [], lang="en")
        elif step == "next_early":
            session.next(T0, bank.questions)
        elif step == "wrong_question":
            session.submit_answer(other, "x", confidence="medium", now=T0)
        elif step == "bad_tick":
            session.submit_answer(question, "x", confidence="medium", now=T0).confirm_ticks(question, ["nope"], lang="en")
        else:
            session.submit_answer(question, "x", confidence="sure", now=T0)
    assert issubclass(InterviewStateError, ValueError)


def test_finishing_early_drops_an_unconfirmed_answer(bank):
    session = start_interview(bank.questions.values(), n=2, now=T0, seed=0)
    question = bank.questions[session.current_id]
    session = session.submit_answer(question, "identity", confidence="medium", now=T0).finish()
    assert session.stage is Stage.DONE and summarize(session, bank.questions).answered == 0


def test_an_interview_left_at_the_model_answer_does_not_leave_the_question_fresh(
        bank, store, profile):
    # Issue 22: submit, read the model answer, finish early; then open the question in Practice
    # and tick every key point. The model answer was seen: that is practice, not a first try.
    from tutor.store import NewAttempt

    session = _started(bank)
    question = bank.questions[session.current_id]
    record = lambda a: store.record_attempt(profile.id, a, now=T0)  # noqa: E731
    session.submit_answer(question, "anything", confidence="high", now=T0, record=record).finish()
    (held,) = store.list_attempts(profile.id)
    assert held.unassessed and held.counted and held.verdict == "wrong" and held.rating == 1
    practice = store.record_attempt(profile.id, NewAttempt(question.id, Verdict.CORRECT, score=1.0),
                                    now=T0 + timedelta(minutes=5))
    assert (practice.phase, practice.rating) == ("repeat", None)


def test_the_ticks_assess_the_answer_recorded_with_the_model_answer(bank, store, profile):
    session = _started(bank, n=1)
    question = bank.questions[session.current_id]
    required = [p.id for p in question.rubric if p.kind == "required"]
    record = lambda a: store.record_attempt(profile.id, a, now=T0)  # noqa: E731
    session = session.submit_answer(question, "answer", confidence="medium", now=T0, record=record)
    restored = type(session).from_dict(session.to_dict(), bank.questions)  # a reload in between
    session = restored.confirm_ticks(question, required, lang="en", record=record)
    (attempt,) = store.list_attempts(profile.id)
    assert (attempt.verdict, attempt.rating, attempt.unassessed) == ("correct", 3, False)
    assert session.current.last.attempt_id == attempt.id and session.current.last.rating == 3


def _started(bank, n=2):
    return start_interview(bank.questions.values(), n=n, now=T0, seed=1)


def test_i_dont_know_records_a_failure_and_moves_on_to_the_follow_ups(bank, store, profile):
    session = _started(bank)
    question = bank.questions[session.current_id]
    session = session.skip(question, now=T0 + timedelta(seconds=20),
                           record=lambda a: store.record_attempt(profile.id, a, now=T0))
    skipped = session.current.last
    assert session.stage is Stage.FOLLOWUPS and skipped.gave_up and skipped.result.verdict is Verdict.WRONG
    assert skipped.rating == 1 and skipped.due == T0 + timedelta(days=1) and skipped.choices == ()
    (attempt,) = store.list_attempts(profile.id)
    assert (attempt.answer, attempt.verdict, attempt.mode, attempt.seconds) == ("", "wrong", "interview", 20.0)
    with pytest.raises(InterviewStateError):
        session.skip(question, now=T0)  # only from the answer stage


def test_i_dont_know_is_counted_as_skipped_not_answered(bank):
    # The summary said "2 of 2 answered" after an "I don't know" and one answer.
    session = _started(bank, n=2)
    first = bank.questions[session.current_id]
    session = session.skip(first, now=T0).next(T0, bank.questions)
    second = bank.questions[session.current_id]
    required = [p.id for p in second.rubric if p.kind == "required"]
    session = session.submit_answer(second, "answer", confidence="medium", now=T0)
    session = session.confirm_ticks(second, required, lang="en").next(T0, bank.questions)
    summary = summarize(session, bank.questions)
    assert (summary.answered, summary.skipped, summary.graded, summary.correct) == (1, 1, 2, 1)
    entry = history_entry(session, summary, finished_at=T0)
    assert (entry["answered"], entry["skipped"], entry["asked"]) == (1, 1, 2)


def test_a_right_answer_may_be_rated_otherwise_once(bank, store, profile):
    session = _started(bank, n=1)
    question = bank.questions[session.current_id]
    required = [p.id for p in question.rubric if p.kind == "required"]
    session = session.submit_answer(question, "answer", confidence="medium", now=T0)
    session = session.confirm_ticks(question, required, lang="en",
                                    record=lambda a: store.record_attempt(profile.id, a, now=T0))
    assert session.current.last.rating == 3 and [r for r, _ in session.current.last.choices] == [2, 3, 4]
    session = session.rerate(4, lambda attempt_id, r: store.change_rating(profile.id, attempt_id, r))
    assert session.current.last.rating == 4
    assert session.current.last.due == store.list_cards(profile.id)[0].due == T0 + timedelta(days=8)
    assert session.rerate(2, lambda *_: None) == session  # a refused change leaves it as it was
    with pytest.raises(InterviewStateError):
        session.rerate(1, lambda *_: pytest.fail("Again is not offered after a right answer"))


def test_the_last_question_is_known(bank):
    session = _started(bank, n=2)
    assert not session.last_question
    question = bank.questions[session.current_id]
    session = session.skip(question, now=T0).next(T0, bank.questions)
    assert session.last_question


@pytest.mark.parametrize("steps", [0, 1, 2, 3])
def test_a_session_survives_as_a_draft_at_every_stage(bank, steps):
    session = _started(bank, n=2)
    question = bank.questions[session.current_id]
    moves = [
        lambda s: s.submit_answer(question, "恒等项 and never vanish", confidence="high", now=T0),
        lambda s: s.confirm_ticks(question, ["identity-term", "never-vanish"], lang="en"),
        lambda s: s.next(T0 + timedelta(seconds=5), bank.questions),
    ]
    for move in moves[:steps]:
        session = move(session)
    saved = json.loads(json.dumps(session.to_dict()))
    assert InterviewSession.from_dict(saved, bank.questions) == session


@pytest.mark.parametrize("data", [{}, {"question_ids": "x"}, {"started_at": 3}])
def test_a_draft_that_is_not_a_session_is_refused(bank, data):
    with pytest.raises(ValueError):
        InterviewSession.from_dict(data, bank.questions)


# ---- issue 16, item 4: 00:00, time per question, history --------------------------------------
def test_time_up_keeps_and_submits_the_typed_answer_or_records_not_known():
    bank = small_bank()
    session = start_interview(bank, n=1, now=T0, seed=1, time_limit_seconds=60)
    question = bank.questions[session.current_id]
    typed = session.time_up(question, "the identity path", confidence="medium",
                            now=T0 + timedelta(seconds=61))
    assert typed.stage is Stage.REVEAL and typed.current_timed_out
    assert (typed.current.held_answer, typed.current.held_seconds) == ("the identity path", 61.0)
    recorded = []
    empty = session.time_up(question, "  ", confidence="medium", now=T0 + timedelta(seconds=61),
                            record=recorded.append)
    assert empty.stage is Stage.FOLLOWUPS and empty.current.gave_up and empty.current_timed_out
    assert [a.verdict for a in recorded] == ["wrong"]
    (timed,) = summarize(empty.finish(), bank.questions).per_question
    assert (timed.skipped, timed.timed_out, timed.seconds) == (True, True, 61.0)
    assert type(session).from_dict(empty.to_dict(), bank.questions).current_timed_out


def test_history_keeps_one_entry_per_interview_newest_first():
    from tutor.interview import HISTORY_LENGTH, add_to_history

    first = {"started_at": "a"}
    history = add_to_history(None, first)
    assert history == [first]
    assert add_to_history(history, {"started_at": "a"}) is None
    for k in range(HISTORY_LENGTH + 5):
        history = add_to_history(history, {"started_at": str(k)})
    assert len(history) == HISTORY_LENGTH and history[0]["started_at"] == str(HISTORY_LENGTH + 4)
    assert add_to_history("edited", first) == [first]
