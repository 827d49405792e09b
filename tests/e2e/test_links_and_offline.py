"""Every link form the README documents opens its page, in both languages, with no "Page not found"
dialog; and no page fetches anything from off this machine (the app must work offline: the
favicon came from Google's font CDN). Issue 22."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.learner_steps import main, open_url
from tutor.i18n import t
from tutor.sessions.derivation_check import SHARE_KEY_PREFIX, new_share_token, share_value
from tutor.store import ProgressStore
from tutor.store.scratch import save_scratch

QUESTION = "basics-residual-block-form"
PROMPT = {"en": "A plain network block is written", "zh": "普通神经网络模块写为"}


def no_page_not_found(page) -> None:
    # Streamlit's own dialog, in English whatever the app's language.
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.get_by_role("dialog")).to_have_count(0)


def heading(page) -> str:
    return main(page).locator("h1").first.inner_text()


def saved_share(app_server, name: str):
    """A derivation saved for a short link (`?share=<profile>-<id>`), as the page saves one (after
    the autouse fixture that clears every draft before a test)."""
    db = ProgressStore.open(app_server.database_url)
    try:
        profile = db.create_profile(name)
        token = new_share_token()
        save_scratch(db, profile.id, SHARE_KEY_PREFIX + token,
                   {"symbols": "x", "lines": "x + x\n2 x"})
    finally:
        db.close()
    return profile, share_value(profile.id, token)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("link", [f"practice?q={QUESTION}",  # All questions' link (README)
                                  f"practice?q={QUESTION}&seed=3",
                                  f"?q={QUESTION}&seed=3"])  # the URL Practice keeps
def test_a_practice_link_opens_the_question(page, app_url, lang, link):
    open_url(page, f"{app_url}/{link}&lang={lang}")
    no_page_not_found(page)
    assert heading(page) == t("practice.title", lang)
    expect(main(page).get_by_text(PROMPT[lang]).first).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_other_documented_links_open_their_pages(page, app_url, app_server, lang):
    profile, share = saved_share(app_server, f"Link reader {lang}")
    open_url(page, f"{app_url}/exercises?template=linear_residual_block&seed=5&difficulty=easy"
                   f"&lang={lang}")
    no_page_not_found(page)
    assert heading(page) == t("exercises.title", lang)
    assert "seed=5" in page.url and "template=linear_residual_block" in page.url

    open_url(page, f"{app_url}/derivation?share={share}&lang={lang}")
    no_page_not_found(page)
    assert heading(page) == t("derivation.title", lang)
    lines = main(page).get_by_label(t("derivation.lines_label", lang), exact=True)
    expect(lines).to_have_value("x + x\n2 x")

    open_url(page, f"{app_url}/questions?lang={lang}&profile={profile.id}")
    no_page_not_found(page)
    assert heading(page) == t("questions.title", lang)
    picker = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"] input')
    expect(picker).to_have_value(f"Link reader {lang}")  # ?profile= chose it
    assert f"profile={profile.id}" in page.url


LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def tab_icons(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)")


def wait_for_the_apps_own_icon(page, app_url) -> None:
    """The first page a fresh server process draws gives no icon (app_pages.favicon: reading an
    image icon imports numpy and PIL, which that page must not wait for), so Streamlit shows that
    page's Material icon, from Google's CDN, once. From the next run on, the app's own icon is
    served: wait for it, then record."""
    for _ in range(60):
        open_url(page, f"{app_url}/?lang=en")
        page.wait_for_timeout(500)
        if any("/media/" in icon for icon in tab_icons(page)):
            return
        page.wait_for_timeout(500)
    pytest.fail(f"the app never gave its own tab icon: {tab_icons(page)}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_page_fetches_anything_from_off_this_machine(page, app_url, lang):
    wait_for_the_apps_own_icon(page, app_url)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for path in ("", f"practice?q={QUESTION}", "derivation", "author"):
        sep = "&" if "?" in path else "?"
        open_url(page, f"{app_url}/{path}{sep}lang={lang}")
        page.wait_for_timeout(500)  # the favicon is set after the page config arrives
        assert any("/media/" in icon for icon in tab_icons(page)), tab_icons(page)
    # The Author page's code editor (a component in its own frame) loads its theme late.
    page.frame_locator('iframe[title="code_editor.code_editor"]').locator(".ace_content").wait_for()
    page.wait_for_timeout(1000)
    assert requests, "the request log is empty: the listener did not work"
    elsewhere = sorted({u for u in requests if urlsplit(u).scheme not in ("data", "blob")
                        and urlsplit(u).hostname not in LOCAL_HOSTS})
    assert elsewhere == []
