"""Once per server process: load what the pages use, then freeze the start-up heap.

With Streamlit's `runner.postScriptGC` off (`.streamlit/config.toml`), nothing runs a full garbage
collection after every script run (85-90 ms each with sympy and pandas in the heap, during which
every session waits). Python's own collections still run; `gc.freeze()` moves everything that
exists after start-up (modules, the bank, caches) into a generation the collector never scans,
so those collections only walk what sessions create and stay short.

`prepare_process()` is called by the shell on every run and does its work once, in a background
thread: the first page does not wait for modules it may not need.
"""

from __future__ import annotations

import gc
import importlib
import logging
import threading

import streamlit as st

# Everything the pages import on first use (the slow parts of the heap), so it is frozen too.
PAGE_MODULES = (
    "numpy", "pandas", "altair", "sqlalchemy", "fsrs",
    "quizbank", "grader", "tutor.practice", "tutor.exercises", "tutor.interview",
    "tutor.interview_match", "tutor.review", "tutor.dashboard", "tutor.transfer",
    "tutor.derivation_check", "tutor.explore", "tutor.store",
    "app_pages.widgets.question_view", "app_pages.widgets.dashboard_charts",
    "app_pages.widgets.derivation_view", "app_pages.widgets.interview_widgets",
    "app_pages.widgets.transfer_view",
)

_log = logging.getLogger(__name__)


def load_and_freeze() -> None:
    """Import the pages' modules and build the shared bank, collect once, then freeze."""
    for name in PAGE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:  # a page mid-rewrite must not stop the server
            _log.warning("start-up: %s not imported (%s)", name, exc)
    from app_pages.widgets import resources

    resources.bank()
    gc.collect()  # what is garbage now must not be frozen for the process's lifetime
    gc.freeze()
    _log.info("start-up heap frozen: %d objects", gc.get_freeze_count())


@st.cache_resource(show_spinner=False)
def prepare_process() -> threading.Thread:
    """Start `load_and_freeze` once per server process (a cached resource), in the background."""
    thread = threading.Thread(target=load_and_freeze, name="startup-freeze", daemon=True)
    thread.start()
    return thread
