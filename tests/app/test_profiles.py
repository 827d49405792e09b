"""The current profile: chosen once in the app's frame (the shell's sidebar), kept in the URL,
read by every page through `app_pages.widgets.current_profile.current_profile_id`."""

import pytest
from streamlit.testing.v1 import AppTest

from grader import Verdict
from tests.app.learner_fixtures import button, database_url, open_page  # noqa: F401
from tests.app.shell_helpers import APP, TIMEOUT
from tutor.sessions.profiles import choose_profile, parse_profile_id
from tutor.store import NewAttempt, ProgressStore
from tutor.transfer import export_json


def shell(page: str = "dashboard", lang: str = "en", **params) -> AppTest:
    """The whole app (shell + page), as a browser opening `/<page>?lang=..&...` would run it."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = str(value)
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def picker(at):
    return at.sidebar.selectbox(key="profile.picker")


def create(at, name: str, label: str = "Create") -> AppTest:
    at.text_input(key="profile.new_name").input(name)
    return button(at, label).click().run()


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3), (3, 3), (" 12 ", 12), ("", None), (None, None), ("abc", None), ("-1", None),
     ("1.5", None), ("３", None), (True, None), ("9" * 30, None)],
)
def test_parse_profile_id(value, expected):
    assert parse_profile_id(value) == expected


def test_choose_profile_prefers_the_wanted_one_then_the_first(store):
    assert choose_profile(store, None, default_name="Mine").name == "Mine"  # empty store: made
    ada = store.create_profile("Ada")
    assert choose_profile(store, str(ada.id), default_name="x").id == ada.id
    assert choose_profile(store, "999", default_name="x").name == "Mine"
    assert len(store.list_profiles()) == 2


def test_first_visit_makes_a_profile_and_puts_it_in_the_url(store):
    at = shell(lang="zh")
    (made,) = store.list_profiles()
    assert made.name == "我的档案"
    assert picker(at).value == made.id
    assert at.query_params["profile"] == str(made.id)


def test_a_new_profile_is_current_at_once_everywhere(store):
    at = shell()
    at = create(at, "Bo")
    bo = next(p for p in store.list_profiles() if p.name == "Bo")
    assert at.session_state["profile_id"] == bo.id
    assert picker(at).value == bo.id
    assert at.query_params["profile"] == str(bo.id)
    assert at.text_input(key="profile.new_name").value == ""  # ready for another name
    at.switch_page("app_pages/review.py").run()  # another page: still Bo
    assert not at.exception and picker(at).value == bo.id


def test_a_taken_name_is_refused_in_the_learners_language(store):
    store.create_profile("Bo")
    at = create(shell(lang="zh"), "Bo", label="创建")
    assert "已存在名为“Bo”的档案。" in [e.value for e in at.error]
    assert len(store.list_profiles()) == 1


def test_the_url_profile_survives_a_reload(store):
    store.create_profile("Ada")
    bo = store.create_profile("Bo")
    at = shell(profile=bo.id)  # a reload keeps the URL
    assert picker(at).value == bo.id and at.session_state["profile_id"] == bo.id
    assert not at.warning


def test_picking_a_profile_moves_the_url_and_the_page(store):
    ada, bo = store.create_profile("Ada"), store.create_profile("Bo")
    store.record_attempt(bo.id, NewAttempt("basics-residual-block-form", Verdict.CORRECT, score=1.0))
    at = shell()
    assert picker(at).value == ada.id and at.metric[0].value == "0"
    at = picker(at).set_value(bo.id).run()
    assert at.query_params["profile"] == str(bo.id)
    assert at.metric[0].value == "1"  # the dashboard reads the picked profile


def test_an_unknown_profile_in_a_link_falls_back_and_says_so(store):
    ada = store.create_profile("Ada")
    at = shell(profile=999)
    assert picker(at).value == ada.id
    assert at.query_params["profile"] == str(ada.id)
    assert "no longer exists" in at.sidebar.warning[0].value


def test_an_import_lands_in_the_profile_the_picker_shows(store, tmp_path):
    other = ProgressStore.open(f"sqlite:///{tmp_path / 'other.db'}")
    them = other.create_profile("Ada")
    for qid in ("basics-residual-block-form", "basics-residual-3d-example"):
        other.record_attempt(them.id, NewAttempt(qid, Verdict.CORRECT, score=1.0))
    exported = export_json(other, them.id).encode("utf-8")
    other.close()
    at = create(shell(), "Bo")
    at.file_uploader(key="dashboard.upload").upload("export.json", exported, "application/json")
    at = button(at, "Import").click().run()
    by_name = {p.name: p.id for p in store.list_profiles()}
    assert len(store.list_attempts(by_name["Bo"])) == 2
    assert store.list_attempts(by_name["My profile"]) == []
    assert picker(at).value == by_name["Bo"] and at.metric[0].value == "2"


def test_the_first_visits_profile_is_named_in_the_current_language(store):
    store.create_profile("My profile")  # made by a first visit in English
    store.create_profile("Ada")
    at = shell("explore", lang="zh")
    assert picker(at).options == ["我的档案", "Ada"]  # the labels as shown


def test_a_page_run_without_the_shell_resolves_the_profile_the_same_way(store, open_page):  # noqa: F811
    store.create_profile("Ada")
    bo = store.create_profile("Bo")
    at = open_page("dashboard", profile=str(bo.id))
    assert at.session_state["profile_id"] == bo.id
