"""Class mode in a real browser against a real OpenID Connect provider process
(`oidc-provider-mock`, started here): a learner signs in, practises and signs out; another
learner cannot see the first one's attempts by any route tried; an instructor sees the Class page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.class_fixtures import (  # noqa: F401 - the provider fixture
    nav_links,
    provider,
    sidebar,
    sign_in,
)
from tests.e2e.learner_steps import main, pick_radio, submit_and_verdict
from tests.e2e.server import ROOT, free_port, start_server, stop_server, wait_idle, wait_ready
from tutor.store import ProgressStore

QUESTION = "basics-residual-block-form"  # a choice question: option 0 is right


@pytest.fixture(scope="module")
def class_server(provider, tmp_path_factory):  # noqa: F811 - the provider fixture
    folder = tmp_path_factory.mktemp("class-app")
    port = free_port()
    secrets = folder / "secrets.toml"
    secrets.write_text(
        "[auth]\n"
        f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        'cookie_secret = "e2e-only-cookie-secret"\n'
        'client_id = "residual-tutor"\n'
        'client_secret = "e2e-only-client-secret"\n'
        f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n'
        "[roles]\n"
        'instructor_emails = ["lee@school.test"]\n'
    )
    database_url = f"sqlite:///{folder / 'progress.db'}"
    server = start_server(ROOT / "streamlit_app.py", port=port,
                          env={"TUTOR_DATABASE_URL": database_url,
                               "STREAMLIT_SECRETS_FILES": str(secrets)},
                          log_path=folder / "server.log")
    server.database_url = database_url
    try:
        wait_ready(server)
        yield server
    finally:
        stop_server(server)


def test_learners_sign_in_practise_sign_out_and_see_only_their_own(class_server, person,
                                                                   screenshot):
    base = class_server.url
    ada = person()
    sign_in(ada, base, "ada-sub")
    expect(sidebar(ada)).to_contain_text("Signed in as Ada")
    assert not sidebar(ada).locator('[data-testid="stSelectbox"]').count()  # no picker
    assert "Practice" in nav_links(ada)
    assert not {"Class", "Author", "Analytics"} & nav_links(ada)
    ada.goto(f"{base}/?lang=en&q={QUESTION}")
    wait_idle(ada)
    pick_radio(ada, 0)
    assert submit_and_verdict(ada) == "Correct"
    screenshot("class-learner-practised", page=ada)

    store = ProgressStore.open(class_server.database_url)
    profiles = {p.name: p.id for p in store.list_profiles()}
    assert store.count_attempts(profiles["Ada"]) == 1

    # Bo, in another browser: his own empty profile, whatever route he tries
    bo = person()
    sign_in(bo, base, "bo-sub")
    profiles = {p.name: p.id for p in store.list_profiles()}
    for route in (f"dashboard?lang=en&profile={profiles['Ada']}", "dashboard?lang=en",
                  f"questions?lang=en&profile={profiles['Ada']}", "class?lang=en"):
        bo.goto(f"{base}/{route}")
        bo.wait_for_selector('.st-key-site_nav', state="attached")
        wait_idle(bo)
        expect(main(bo)).not_to_contain_text("Learners")  # never the Class page
        assert "profile=" not in bo.url
    bo.goto(f"{base}/dashboard?lang=en&profile={profiles['Ada']}")
    wait_idle(bo)
    expect(main(bo).locator('[data-testid="stMetricValue"]').first).to_have_text("0")
    assert store.count_attempts(profiles["Bo"]) == 0

    # Ada signs out: back to the login screen, and a reload does not sign her in again
    sidebar(ada).get_by_role("button", name="Sign out").click()
    # Streamlit ends the session at the provider too (RP-initiated logout): the mock asks first
    ada.get_by_role("button", name="End session").click()
    ada.wait_for_url(f"{base}/**")
    expect(main(ada).get_by_role("button", name="Sign in")).to_be_visible()
    ada.goto(f"{base}/dashboard?lang=en")
    expect(main(ada).get_by_role("button", name="Sign in")).to_be_visible()
    store.close()


def test_an_instructor_sees_the_class_page(class_server, person, screenshot):
    base = class_server.url
    learner = person()
    sign_in(learner, base, "ada-sub")  # at least one learner in the class
    lee = person()
    sign_in(lee, base, "lee-sub")
    assert {"Class", "Author", "Analytics"} <= nav_links(lee)
    sidebar(lee).locator('.st-key-site_nav').get_by_role("link", name="Class").click()
    expect(main(lee).locator("h1").first).to_have_text("Class")
    wait_idle(lee)
    expect(main(lee).locator('[data-testid="stDataFrame"]').first).to_be_visible()
    expect(sidebar(lee)).to_contain_text("Instructor")
    screenshot("class-instructor-class-page", page=lee)


@pytest.mark.parametrize(("locale", "lang", "switch_to", "sign_in_label", "signed_in", "nav"), [
    ("en-US", "zh", "中文", "登录", "已登录：Ada", "练习"),
    ("zh-CN", "en", "English", "Sign in", "Signed in as Ada", "Practice"),
])
def test_the_language_chosen_on_the_login_screen_survives_signing_in(
        class_server, person, screenshot, locale, lang, switch_to, sign_in_label, signed_in, nav):
    base = class_server.url
    page = person(locale)
    page.goto(f"{base}/")  # a bare address: the browser's language, until the learner switches
    first_label = "Sign in" if locale.startswith("en") else "登录"
    expect(main(page).get_by_role("button", name=first_label)).to_be_visible()
    main(page).get_by_role("radio", name=switch_to).click()
    expect(main(page).get_by_role("button", name=sign_in_label)).to_be_visible()
    wait_idle(page)
    screenshot(f"class-login-screen-{lang}", page=page)
    main(page).get_by_role("button", name=sign_in_label).click()
    page.get_by_role("button", name="ada-sub", exact=True).click()  # the provider's form
    page.wait_for_url(f"{base}/**")
    page.wait_for_selector('.st-key-site_nav', state="attached")
    wait_idle(page)
    # Back from the provider at a bare "/", in a new session: still the language chosen.
    expect(sidebar(page)).to_contain_text(signed_in)
    assert nav in nav_links(page)
    assert f"lang={lang}" in page.url
    screenshot(f"class-signed-in-{lang}", page=page)
