"""The first page: its work preloaded once the server listens, and its first script run spared
Python's collections.

The first page's work (SQLAlchemy and the progress store, the bank's models, reading the bank:
~0.2 s of CPU a bare Streamlit app never spends) is done before anyone asks for it:
`preload()` starts it `PRELOAD_AFTER_S` after the server listens, while a browser that opened the
page at once is still compiling Streamlit's JavaScript (started sooner, it slowed that download
from this very process: docs/server.md, "The first page").

The shell calls `run_starts()` before it imports anything of the app, so the first script run
either drops a preload that has not begun (and does the work itself) or waits for one under way:
the two never import the same modules at once. Until the first run's end (`run_finished()`),
Python's collections are paused: each one walks Streamlit's whole heap, ~10 % of those imports;
and the first run skips Streamlit's REPL check (`streamlit_internals.skip_repl_check`).
"""

from __future__ import annotations

import gc
import importlib
import threading
import time

from server_tuning import streamlit_internals
from server_tuning.streamlit_internals import log

# Modules the first page (the shell and Practice) imports, in the order it does
# (tests/server_tuning/test_first_page.py checks that the first page uses each of them).
FIRST_PAGE_MODULES = (
    "app_pages.widgets.progress", "quizbank", "tutor.sessions.practice",
    "app_pages.widgets.recording", "app_pages.widgets.question_view", "app_pages.widgets.scratch_work",
)
# From the server listening to the preload: a browser that opened the page at once is then
# compiling Streamlit's JavaScript, which it spent the last ~0.25 s downloading from this process.
PRELOAD_AFTER_S = 0.4


class FirstPage:
    """One process's first page: the preload and the first run, ordered by one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # held by the preload while it works, taken by the first run
        self._first_run_started = False  # under _lock: a preload that has not begun is dropped
        self._collection_paused = False  # under _lock
        self.finished = threading.Event()  # the first run has finished: warm-up work may start

    def preload(self, work, wait_until_serving) -> threading.Thread:
        """`work()` in a daemon thread once the server listens and `PRELOAD_AFTER_S` later,
        unless the first run has begun by then."""

        def wait_then_preload() -> None:
            wait_until_serving()
            time.sleep(PRELOAD_AFTER_S)
            with self._lock:
                if self._first_run_started:
                    return
                self._pause_collection()
                started = time.perf_counter()
                try:
                    work()
                except Exception as exc:  # noqa: BLE001 - the first run meets it again and shows it
                    log.warning("start-up: first page not preloaded (%s)", exc)
                else:
                    log.info("start-up: first page preloaded in %.2f s", time.perf_counter() - started)
                finally:
                    self._resume_collection()

        thread = threading.Thread(target=wait_then_preload, name="first-page-preload", daemon=True)
        thread.start()
        return thread

    def run_starts(self) -> None:
        """A script run begins (before it imports anything): the first one waits for a preload
        under way, drops one not begun, and runs without collections."""
        if self._first_run_started:  # every later run: one attribute read
            return
        with self._lock:
            if not self._first_run_started:
                self._first_run_started = True
                self._pause_collection()
                streamlit_internals.skip_repl_check()

    def run_finished(self) -> None:
        """A script run has finished: collections resume, the warm-up may start."""
        if not self.finished.is_set():
            with self._lock:
                self._resume_collection()
            self.finished.set()

    def _pause_collection(self) -> None:
        if gc.isenabled():
            gc.disable()
            self._collection_paused = True

    def _resume_collection(self) -> None:
        if self._collection_paused:
            self._collection_paused = False
            gc.enable()


def first_page_work() -> None:
    """What the first page needs, done ahead of it: its modules, the bank, the store, and the
    attempt writer (what a crashed server left in the spool is written now)."""
    for name in FIRST_PAGE_MODULES:
        importlib.import_module(name)
    from app_pages.widgets import progress, resources

    resources.bank()
    resources.progress_store()
    progress.attempt_writer()


def wait_until_serving(poll: float = 0.01) -> None:
    """Return once the server listens (`server_tuning.enable` starts no preload on a Streamlit
    whose internals are untested: this would never return there)."""
    while not streamlit_internals.serving():
        time.sleep(poll)
