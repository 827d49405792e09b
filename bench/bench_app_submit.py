"""Practice page: submit -> verdict shown, in headless Chromium, against the bare grader call.

For each (question, answer) case the page is opened on that question (`?q=<id>`), the answer is
typed (a formula box is committed with Enter, so its "interpreted as" preview is already shown),
and then, inside the browser, the timer starts at the click on "Submit answer" and stops when the
verdict element (`.st-key-verdict`) appears in the DOM. The baseline, timed in the same run, is
`quizbank.grading.grade` on the same answers in this process (the work the server does at the
core of a submit), and the floor of any Streamlit app here: a bare script with one form whose
submit shows a marker, measured the same way in the same browser.

    .venv/bin/python bench/bench_app_submit.py [--rounds 10]

Goal (issue 5): submit-to-verdict <= 150 ms median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quizbank import load_bank  # noqa: E402
from tests.e2e.learner_steps import (  # noqa: E402
    clear_drafts,
    open_question,
    pick_radio,
    type_formula,
)
from tests.e2e.server import (  # noqa: E402
    launch_chromium,
    start_server,
    stop_server,
    wait_idle,
    wait_ready,
)

# (question id, kind of input, answer): a right and a wrong answer of each text kind, and a choice.
CASES = [
    ("basics-residual-from-target", "text", "H(x) - x"),
    ("basics-residual-from-target", "text", "x - H(x)"),
    ("basics-residual-3d-example", "text", "[0.5, -0.2, 0.1]"),
    ("basics-residual-3d-example", "text", "[0.5, 0.2, 0.1]"),
    ("basics-residual-block-form", "choice", "a"),
    ("basics-residual-block-form", "choice", "b"),
]

BANK = load_bank()
CHOICE_OPTIONS = {q.id: [o.id for o in q.options] for q in BANK.by_type("choice")}

# Runs in the page: click submit, resolve when the verdict container is in the DOM. The question
# is opened fresh (its draft cleared), so no verdict is on screen before the click.
CLICK_AND_WAIT = """
async () => {
  const button = [...document.querySelectorAll(
      '[data-testid="stBaseButton-primary"], [data-testid="stBaseButton-primaryFormSubmit"]')]
    .find(b => b.offsetParent !== null && b.innerText.includes('Submit'));
  const seen = () => document.querySelector('.st-key-verdict');
  const t0 = performance.now();
  const done = new Promise(resolve => {
    const observer = new MutationObserver(() => {
      if (seen()) { observer.disconnect(); resolve(performance.now() - t0); }
    });
    observer.observe(document.body, {childList: true, subtree: true});
  });
  button.click();
  return await done;
}
"""


# The floor: a Streamlit form round trip with no work at all (same click-to-marker measurement).
FLOOR_APP = """
import streamlit as st
with st.form("f"):
    st.text_input("x")
    pressed = st.form_submit_button("Submit", type="primary")
if pressed:
    with st.container(key="verdict"):
        st.success("done")
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def answer_in_page(page, question_id: str, kind: str, answer: str) -> None:
    if kind == "text":
        type_formula(page, "Your answer", answer)  # Enter: the preview is shown
        page.locator('[data-testid="stMain"] .katex').first.wait_for()
    else:
        pick_radio(page, CHOICE_OPTIONS[question_id].index(answer))
    wait_idle(page)


def browser_times(base_url: str, database_url: str, repeats: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.set_default_timeout(30_000)
        for round_ in range(repeats + 1):  # round 0 warms up (grader worker, caches)
            for qid, kind, answer in CASES:
                # a fresh visit each time: the page would otherwise bring back the last one
                clear_drafts(database_url)
                open_question(page, base_url, qid)
                answer_in_page(page, qid, kind, answer)
                elapsed = page.evaluate(CLICK_AND_WAIT)
                if round_:
                    times.setdefault(kind, []).append(elapsed)
        browser.close()
    return times


def floor_times(browser_rounds: int, data: Path) -> list[float]:
    from playwright.sync_api import sync_playwright

    script = data / "floor_app.py"
    script.write_text(FLOOR_APP)
    server = start_server(script, log_path=data / "floor.log")
    times = []
    try:
        wait_ready(server)
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            for round_ in range(browser_rounds + 1):
                page.goto(server.url)
                page.wait_for_selector('[data-testid="stBaseButton-primaryFormSubmit"]')
                wait_idle(page)
                elapsed = page.evaluate(CLICK_AND_WAIT)
                if round_:
                    times.append(elapsed)
            browser.close()
    finally:
        stop_server(server)
    return times


def grader_times(repeats: int) -> dict[str, list[float]]:
    from quizbank.grading import grade

    bank = BANK
    times: dict[str, list[float]] = {}
    for qid, kind, answer in CASES:  # warm-up
        grade(bank.questions[qid], [answer] if kind == "choice" else answer)
    for _ in range(repeats):
        for qid, kind, answer in CASES:
            given = [answer] if kind == "choice" else answer
            start = time.perf_counter()
            grade(bank.questions[qid], given, lang="en")
            times.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10,
                        help="rounds over the cases (each round: 4 text and 2 choice submits)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as data:
        env = {"TUTOR_DATABASE_URL": f"sqlite:///{data}/bench.db"}
        server = start_server(ROOT / "streamlit_app.py", env=env, log_path=Path(data) / "server.log")
        try:
            wait_ready(server)
            browser = browser_times(server.url, env["TUTOR_DATABASE_URL"], args.rounds)
        finally:
            stop_server(server)
        floor = floor_times(len(CASES) * args.rounds, Path(data))
    bare = grader_times(args.rounds)

    rows = []
    for kind in sorted(browser):
        b, g = browser[kind], bare[kind]
        rows.append((kind, len(b), statistics.median(b), percentile(b, 95), statistics.median(g),
                     percentile(g, 95)))
    all_b = [x for v in browser.values() for x in v]
    all_g = [x for v in bare.values() for x in v]
    rows.append(("all", len(all_b), statistics.median(all_b), percentile(all_b, 95),
                 statistics.median(all_g), percentile(all_g, 95)))
    print("Practice submit -> verdict shown (headless Chromium) vs bare quizbank.grading.grade, ms")
    print(f"{'input':<8} {'n':>4} {'page p50':>9} {'page p95':>9} {'grader p50':>11} "
          f"{'grader p95':>11} {'page/grader p50':>16}")
    for kind, n, bp50, bp95, gp50, gp95 in rows:
        print(f"{kind:<8} {n:>4} {bp50:>9.1f} {bp95:>9.1f} {gp50:>11.2f} {gp95:>11.2f} "
              f"{bp50 / max(gp50, 1e-6):>16.1f}")
    print(f"{'floor':<8} {len(floor):>4} {statistics.median(floor):>9.1f} "
          f"{percentile(floor, 95):>9.1f}   (a bare Streamlit form, no work: the round-trip floor)")
    median = rows[-1][2]
    print(f"goal submit-to-verdict median <= 150 ms: {'met' if median <= 150 else 'NOT met'} "
          f"({median:.1f} ms)")


if __name__ == "__main__":
    main()
