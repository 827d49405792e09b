"""AppTest of the progress pages: review queue, mock interview end to end, dashboard."""

from datetime import timedelta

import pytest

from app_pages.widgets import resources
from grader import Verdict
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: F401
from tests.app.shell_helpers import profile_state
from tutor.store import NewAttempt, ProgressStore, utc_now


def record(db, profile, qid, verdict, confidence, *, days_ago=1, mode="practice"):
    db.record_attempt(
        profile.id,
        NewAttempt(qid, Verdict(verdict), score=1.0 if verdict == "correct" else 0.0, answer="a",
                   confidence=confidence, seconds=12.0, mode=mode),
        now=utc_now() - timedelta(days=days_ago),
    )


def test_review_serves_high_confidence_errors_first(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    record(store, me, "fx-ordering", "wrong", 1, days_ago=3)  # more overdue, but unsure
    record(store, me, "fx-choice", "wrong", 3, days_ago=1)  # sure and wrong: first
    at = open_page("review")
    assert [m.value for m in at.metric] == ["2", "1"]
    assert "sure" in at.warning[0].value
    assert any("Question fx-choice" in m for m in texts(at.markdown))


def test_review_with_nothing_due_says_so(small_bank, store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    record(store, me, "fx-choice", "correct", 3, days_ago=0)  # next due in the future
    at = open_page("review", lang="zh")
    assert at.success[0].value == "目前没有到期的题目，做得好！"
    assert any(c.value.startswith("稍后：") and "7 天内到期 1 道" in c.value for c in at.caption)


def test_mock_interview_end_to_end(small_bank, store, open_page):  # noqa: F811
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    assert any("Question fx-interview" in m for m in texts(at.markdown))
    at.text_area[0].input("The identity term keeps the gradient; an ensemble view too.")
    at.radio[0].set_value("high")
    at = button(at, "Submit and show the model answer").click().run()
    # suggested ticks are pre-checked from the keywords: identity and ensemble, not the misconception
    ticks = {c.label.split(" · ")[0]: c.value for c in at.checkbox}
    assert ticks == {"identity term": True, "ensemble view": True,
                     "gradients can never vanish": False}
    at = button(at, "Confirm my key points").click().run()
    assert at.success[0].value == "Correct"
    assert any("Question fx-expression" in m for m in texts(at.markdown))  # the follow-up
    assert "End the interview" not in [b.label for b in at.button]  # the last question: Finish
    at = button(at, "Finish").click().run()
    assert [m.value for m in at.metric] == ["1", "0", "1"]  # answered, skipped, all key points
    (profile,) = store.list_profiles()
    (attempt,) = store.list_attempts(profile.id)
    assert (attempt.question_id, attempt.verdict, attempt.mode) == ("fx-interview", "correct", "interview")
    assert attempt.confidence == 3 and set(attempt.rubric_ticks) == {"identity", "ensemble"}


def test_mock_interview_summary_lists_missed_points_and_links(small_bank, store, open_page):  # noqa: F811
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    at.text_area[0].input("Residuals make the network deeper.")
    at = button(at, "Submit and show the model answer").click().run()
    at = button(at, "Confirm my key points").click().run()
    assert at.error[0].value == "Not quite"
    at = button(at, "Finish").click().run()
    body = "\n".join(texts(at.markdown))
    assert "Key points you missed" in body and "identity term" in body
    labels = [b.label for b in at.button]
    assert "Question fx-interview" in labels and "Question fx-expression" in labels


def test_review_tells_a_new_learner_how_it_works(small_bank, store, open_page):  # noqa: F811
    at = open_page("review")
    assert not at.success  # not "well done" for having done nothing
    assert "comes back **tomorrow**" in "\n".join(texts(at.markdown))
    at = open_page("review", lang="zh")
    assert "**明天**" in "\n".join(texts(at.markdown))


def test_mock_interview_i_dont_know_records_a_failure_and_shows_the_model_answer(
        small_bank, store, open_page):  # noqa: F811
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    at = button(at, "I don't know: skip").click().run()
    assert "recorded as not known yet" in at.info[0].value
    assert any(e.label == "Model answer" for e in at.expander)
    assert any("back tomorrow" in m for m in texts(at.markdown))  # the rating recorded
    (profile,) = store.list_profiles()
    (attempt,) = store.list_attempts(profile.id)
    assert (attempt.verdict, attempt.answer, attempt.rating, attempt.counted) == ("wrong", "", 1, True)


def test_mock_interview_names_a_stated_misconception_as_such(small_bank, store, open_page):  # noqa: F811
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    at.text_area[0].input("The identity term means gradients never vanish.")
    at = button(at, "Submit and show the model answer").click().run()
    at = button(at, "Confirm my key points").click().run()
    assert at.warning[0].value == "You said this, and it is a misconception:"
    body = "\n".join(texts(at.markdown))
    assert "gradients can never vanish" in body and "Missed key points" not in body


def test_a_reload_brings_the_mock_interview_back_with_the_typed_answer(small_bank, store, open_page):  # noqa: F811
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    at.text_area[0].input("Half an answer").run()
    started = profile_state(at, "interview.session").started_at
    again = open_page("interview")  # a new browser session on the same profile
    assert profile_state(again, "interview.session").started_at == started
    assert again.text_area[0].value == "Half an answer"
    assert any("Question 1 of 1" in c.value for c in again.caption)


def test_dashboard_with_data_shows_totals_and_charts(store, open_page):  # noqa: F811
    me = store.create_profile("Ada")
    bank_ids = list(resources.bank().questions)[:4]
    for k, qid in enumerate(bank_ids):
        record(store, me, qid, "correct" if k % 2 == 0 else "wrong", 3, days_ago=k)
    at = open_page("dashboard")
    assert [m.value for m in at.metric][:2] == ["4", "50%"]
    assert len(at.get("vega_lite_chart")) == 4


def test_dashboard_without_attempts_invites_practice(store, open_page):  # noqa: F811
    store.create_profile("Ada")
    at = open_page("dashboard", lang="zh")
    assert at.metric[0].value == "0"
    assert "还没有作答记录" in at.info[0].value


@pytest.mark.parametrize(
    "content",
    [b"{not json", b'{"format": "something-else"}', b'{"format": "residual-tutor-progress", "format_version": 1}'],
    ids=["not-json", "wrong-format", "invalid"],
)
def test_dashboard_refuses_a_malformed_import_and_changes_nothing(store, open_page, content):  # noqa: F811
    me = store.create_profile("Ada")
    record(store, me, "fx-choice", "correct", 2)
    before = store.list_attempts(me.id)
    at = open_page("dashboard", lang="zh")
    at.file_uploader(key="dashboard.upload").upload("export.json", content, "application/json")
    at = button(at, "导入").click().run()
    assert at.error[0].value == "无法导入此文件，未做任何改动。"
    assert store.list_attempts(me.id) == before
    assert not at.exception


def test_dashboard_imports_an_export_from_another_machine(store, open_page, tmp_path):  # noqa: F811
    from tutor.transfer import export_json

    other = ProgressStore.open(f"sqlite:///{tmp_path / 'other.db'}")
    them = other.create_profile("Ada")
    for qid in ("fx-choice", "fx-numeric", "fx-ordering"):
        record(other, them, qid, "correct", 3)
    # a retry and an answer after the solution: imported, kept, but not first tries
    for phase in ("retry", "after_reveal"):
        other.record_attempt(them.id, NewAttempt("fx-choice", Verdict.WRONG, phase=phase))
    exported = export_json(other, them.id).encode("utf-8")
    other.close()
    me = store.create_profile("Ada")
    at = open_page("dashboard")
    at.file_uploader(key="dashboard.upload").upload("export.json", exported, "application/json")
    at = button(at, "Import").click().run()
    assert at.success[0].value == ("5 attempts imported, 3 of them first tries "
                                   "(0 already here were skipped).")
    assert len(store.list_attempts(me.id)) == 5
    assert at.metric[0].value == "3"  # "Attempts" counts first tries: the message says both
