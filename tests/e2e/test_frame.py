"""Browser tests of the app's frame and the pages around the learning loop: the current profile
(created, practised in, reloaded, imported into), the question list, the derivation checker
surviving a reload, Explore's widest net, the translated uploader. Each waits for a state
(`expect`), never for a time."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader import Verdict
from tests.e2e.learner_steps import main, pick_radio, submit_and_verdict, uploader_words
from tests.e2e.server import wait_idle
from tutor.sessions.explore import MLP_DEPTHS, MLP_MAX_WIDTH
from tutor.store import NewAttempt, ProgressStore
from tutor.transfer import export_json

TALL = {"width": 1400, "height": 1500}


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def picker(page):
    """The sidebar's profile picker (its input holds the shown profile's name)."""
    return sidebar(page).locator('[data-testid="stSelectbox"] input')


def nav(page, title: str) -> None:
    """Change page the way a learner does: the sidebar's navigation."""
    sidebar(page).locator('.st-key-site_nav').get_by_role("link", name=title).click()
    expect(main(page).locator("h1").first).to_have_text(title)
    wait_idle(page)


def rendered(page) -> None:
    """Wait for a freshly loaded page's first run to end (the shell's sidebar, the title)."""
    page.wait_for_selector('.st-key-site_nav', state="attached")
    main(page).locator("h1").first.wait_for()
    wait_idle(page)


def url_profile(page) -> str | None:
    found = re.search(r"[?&]profile=(\d+)", page.url)
    return found.group(1) if found else None


def store_of(app_server) -> ProgressStore:
    # the session server keeps its database next to its log (tests/e2e/conftest.py)
    return ProgressStore.open(f"sqlite:///{Path(app_server.log_path).parent / 'tutor.db'}")


def test_a_new_profile_is_current_through_practice_reload_and_import(
        page, goto, app_server, tmp_path, screenshot):
    page.set_viewport_size(TALL)
    name = f"Bo {uuid.uuid4().hex[:6]}"
    goto("dashboard", "en")
    first = url_profile(page)
    sidebar(page).get_by_role("button", name="New profile").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("button", name="Create", exact=True).click()
    expect(picker(page)).to_have_value(name)
    expect(page).not_to_have_url(re.compile(rf"[?&]profile={first}(&|$)"))
    wait_idle(page)
    bo = url_profile(page)
    screenshot("frame-new-profile-en")

    # practise: find the question in the list, open it in Practice, answer
    nav(page, "All questions")
    main(page).get_by_label("Search", exact=True).fill("basics-residual-block-form")
    main(page).get_by_label("Search", exact=True).press("Enter")
    link = main(page).locator('[data-testid="stPageLink"] a')
    expect(link).to_have_count(1)
    expect(link).to_have_attribute("href", re.compile(rf"q=basics-residual-block-form.*profile={bo}"))
    link.click()
    expect(main(page).locator("h1").first).to_have_text("Practice")
    wait_idle(page)
    pick_radio(page, 0)
    assert submit_and_verdict(page) == "Correct"
    expect(picker(page)).to_have_value(name)

    page.reload()
    rendered(page)
    expect(picker(page)).to_have_value(name)
    assert url_profile(page) == bo

    # import an export made on another machine: it lands in the new profile too
    other = ProgressStore.open(f"sqlite:///{tmp_path / 'other.db'}")
    them = other.create_profile("Ada")
    for qid in ("basics-residual-3d-example", "basics-residual-from-target"):
        other.record_attempt(them.id, NewAttempt(qid, Verdict.CORRECT, score=1.0))
    exported = tmp_path / "export.json"
    exported.write_text(export_json(other, them.id), encoding="utf-8")
    other.close()
    nav(page, "Dashboard")
    expect(main(page).locator('[data-testid="stMetric"]').first).to_contain_text("1")
    main(page).locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(exported)
    expect(main(page).locator('[data-testid="stFileChip"]')).to_have_count(1)
    main(page).get_by_role("button", name="Import", exact=True).click()
    expect(main(page).get_by_text("2 attempts imported, 2 of them first tries")).to_be_visible()
    expect(main(page).locator('[data-testid="stMetric"]').first).to_contain_text("3")
    expect(picker(page)).to_have_value(name)
    screenshot("frame-imported-into-new-profile-en")

    db = store_of(app_server)
    try:
        assert len(db.list_attempts(int(bo))) == 3
        assert {a.question_id for a in db.list_attempts(int(first))}.isdisjoint(
            {"basics-residual-3d-example", "basics-residual-from-target"})
    finally:
        db.close()


