"""AppTest of the mock interview (issue 16, item 4): at 00:00 the answer as typed is kept and
submitted with a note; the summary gives the time per question; finished interviews are listed
with their summaries."""

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app_pages.state import PROFILE_KEY, profile_key
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: F401
from tests.app.shell_helpers import profile_state
from tutor.store import ProgressStore, utc_now


def started(open_page, lang="en"):  # noqa: F811
    at = open_page("interview", lang=lang)
    at.slider(key="interview.count").set_value(1)
    return button(at, "Start the interview" if lang == "en" else "开始面试").click().run()


def run_out_the_clock(at):
    session = profile_state(at, "interview.session")
    elapsed = (utc_now() - session.started_at).total_seconds()
    at.session_state[profile_key("interview.session", at.session_state[PROFILE_KEY])] = replace(
        session, time_limit_seconds=elapsed - 1)
    return at.run()


def test_at_zero_the_typed_answer_is_submitted_with_a_note(small_bank, database_url, open_page):  # noqa: F811
    at = started(open_page)
    at.text_area[0].input("The identity term keeps the gradient.")
    at = run_out_the_clock(at)
    assert not at.exception
    assert any(w.value.startswith("Time ran out at 00:00: your answer was kept and submitted")
               for w in at.warning)
    assert "The identity term keeps the gradient." in [t.value for t in at.text]  # as typed
    assert not at.text_area  # no longer editable: the ticks come next
    at = button(at, "Confirm my key points").click().run()
    at = button(at, "Finish").click().run()
    body = "\n".join(texts(at.markdown))
    assert "Time per question" in body and "submitted at 00:00" in body


def test_at_zero_with_nothing_typed_the_question_is_not_known(
        small_bank, database_url, open_page):  # noqa: F811
    at = run_out_the_clock(started(open_page, lang="zh"))
    assert any(w.value.startswith("00:00 时间到，你还没有输入答案") for w in at.warning)
    db = ProgressStore.open(database_url)
    (profile,) = db.list_profiles()
    (attempt,) = db.list_attempts(profile.id)
    db.close()
    assert (attempt.verdict, attempt.answer, attempt.mode) == ("wrong", "", "interview")


def test_a_finished_interview_is_listed_with_its_summary(small_bank, database_url, open_page):  # noqa: F811
    at = started(open_page)
    at.text_area[0].input("Residuals make the network deeper.")
    at = button(at, "Submit and show the model answer").click().run()
    at = button(at, "Confirm my key points").click().run()
    at = button(at, "Finish").click().run()
    body = "\n".join(texts(at.markdown)).replace("\\", "")  # titles are Markdown-escaped
    assert "Time per question" in body and "Question fx-interview · key points missed · 00:" in body
    at = button(at, "Start another interview").click().run()
    (past,) = [e for e in at.expander if "0 with all key points" in e.label]
    assert "1 of 1 answered" in past.label
    assert any("fx\\-interview · key points missed" in m for m in texts(past.markdown))
    at.run()  # the summary is added once, however often the page runs
    db = ProgressStore.open(database_url)
    (profile,) = db.list_profiles()
    assert len(db.get_settings(profile.id)["interview_history"]) == 1
    db.close()


def test_a_history_from_an_edited_import_is_shown_safely(small_bank, database_url, open_page):  # noqa: F811
    db = ProgressStore.open(database_url)
    me = db.create_profile("Ada")
    good = {"started_at": "s1", "finished_at": "2026-11-02T10:00:00+00:00", "asked": 1,
            "answered": 1, "correct": 0, "missed": 2, "questions": [
                {"question_id": "**bold** <b>x</b>", "verdict": "wrong", "skipped": False,
                 "timed_out": False, "seconds": 61.0}]}
    bad = [{"started_at": "s2"}, {**good, "missed": "many"}, "text",
           {**good, "questions": [{**good["questions"][0], "verdict": "evil"}]}]
    db.set_setting(me.id, "interview_history", [good, *bad])
    db.close()
    at = open_page("interview")
    assert not at.exception
    (past,) = [e for e in at.expander if "answered" in e.label]
    (line,) = [m.value for m in past.markdown]
    assert "\\*\\*bold\\*\\*" in line and "01:01" in line  # escaped: shown as typed


@pytest.mark.parametrize(("lang", "dont_know", "finish", "answered", "skipped"), [
    ("en", "I don't know: skip", "Finish", "Answered", "Skipped (\"I don't know\")"),
    ("zh", "我不会：跳过", "完成", "已回答", "跳过（“我不知道”）"),
])
def test_i_dont_know_is_counted_as_skipped_in_the_summary(
        small_bank, database_url, open_page, lang, dont_know, finish, answered, skipped):  # noqa: F811
    at = started(open_page, lang=lang)
    at = button(at, dont_know).click().run()
    at = button(at, finish).click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics[answered], metrics[skipped]) == ("0", "1")


def test_the_interview_starts_on_29_february(small_bank, database_url, open_page, monkeypatch):  # noqa: F811
    """Issue 27, item 5: the page computed `now.replace(year=now.year - 1)`, which raises on a
    leap day, so starting an interview showed a traceback every 29 February."""
    import tutor.store.progress

    leap_day = datetime(2028, 2, 29, 9, 30, tzinfo=UTC)

    class LeapDayClock(datetime):  # every holder of `utc_now` reads this one clock
        @classmethod
        def now(cls, tz=None):
            return leap_day.astimezone(tz)

    monkeypatch.setattr(tutor.store.progress, "datetime", LeapDayClock)
    at = started(open_page)
    assert not at.exception
    assert profile_state(at, "interview.session").started_at == leap_day
    assert at.text_area  # the first question, waiting for the answer
