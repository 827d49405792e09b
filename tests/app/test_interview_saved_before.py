"""The mock interview page picks up an interview saved, as scratch work, before the interview ran
on question sessions (issue 26): the learner reloads after the upgrade and finds her answer beside
the model answer, the clock still running; her ticks assess the answer recorded then (no second
attempt)."""

from __future__ import annotations

from datetime import timedelta

from grader import Verdict
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: F401
from tests.app.shell_helpers import profile_state
from tutor.sessions.interview import Stage
from tutor.store import NewAttempt, utc_now
from tutor.store.scratch import save_scratch

HELD_KEY = "5f0c1d2e3a4b5c6d7e8f901234567890"
ANSWER = "The identity term carries the gradient back."


def saved_in_the_old_shape(started):
    # as the interview's own `to_dict` wrote it: one "run" per question, here at the model answer
    return {
        "question_ids": ["fx-interview"], "started_at": started.isoformat(),
        "time_limit_seconds": 600, "index": 0, "stage": "reveal", "shown_at": started.isoformat(),
        "runs": [{"question_id": "fx-interview", "answer": ANSWER, "confidence": 3, "seconds": 42.0,
                  "suggested": ["identity"], "ticked": [], "outcome": None, "skipped": False,
                  "timed_out": False, "attempt_id": None, "unassessed_key": HELD_KEY,
                  "rating": None, "due": None, "choices": []}],
    }


def test_an_interview_saved_before_comes_back_and_its_ticks_assess_the_held_answer(
        small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    started = utc_now() - timedelta(minutes=2)
    store.record_attempt(me.id, NewAttempt(
        "fx-interview", Verdict.WRONG, answer=ANSWER, seconds=42.0, confidence=3, mode="interview",
        slow_after_seconds=None, unassessed=True, key=HELD_KEY), now=started + timedelta(seconds=42))
    save_scratch(store, me.id, "interview", {"session": saved_in_the_old_shape(started), "typed": {}})

    at = open_page("interview")  # the reload: a new browser session finds the scratch work
    assert not at.exception
    interview = profile_state(at, "interview.session")
    assert interview.stage is Stage.REVEAL and interview.started_at == started
    assert any(t.value == ANSWER for t in at.text)  # her words, as plain text
    assert any(e.label == "Model answer" for e in at.expander)
    assert 470 < interview.time_left(utc_now()) <= 480  # the clock ran on from the start

    at = button(at, "Confirm my key points").click().run()  # "identity" pre-ticked from her text
    assert not at.exception
    (attempt,) = store.list_attempts(me.id)  # assessed in place: no second row
    assert (attempt.verdict, attempt.unassessed, attempt.rubric_ticks) == ("correct", False, ("identity",))
    assert attempt.answer == ANSWER and attempt.seconds == 42.0
    assert any("back" in m for m in texts(at.markdown))  # the rating recorded, as before