def test_two_tabs_keep_two_profiles(browser, app_url, app_server):
    db = store_of(app_server)
    try:
        names = [f"Tab {uuid.uuid4().hex[:6]}" for _ in range(2)]
        ids = [db.create_profile(n).id for n in names]
    finally:
        db.close()
    context = browser.new_context(viewport=TALL, locale="en-US")
    try:
        tabs = [context.new_page() for _ in names]
        for tab, profile in zip(tabs, ids, strict=True):
            tab.set_default_timeout(30_000)
            tab.goto(f"{app_url}/questions?lang=en&profile={profile}")
        for tab, name in zip(tabs, names, strict=True):
            rendered(tab)  # a new session's first run: the page's own timeout, not expect's 5 s
            expect(picker(tab)).to_have_value(name)
        tabs[0].reload()
        rendered(tabs[0])
        expect(picker(tabs[0])).to_have_value(names[0])
    finally:
        context.close()


def test_derivation_checker_highlights_the_broken_line(page, goto, screenshot):
    page.set_viewport_size(TALL)
    goto("derivation", "en")
    main(page).get_by_label("Symbols (comma-separated)").fill("x")
    main(page).get_by_label("Functions (comma-separated)").fill("F")
    main(page).get_by_label("Lines, one step per row", exact=True).fill(
        "diff(x + F(x), x)\ndiff(x, x) + diff(F(x), x)\n1 + F(x)")
    # Leaving the text box saves it (one rerun), then the click checks (another): wait for the
    # report, do not read the page once.
    main(page).get_by_role("button", name="Check each line").click()
    expect(main(page).get_by_text("Line 3 is the first line that does not follow; below, its check says which line it was compared with.").first).to_be_visible()
    expect(page.locator(".st-key-derivation_report")).to_contain_text("For example")
    screenshot("derivation-broken-en")


@pytest.mark.parametrize(("lang", "check", "refused", "verified", "symbols", "target"), [
    ("en", "Check each line", "The target cannot be read", "verified",
     "Symbols (comma-separated)", "Target (optional)"),
    ("zh", "逐行检查", "无法读取目标", "已验证", "符号（逗号分隔）", "目标（可选）"),
])
def test_derivation_checker_refuses_a_target_typo_and_survives_a_reload(
        page, goto, screenshot, lang, check, refused, verified, symbols, target):
    page.set_viewport_size(TALL)
    goto("derivation", lang)
    # By label, not by position: once "x" went into another box (the report then said "x is a
    # function"), on a busy machine with more boxes on the page
    main(page).get_by_label(symbols, exact=True).fill("x")
    target_box = main(page).get_by_label(target, exact=True)
    target_box.fill("2x +")  # the target, with a typo
    main(page).locator("textarea").fill("x + x\n3x\n2x")
    main(page).get_by_role("button", name=check).click()
    report = page.locator(".st-key-derivation_report")
    expect(report).to_contain_text(refused)
    expect(report.locator('[data-testid="stMarkdownContainer"]', has_text=verified)).to_have_count(1)
    expect(page).to_have_url(re.compile(r"lines=x\+%2B\+x"))
    screenshot(f"derivation-target-typo-{lang}")

    page.reload()
    rendered(page)
    expect(main(page).locator("textarea")).to_have_value("x + x\n3x\n2x")
    expect(page.locator(".st-key-derivation_report")).to_contain_text(refused)  # opens checked
    expect(target_box).to_have_value("2x +")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explore_widest_deepest_net_draws_its_chart(page, goto, screenshot, lang):
    page.set_viewport_size(TALL)
    goto("explore", lang)
    main(page).locator('[data-testid="stButtonGroup"] button').last.click()  # the deep MLP demo
    # Its first run loads torch; until it ends the previous demo's slider is still on screen.
    expect(main(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(1, timeout=60_000)
    expect(main(page).locator('[data-testid="stMetric"]')).to_have_count(2, timeout=60_000)
    wait_idle(page)
    sliders = main(page).locator('[data-testid="stSlider"]').get_by_role("slider")
    expect(sliders).to_have_count(3)
    plain_norm = main(page).locator('[data-testid="stMetricValue"]').first
    for index in (0, 1):  # depth, width: to their maximum; each redraws the demo
        before = plain_norm.inner_text()
        sliders.nth(index).focus()
        page.keyboard.press("End")
        expect(plain_norm).not_to_have_text(before, timeout=60_000)
        wait_idle(page)
    expect(sliders.nth(0)).to_have_value(str(MLP_DEPTHS[1]))
    expect(sliders.nth(1)).to_have_value(str(MLP_MAX_WIDTH))
    expect(main(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(1)
    expect(main(page).locator('[data-testid="stException"]')).to_have_count(0)
    screenshot(f"explore-mlp-widest-{lang}")


@pytest.mark.parametrize(("lang", "button", "note"), [
    ("en", "Choose a file", "A JSON export of Residual Tutor, up to 20 MB"),
    ("zh", "选择文件", "残差导师导出的 JSON 文件，最大 20 MB"),
])
def test_the_uploader_speaks_the_learners_language(page, goto, lang, button, note):
    goto("dashboard", lang)
    shown = uploader_words(page)
    assert shown == [f'"{button}"', f'"{note}"']
