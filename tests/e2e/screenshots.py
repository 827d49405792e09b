"""Screenshots of every page at desktop (1400x1000) and phone (390x844) size, in 中文 and English,
for a person to look at (not a test: nothing is asserted).

    .venv/bin/python -m tests.e2e.screenshots                     # every page
    .venv/bin/python -m tests.e2e.screenshots --pages explore,dashboard --sizes phone

The app runs on a fresh progress database holding a small history (answers over two years, a due
review, a finished mock interview), so the progress pages show something. Explore is shot once per
demo. The PNGs go to artifacts/screenshots/ (git-ignored), named `<page>-<lang>-<size>.png`.
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import timedelta
from pathlib import Path

from app_pages import PAGES
from grader import Verdict
from tests.e2e.conftest import open_page, save_screenshot
from tests.e2e.server import ROOT, launch_chromium, start_server, stop_server, wait_idle, wait_ready

SIZES = {"desktop": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}
LANGS = ("zh", "en")
EXPLORE_DEMOS = 4  # the segmented control's buttons, in order


def seed_history(database_url: str) -> None:
    """A learner with answers over two calendar years, one review due and a past interview, and
    a second learner with no answers yet."""
    from tutor.interview import HISTORY_SETTING
    from tutor.store import NewAttempt, ProgressStore, utc_now

    now = utc_now()
    db = ProgressStore.open(database_url)
    try:
        me = db.create_profile("Ada")
        db.create_profile("Bo")  # a learner who has not answered yet (the Class page's "no data")
        history = [
            ("basics-residual-block-form", "wrong", "b", 3, 400),
            ("basics-residual-from-target", "correct", "H(x) - x", 2, 380),
            ("basics-residual-3d-example", "correct", "[0.5, -0.2, 0.1]", 3, 20),
            ("basics-residual-from-target", "wrong", "x - H(x)", 3, 3),
            ("iv-what-does-residual-solve", "partial", "It fixes degradation.", 2, 1),
        ]
        for qid, verdict, answer, confidence, days_ago in history:
            db.record_attempt(me.id, NewAttempt(qid, Verdict(verdict), score=float(verdict == "correct"),
                                                answer=answer, confidence=confidence),
                              now=now - timedelta(days=days_ago))
        db.set_setting(me.id, HISTORY_SETTING, [{
            "started_at": (now - timedelta(days=1, minutes=9)).isoformat(),
            "finished_at": (now - timedelta(days=1)).isoformat(), "time_limit_seconds": 480.0,
            "asked": 2, "answered": 2, "correct": 1, "missed": 1, "misconceptions": 0,
            "questions": [
                {"question_id": "iv-what-does-residual-solve", "verdict": "correct",
                 "skipped": False, "timed_out": False, "seconds": 151.0},
                {"question_id": "iv-preln-vs-postln", "verdict": "wrong", "skipped": False,
                 "timed_out": True, "seconds": 329.0},
            ]}])
    finally:
        db.close()


def shoot(page, base_url: str, page_name: str, lang: str, size: str) -> list[Path]:
    page.set_viewport_size(SIZES[size])
    # the first page is the app's default: its address is "/" (its own path is "not found")
    open_page(page, base_url, "" if page_name == PAGES[0].url_path else page_name, lang)
    if page_name != "explore":
        return [save_screenshot(page, f"{page_name}-{lang}-{size}")]
    shots = []
    for k in range(EXPLORE_DEMOS):
        page.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button').nth(k).click()
        wait_idle(page)
        page.wait_for_timeout(600)  # charts and the diagram draw after the run
        shots.append(save_screenshot(page, f"explore-{k + 1}-{lang}-{size}"))
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(p.url_path for p in PAGES))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--langs", default=",".join(LANGS))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="tutor-screenshots-"))
    database_url = f"sqlite:///{folder / 'progress.db'}"
    seed_history(database_url)
    server = start_server(ROOT / "streamlit_app.py", env={"TUTOR_DATABASE_URL": database_url},
                          log_path=folder / "server.log")
    try:
        wait_ready(server)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            context = browser.new_context(locale="en-US")
            page = context.new_page()
            page.set_default_timeout(60_000)
            for page_name in args.pages.split(","):
                for lang in args.langs.split(","):
                    for size in args.sizes.split(","):
                        for path in shoot(page, server.url, page_name, lang, size):
                            print(path.relative_to(ROOT))
            browser.close()
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()
