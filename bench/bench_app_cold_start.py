"""Cold start of the app: server process start -> first page rendered in headless Chromium.

Each run starts a fresh `streamlit run` process, waits for its health check, opens the page in an
already running headless Chromium (a fresh browser context, so nothing is cached) and stops the
clock when the page's heading is visible and the script run has finished. The baseline is a bare
`st.title("hello")` app measured the same way in the same session, so the ratio is our overhead
over Streamlit's own start-up. Runs alternate between the two apps so drift hits both alike.

    .venv/bin/python bench/bench_app_cold_start.py [--runs 7] [--page explore] [--browser-cache]

Goal (issue 11): the first page <= 1.3x the bare app's time, medians of the same run (absolute
seconds move with the shared machine's load; the ratio much less). `bench/cold_start_stages.py`
shows where a cold start's time goes, stage by stage.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_RATIO = 1.3  # our median over the bare app's median, measured in the same run
BASELINE = "baseline: st.title('hello')"


def _harness():
    # The browser tests' server harness, loaded by path (tests/ is not an installed package).
    spec = importlib.util.spec_from_file_location("e2e_server", ROOT / "tests" / "e2e" / "server.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def cold_start(harness, browser, script: Path, url_path: str, env: dict, workdir: Path,
               *, port: int | None = None, context=None) -> tuple[float, float]:
    """Seconds from spawning the server to (its health check answering, the first page's heading
    rendered and the script run finished). A fresh browser context unless one is given."""
    started = time.perf_counter()
    server = harness.start_server(script, env=env, log_path=workdir / "server.log",
                                  cwd=script.parent, port=port)
    own_context = context is None
    try:
        harness.wait_ready(server, poll=0.01)
        ready = time.perf_counter() - started
        if own_context:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/{url_path}", wait_until="commit")
        page.locator('[data-testid="stMain"] h1').first.wait_for(state="visible", timeout=60_000)
        page.wait_for_selector(harness.APP_IDLE, timeout=60_000)
        elapsed = time.perf_counter() - started
        page.close()
        return ready, elapsed
    except Exception:
        print(f"cold start of {script} failed; server log:\n{server.log()}", file=sys.stderr)
        raise
    finally:
        if own_context and context is not None:
            context.close()
        harness.stop_server(server)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (with 7 runs, p95 is the slowest run)."""
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--page", default="", help="url path of the page to open (default: the first page)")
    parser.add_argument("--browser-cache", action="store_true",
                        help="keep one browser profile per app (a returning visitor: Streamlit's "
                             "static files come from the HTTP cache); default: a new profile per run")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    harness = _harness()
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as tmp:
        workdir = Path(tmp)
        baseline = workdir / "baseline" / "hello_app.py"
        baseline.parent.mkdir()
        baseline.write_text('import streamlit as st\n\nst.title("hello")\n')
        env = {"TUTOR_DATABASE_URL": f"sqlite:///{workdir / 'tutor.db'}"}
        apps = {
            BASELINE: (baseline, ""),
            f"residual tutor: /{args.page}": (ROOT / "streamlit_app.py", args.page),
        }
        times: dict[str, list[float]] = {name: [] for name in apps}
        ready: dict[str, list[float]] = {name: [] for name in apps}
        with sync_playwright() as playwright:
            browser = harness.launch_chromium(playwright)
            # A returning visitor keeps the origin (host and port) and the profile between starts.
            ports = {name: harness.free_port() if args.browser_cache else None for name in apps}
            contexts = {name: browser.new_context(viewport={"width": 1280, "height": 900})
                        if args.browser_cache else None for name in apps}
            # One unmeasured run each: the first start pays for the OS file cache, not for us.
            for name, (script, url_path) in apps.items():
                cold_start(harness, browser, script, url_path, env, workdir,
                           port=ports[name], context=contexts[name])
            for _ in range(args.runs):
                for name, (script, url_path) in apps.items():
                    up, rendered = cold_start(harness, browser, script, url_path, env, workdir,
                                              port=ports[name], context=contexts[name])
                    ready[name].append(up)
                    times[name].append(rendered)
            browser.close()

    base_median = statistics.median(times[BASELINE])
    profile = "browser cache kept" if args.browser_cache else "fresh browser profile each run"
    print(f"Cold start, server spawn -> first page rendered in headless Chromium "
          f"({args.runs} runs, {profile})")
    print(f"{'app':<34} {'server up':>9} {'median s':>9} {'p95 s':>7} {'min s':>7} {'ratio':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<34} {statistics.median(ready[name]):>9.2f} {median:>9.2f} "
              f"{percentile(values, 95):>7.2f} {min(values):>7.2f} {median / base_median:>6.2f}")
    print("(server up: median seconds to the health check; the other columns: to the first page)")
    ours = statistics.median(times[f"residual tutor: /{args.page}"])
    ratio = ours / base_median
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"ratio: {ratio:.2f}x the bare app ({ours:.2f} s vs {base_median:.2f} s median); "
          f"goal <= {GOAL_RATIO:.1f}x: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
