"""Server tuning: what `python -m server_tuning` (`make run`, `scripts/serve.sh`,
`scripts/serve_class.sh`, the Dockerfile, the systemd unit) adds to a plain
`streamlit run streamlit_app.py`. Opt-in: `enable()` is called by `__main__` before Streamlit
starts; in any other process (plain `streamlit run`, AppTest, tests, scripts) the shell's two
hooks, `run_starts()` and `run_finished()`, do nothing, and the app works the same, only slower
to start and without releasing the memory of learners who left.

The pieces, each measured in docs/server.md:

- `first_page`: the first page's work preloaded once the server listens; the first script run
  without Python's collections, and never importing alongside the preload;
- `warm_up`: after the first page, the compute and grader workers started, the pages' modules
  loaded, the heap frozen (`gc.freeze`) and the youngest generation collected less often (full
  collections under a class); torch work always goes to the compute worker;
- `reaper`: the sessions of learners who left closed, their memory collected and returned;
- `streamlit_internals.reuse_theme_messages`: the theme part of the message Streamlit sends at
  the start of every script run built once, not scanned out of the config on every run.

Streamlit's internals (its runtime, a run's session id) are reached only through
`streamlit_internals`, which checks the installed version first; on an untested version the
preload and the reaper stay off (logged) and the rest, plain Python, still runs.
"""

from __future__ import annotations

import threading

from server_tuning import first_page, reaper, streamlit_internals, warm_up


class _Tuning:
    """One server process's tuning, made by `enable()`."""

    def __init__(self) -> None:
        self.first_page = first_page.FirstPage()
        self.reaper: reaper.SessionReaper | None = None
        self.warm_up_threads: list[threading.Thread] = []
        self._started = False
        self._lock = threading.Lock()

    def run_starts(self) -> None:
        self.first_page.run_starts()
        if not self._started:
            self._start_once()
        session_id = streamlit_internals.current_session_id()
        if session_id is not None and self.reaper is not None:
            self.reaper.seen(session_id)

    def run_finished(self, unsaved) -> None:
        self.first_page.run_finished()
        if self.reaper is not None:
            session_id = streamlit_internals.current_session_id()
            if session_id is not None:
                self.reaper.holding(session_id, unsaved())

    def _start_once(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
            done = self.first_page.finished
            self.warm_up_threads = [
                warm_up.after_first_run(done, self._load_and_freeze, "startup-freeze"),
                warm_up.after_first_run(done, warm_up.warm_grader, "grader-warm-up"),
            ]
            if streamlit_internals.supported():
                import streamlit as st

                # Half the TTL: once it has passed, Streamlit no longer hands the session out.
                ttl = float(st.get_option("server.disconnectedSessionTTL"))
                self.reaper = reaper.start(grace=ttl / 2)


    def _load_and_freeze(self) -> None:
        # A first run stopped before the shell's `finally` (st.stop on the sign-in screen) never
        # called run_finished: collections resume here at the latest.
        self.first_page.run_finished()
        warm_up.start_worker_load_and_freeze()


_tuning: _Tuning | None = None


def enable(preload: bool = True) -> None:
    """Tune this process (call once, before Streamlit starts serving): torch work routed to the
    compute worker from now on, the session message's theme built once, the first page
    preloaded once the server listens, and the shell's hooks switched on."""
    global _tuning  # noqa: PLW0603 - one per process, set before any script run
    import compute.worker

    compute.worker.route()
    streamlit_internals.reuse_theme_messages()
    _tuning = _Tuning()
    if preload and streamlit_internals.supported():
        _tuning.first_page.preload(first_page.first_page_work, first_page.wait_until_serving)


def enabled() -> bool:
    return _tuning is not None


def run_starts() -> None:
    """The shell calls this first, before importing the app: the first run waits for a preload
    under way; the warm-up is scheduled once; the session is noted for the reaper."""
    if _tuning is not None:
        _tuning.run_starts()


def run_finished(unsaved=lambda: False) -> None:
    """The shell calls this after every run (in a `finally`): collections resume after the
    first, and the warm-up may start; `unsaved()` says whether the run left graded answers it did
    not hand to the attempt writer (asked only when the reaper runs; it keeps such a session)."""
    if _tuning is not None:
        _tuning.run_finished(unsaved)
