"""`python -m server_tuning` and the shell's two hooks in a tuned process: the server starts
tuned, then Streamlit with the app and the options given; the first run schedules the warm-up
and starts the reaper (its grace half of Streamlit's session TTL); every run's session is noted
for the reaper, and one whose run left answers not recorded is kept."""

from __future__ import annotations

import gc

import pytest
from streamlit.testing.v1 import AppTest

import compute.worker
import server_tuning
from server_tuning import warm_up

# The shell's use of the hooks, with `hold` standing for "the run left answers not recorded".
SHELL = """
import streamlit as st

import server_tuning

server_tuning.run_starts()
try:
    st.write("a page")
finally:
    server_tuning.run_finished(unsaved=lambda: st.session_state.get("hold", False))
"""


class GoneTabs:
    """A runtime whose every tab has been closed."""

    def __init__(self) -> None:
        self.closed: list[str] = []

    def is_active_session(self, session_id: str) -> bool:
        return False

    def clear_user_info_for_session(self, session_id: str) -> None:
        self.closed.append(session_id)


@pytest.fixture
def tuned(monkeypatch):
    """This process tuned as `python -m server_tuning` tunes it (no preload: no server listens);
    the warm-up's threads noted, not run."""
    scheduled = []
    monkeypatch.setattr(server_tuning, "_tuning", None)
    monkeypatch.setattr(warm_up, "after_first_run",
                        lambda done, work, name: scheduled.append(name))
    server_tuning.enable(preload=False)
    yield server_tuning._tuning, scheduled
    compute.worker.stop()  # enable() routed torch work to a worker: computing here again
    gc.enable()


def test_the_first_run_schedules_the_warm_up_and_starts_the_reaper(tuned):
    import streamlit as st

    tuning, scheduled = tuned
    at = AppTest.from_string(SHELL).run()
    assert not at.exception
    assert scheduled == ["startup-freeze", "grader-warm-up"]
    assert tuning.reaper.grace == float(st.get_option("server.disconnectedSessionTTL")) / 2
    assert tuning.reaper.tracked() == 1  # this run's session
    assert tuning.first_page.finished.is_set() and gc.isenabled()
    at.run()
    assert scheduled == ["startup-freeze", "grader-warm-up"]  # once per process


def test_a_session_whose_run_left_answers_not_recorded_is_kept_until_they_are(tuned):
    tuning, _ = tuned
    at = AppTest.from_string(SHELL)
    at.session_state["hold"] = True
    at.run()
    tabs = GoneTabs()
    tuning.reaper.sweep(tabs, now=0)
    assert tuning.reaper.sweep(tabs, now=10_000) == 0
    at.session_state["hold"] = False
    at.run()  # this run recorded them
    tuning.reaper.sweep(tabs, now=10_001)
    assert tuning.reaper.sweep(tabs, now=20_000) == 1 and len(tabs.closed) == 1


def test_the_warm_up_resumes_collections_a_first_run_stopped_early_left_paused(tuned, monkeypatch):
    # st.stop on the sign-in screen ends the first run before the shell's `finally`
    tuning, _ = tuned
    loaded = []
    monkeypatch.setattr(warm_up, "start_worker_load_and_freeze", lambda: loaded.append(gc.isenabled()))
    tuning.first_page.run_starts()
    assert not gc.isenabled()
    tuning._load_and_freeze()
    assert loaded == [True] and tuning.first_page.finished.is_set()


def test_python_m_server_tuning_tunes_the_process_then_runs_the_app_with_the_options(monkeypatch):
    from streamlit.web import cli

    from server_tuning import __main__

    calls = []
    monkeypatch.setattr(server_tuning, "enable", lambda: calls.append("enable"))
    monkeypatch.setattr(cli, "main", lambda args, prog_name: calls.append((args, prog_name)))
    __main__.main(["--server.port", "8600"])
    assert calls == ["enable", (["run", str(__main__.APP), "--server.port", "8600"], "streamlit")]
    assert __main__.APP.name == "streamlit_app.py" and __main__.APP.exists()


def _grade_then_record():
    import streamlit as st

    from app_pages.state import holds_unsaved_answers, take_unsaved_answers, unsaved_answers

    seen = [holds_unsaved_answers()]
    unsaved_answers("practice.box").append("graded by Submit's callback")
    seen.append(holds_unsaved_answers())  # a run cut short here leaves it for the next run
    take_unsaved_answers("practice.box")
    seen.append(holds_unsaved_answers())
    st.session_state["seen"] = seen


def test_what_the_shell_tells_the_reaper_is_whether_graded_answers_wait_to_be_recorded():
    assert AppTest.from_function(_grade_then_record).run().session_state["seen"] == [
        False, True, False]
