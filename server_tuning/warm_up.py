"""After the first page: the worker processes started, the pages' modules loaded, the heap frozen.

- Generated problems and the deep-MLP demo are computed in `compute.worker`'s child process, so
  the app server never imports torch (it would add ~190 MiB and ~140,000 objects to the heap
  every script run shares, and its import inside a script run stalls every session for seconds):
  docs/server.md, "torch: a compute worker".
- The grader's contained worker is started too, so the first answer that needs the symbolic check
  does not wait for it (~0.5 s, much longer on a busy machine).
- With Streamlit's `runner.postScriptGC` off (`.streamlit/config.toml`), nothing runs a full
  garbage collection after every script run (85-90 ms each with sympy and pandas loaded, during
  which every session waits). Python's own collections still run; `gc.freeze()` moves everything
  that exists after start-up (modules, the bank) into a generation the collector never scans, so
  those collections only walk what sessions create and stay short (bench/bench_gc_freeze.py).
  What sessions create is still large with a class on the server (every session's state and
  widgets), so the youngest generation is collected after `YOUNG_GENERATION_THRESHOLD`
  allocations instead of Python's 700: fewer objects of runs still under way are promoted, and
  the full collections they set off (each ~100-200 ms under 200 learners, every session waiting)
  come ~10 times less often (docs/server.md, "Garbage collection under a class").

All of it waits until the first script run has finished and the browser had `FIRST_PAGE_GRACE_S`
to draw it: started earlier, it (imports, the bank, two worker processes importing torch and
sympy) competed with the first page for the interpreter lock and the two cores.
"""

from __future__ import annotations

import gc
import importlib
import threading
import time

from server_tuning.streamlit_internals import log

# Everything the pages import on first use (the slow parts of the heap), so it is frozen too
# (tests/server_tuning/test_first_page.py checks that each one exists and none pulls in torch).
PAGE_MODULES = (
    "numpy", "pandas", "altair", "sqlalchemy", "fsrs",
    "quizbank", "quizbank.grading", "quizbank.variants", "grader", "grader.api", "grader.mutants",
    "tutor.interview", "tutor.interview_match", "tutor.review", "tutor.dashboard",
    "tutor.transfer", "tutor.store", "tutor.analytics",
    "tutor.sessions.question_session", "tutor.sessions.interview", "tutor.sessions.practice",
    "tutor.sessions.exercises", "tutor.sessions.derivation_check", "tutor.sessions.explore",
    "app_pages.widgets.plain_text",
    "app_pages.widgets.question_view", "app_pages.widgets.dashboard_charts",
    "app_pages.widgets.derivation_view", "app_pages.widgets.interview_widgets",
    "app_pages.widgets.transfer_view",
)

# Python's default is 700. With 200 learners at think 0.5 s (docs/server.md): 3 full collections
# in a one-minute run instead of 26-29, the interpreter lock held by collections 1.4-2.1 s instead
# of 5.1-7.0 s, server CPU per script run 6.9 ms instead of 7.6-7.9.
YOUNG_GENERATION_THRESHOLD = 10_000

# Without a first run to wait for (nobody opened the page), start anyway after this long.
FIRST_RUN_WAIT_S = 10.0
# After the first run, the browser still draws the page; the workers would take both cores from it.
FIRST_PAGE_GRACE_S = 1.0


def after_first_run(first_run_finished: threading.Event, work, name: str) -> threading.Thread:
    """Run `work()` in a daemon thread once the first script run has finished (or after
    `FIRST_RUN_WAIT_S`) and the browser had `FIRST_PAGE_GRACE_S` to draw it."""

    def wait_then_work() -> None:
        first_run_finished.wait(FIRST_RUN_WAIT_S)
        time.sleep(FIRST_PAGE_GRACE_S)
        work()

    thread = threading.Thread(target=wait_then_work, name=name, daemon=True)
    thread.start()
    return thread


def warm_grader() -> None:
    """Start the grader's worker (never raises: the first answer that needs it says what failed)."""
    import grader

    grader.warm_up()


def start_worker_load_and_freeze() -> None:
    """Start the compute worker, import the pages' modules and build the shared
    bank, collect once, then freeze."""
    import compute.worker

    try:
        compute.worker.start()
    except Exception as exc:  # noqa: BLE001 - the first generated problem reports it again
        log.warning("start-up: compute worker not started (%s)", exc)
    for name in PAGE_MODULES:
        importlib.import_module(name)
    from app_pages.widgets import resources

    resources.bank()
    gc.collect()  # what is garbage now must not be frozen for the process's lifetime
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, *gc.get_threshold()[1:])
    log.info("start-up heap frozen: %d objects", gc.get_freeze_count())
