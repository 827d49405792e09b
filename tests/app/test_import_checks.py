"""AppTest of the dashboard's import (issue 16, item 2): an export dated in the future is refused
with a message, and attempts for questions this bank does not have are kept and reported."""

import json
from datetime import timedelta

import pytest

from grader import Verdict
from tests.app.learner_fixtures import button, database_url, open_page  # noqa: F401
from tutor.store import NewAttempt, ProgressStore, utc_now
from tutor.transfer import export_json


def an_export(tmp_path, question_ids, *, days_ago=1) -> bytes:
    other = ProgressStore.open(f"sqlite:///{tmp_path / 'other.db'}")
    them = other.create_profile("Ada")
    for qid in question_ids:
        other.record_attempt(them.id, NewAttempt(qid, Verdict.CORRECT, score=1.0, answer="a"),
                             now=utc_now() - timedelta(days=days_ago))
    exported = export_json(other, them.id)
    other.close()
    return exported.encode("utf-8")


def do_import(at, data: bytes):
    at.file_uploader(key="dashboard.upload").upload("export.json", data, "application/json")
    return button(at, "导入" if at.session_state["lang"] == "zh" else "Import").click().run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unknown_questions_are_kept_and_the_page_says_how_many(small_bank, store, open_page,  # noqa: F811
                                                               tmp_path, lang):
    me = store.create_profile("Ada")
    data = an_export(tmp_path, ["fx-choice", "gone-1", "gone-1", "gone-2"])
    at = do_import(open_page("dashboard", lang=lang), data)
    assert not at.exception
    expected = {"en": "3 imported attempts are for 2 questions this bank does not have. They were kept",
                "zh": "导入的记录中有 3 条属于本题库没有的 2 道题。这些记录已保留"}[lang]
    assert at.info[0].value.startswith(expected)
    assert len(store.list_attempts(me.id)) == 4


def test_an_export_from_the_future_is_refused(small_bank, store, open_page, tmp_path):  # noqa: F811
    me = store.create_profile("Ada")
    data = json.loads(an_export(tmp_path, ["fx-choice"]))
    data["attempts"][0]["created_at"] = (utc_now() + timedelta(days=30)).isoformat()
    at = do_import(open_page("dashboard"), json.dumps(data).encode("utf-8"))
    assert at.error[0].value == "This file cannot be imported; nothing was changed."
    assert "dated in the future" in at.text[0].value
    assert store.list_attempts(me.id) == []
