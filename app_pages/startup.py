"""Once per server process: the first page preloaded, torch work to a worker, the pages' modules
loaded, the heap frozen.

- Generated problems and the deep-MLP demo are computed in `compute.worker`'s child process, so
  the app server never imports torch (it would add ~190 MiB and ~140,000 objects to the heap
  every script run shares, and its import inside a script run stalls every session for seconds).
  Measured against importing torch here at start-up and freezing it: see docs/server.md, "torch: a compute worker".
- With Streamlit's `runner.postScriptGC` off (`.streamlit/config.toml`), nothing runs a full
  garbage collection after every script run (85-90 ms each with sympy and pandas loaded, during
  which every session waits). Python's own collections still run; `gc.freeze()` moves everything
  that exists after start-up (modules, the bank) into a generation the collector never scans, so
  those collections only walk what sessions create and stay short.

`prepare_process()` is called by the shell on every run and does its work once: routing at once,
the rest in a background thread that waits until the shell's first script run has finished
(`first_run_finished()`). Started earlier, that thread (imports, the bank, two worker processes
importing torch and sympy) competed with the first page for the interpreter lock and the two
cores (bench/cold_start_stages.py times it; docs/server.md, "The first page").

The first page's own work (SQLAlchemy and the progress store, the bank's models, reading the bank:
~0.2 s of CPU a bare Streamlit app never spends) is done before anyone asks for it when the server
is started by `app_pages.server` (`make run`): `preload_first_page()` does it shortly after the
server listens, while a browser that opened the page at once is still compiling Streamlit's
JavaScript. The first script run waits for it if it is still under way, and does the work itself
if it never started. Until its end the first run is also spared two costs a bare app does not pay:
Python's collections (each one walks Streamlit's whole heap; ~10 % of those imports) and
Streamlit's check, on the first element, that it is not running in a REPL (`inspect.stack()` with
each frame's source: ~0.03 s).
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
_collection_paused = False  # by the preload or the first run, while they import
# Held by the preload while it works; the first run takes it, so the two never import at once.
_preload_lock = threading.Lock()
_first_run_started = False  # set under _preload_lock: a preload that has not begun is dropped

# Modules the first page (the shell and Practice) imports, in the order it does.
FIRST_PAGE_MODULES = (
    "app_pages.widgets.progress", "quizbank", "app_pages.flows.practice",
    "app_pages.widgets.recording", "app_pages.widgets.question_view", "app_pages.widgets.drafts",
)
# From the server listening to the preload: a browser that opened the page at once is then
# compiling Streamlit's JavaScript, which it spent the last ~0.25 s downloading from this very
# process (started sooner, the preload slowed that download: docs/server.md, "The first page").
PRELOAD_AFTER_S = 0.4


def first_run_finished() -> None:
    """The shell calls this after every run (cheap): work waiting in `after_first_run` starts,
    and Python's collections resume."""
    _first_run_done.set()
    _resume_collection()


def _pause_collection() -> None:
    global _collection_paused  # noqa: PLW0603
    if gc.isenabled():
        gc.disable()
        _collection_paused = True


def _resume_collection() -> None:
    global _collection_paused  # noqa: PLW0603
    if _collection_paused:
        _collection_paused = False
        gc.enable()


def _skip_repl_check() -> None:
    """Streamlit warns, once per process on the first element, when it runs in a REPL; under
    `streamlit run` it never does, and finding out walks the stack with each frame's source."""
    from streamlit import delta_generator

    delta_generator._use_warning_has_been_displayed = True


def preload_first_page() -> threading.Thread:
    """Do the first page's work ahead of the first script run, in a daemon thread: once the server
    listens and `PRELOAD_AFTER_S` later, unless the first run has begun by then (it does the work
    itself). `app_pages.server` starts it with the server."""

    def wait_then_preload() -> None:
        _wait_until_serving()
        time.sleep(PRELOAD_AFTER_S)
        with _preload_lock:
            if _first_run_started:
                return
            _pause_collection()
            started = time.perf_counter()
            try:
                _first_page_work()
            except Exception as exc:  # noqa: BLE001 - the first run meets it again and shows it
                _log.warning("start-up: first page not preloaded (%s)", exc)
            else:
                _log.info("start-up: first page preloaded in %.2f s", time.perf_counter() - started)
            finally:
                _resume_collection()

    thread = threading.Thread(target=wait_then_preload, name="first-page-preload", daemon=True)
    thread.start()
    return thread


def _wait_until_serving(poll: float = 0.01) -> None:
    from streamlit import runtime
    from streamlit.runtime.runtime import RuntimeState

    while not (runtime.exists() and runtime.get_instance().state != RuntimeState.INITIAL):
        time.sleep(poll)


def _first_page_work() -> None:
    for name in FIRST_PAGE_MODULES:
        importlib.import_module(name)
    from app_pages.widgets import resources

    resources.bank()
    resources.progress_store()
    from app_pages.widgets import progress

    progress.attempt_writer()  # what a crashed server left in the spool is written now


def _first_run_begins() -> None:
    """Wait for a preload under way; drop one that has not begun."""
    global _first_run_started  # noqa: PLW0603
    with _preload_lock:
        _first_run_started = True


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
    _resume_collection()  # the shell's first run may have failed before first_run_finished
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
    then `load_and_freeze` in the background once the first page is done. The first run itself
    goes without collections and without Streamlit's REPL check (see the module's docstring)."""
    _first_run_begins()
    _pause_collection()
    _skip_repl_check()
    import compute.worker

    worker = compute.worker.route()
    return after_first_run(lambda: load_and_freeze(worker), "startup-freeze")
