"""Once per server process: torch work to a worker, the pages' modules loaded, the heap frozen.

- Generated problems and the deep-MLP demo are computed in `compute.worker`'s child process, so
  the app server never imports torch (it would add ~190 MiB and ~140,000 objects to the heap
  every script run shares, and its import inside a script run stalls every session for seconds).
  Measured against importing torch here at start-up and freezing it: see README, Capacity.
- With Streamlit's `runner.postScriptGC` off (`.streamlit/config.toml`), nothing runs a full
  garbage collection after every script run (85-90 ms each with sympy and pandas loaded, during
  which every session waits). Python's own collections still run; `gc.freeze()` moves everything
  that exists after start-up (modules, the bank) into a generation the collector never scans, so
  those collections only walk what sessions create and stay short.

`prepare_process()` is called by the shell on every run and does its work once: routing at once,
the rest in a background thread that waits until the shell's first script run has finished
(`first_run_finished()`). Started earlier, that thread (imports, the bank, two worker processes
importing torch and sympy) competed with the first page for the interpreter lock and the two
cores (bench/cold_start_stages.py times it; README, "Cold start by stage").
"""

from __future__ import annotations

import gc
import importlib
import threading
import time

import streamlit as st
from streamlit.logger import get_logger

# Everything the pages import on first use (the slow parts of the heap), so it is frozen too.
PAGE_MODULES = (
    "numpy", "pandas", "altair", "sqlalchemy", "fsrs",
    "quizbank", "quizbank.grading", "quizbank.variants", "grader", "grader.api", "grader.mutants",
    "tutor.interview", "tutor.interview_match", "tutor.review", "tutor.dashboard",
    "tutor.transfer", "tutor.store", "tutor.analytics",
    "app_pages.flows.question_session", "app_pages.flows.practice", "app_pages.flows.exercises",
    "app_pages.flows.derivation_check", "app_pages.flows.explore", "app_pages.flows.plain_text",
    "app_pages.widgets.question_view", "app_pages.widgets.dashboard_charts",
    "app_pages.widgets.derivation_view", "app_pages.widgets.interview_widgets",
    "app_pages.widgets.transfer_view",
)

# A page script run without the shell (AppTest) never finishes a shell run: start anyway then.
FIRST_RUN_WAIT_S = 10.0
# After the first run, the browser still draws the page; the warm-up's two worker processes
# (importing torch and sympy) would take both cores from it. Give it this long first.
FIRST_PAGE_GRACE_S = 1.0

_log = get_logger(__name__)  # Streamlit's logger: INFO lines reach the server log
# Process-wide, like the cached resources: set once the shell's first script run has finished.
_first_run_done = threading.Event()


def first_run_finished() -> None:
    """The shell calls this after every run (cheap): work waiting in `after_first_run` starts."""
    _first_run_done.set()


def after_first_run(work, name: str) -> threading.Thread:
    """Run `work()` in a daemon thread once the first script run has finished (or after
    `FIRST_RUN_WAIT_S`) and the browser had `FIRST_PAGE_GRACE_S` to draw it, so that warming up
    never slows the first page."""

    def wait_then_work() -> None:
        _first_run_done.wait(FIRST_RUN_WAIT_S)
        time.sleep(FIRST_PAGE_GRACE_S)
        work()

    thread = threading.Thread(target=wait_then_work, name=name, daemon=True)
    thread.start()
    return thread


def load_and_freeze(compute_worker) -> None:
    """Warm the compute worker, import the pages' modules and build the shared bank, collect
    once, then freeze."""
    try:
        compute_worker.start()
    except Exception as exc:  # noqa: BLE001 - the first generated problem reports it again
        _log.warning("start-up: compute worker not started (%s)", exc)
    for name in PAGE_MODULES:  # tests/app/test_startup.py checks that each one exists
        importlib.import_module(name)
    from app_pages.widgets import resources

    resources.bank()
    gc.collect()  # what is garbage now must not be frozen for the process's lifetime
    gc.freeze()
    _log.info("start-up heap frozen: %d objects", gc.get_freeze_count())


@st.cache_resource(show_spinner=False)
def prepare_process() -> threading.Thread:
    """Once per server process (a cached resource): route torch work to the compute worker now,
    then `load_and_freeze` in the background once the first page is done."""
    import compute.worker

    worker = compute.worker.route()
    return after_first_run(lambda: load_and_freeze(worker), "startup-freeze")
