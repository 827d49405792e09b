"""The session reaper closes sessions only after their learner has been gone for the grace time."""

from __future__ import annotations

from server_tuning.reaper import SessionReaper


class FakeRuntime:
    def __init__(self) -> None:
        self.active: set[str] = set()
        self.closed: list[str] = []

    def is_active_session(self, session_id: str) -> bool:
        return session_id in self.active

    def clear_user_info_for_session(self, session_id: str) -> None:
        self.closed.append(session_id)


def test_a_session_is_closed_once_disconnected_for_the_grace_time():
    runtime, reaper = FakeRuntime(), SessionReaper(grace=30)
    runtime.active = {"a", "b"}
    reaper.seen("a")
    reaper.seen("b")
    assert reaper.sweep(runtime, now=0) == 0
    runtime.active = {"a"}  # b's tab closed
    assert reaper.sweep(runtime, now=10) == 0  # noticed at 10 s
    assert reaper.sweep(runtime, now=39) == 0  # 29 s later: still inside the grace time
    assert reaper.sweep(runtime, now=40) == 1
    assert runtime.closed == ["b"] and reaper.tracked() == 1
    assert reaper.sweep(runtime, now=1000) == 0  # a, still connected, is never closed


def test_a_learner_who_reconnects_in_time_keeps_the_session():
    runtime, reaper = FakeRuntime(), SessionReaper(grace=30)
    reaper.seen("a")
    reaper.sweep(runtime, now=0)  # disconnected
    runtime.active = {"a"}
    reaper.sweep(runtime, now=20)  # back: the clock restarts
    runtime.active = set()
    reaper.sweep(runtime, now=25)
    assert reaper.sweep(runtime, now=50) == 0
    assert reaper.sweep(runtime, now=55) == 1


def test_on_glibc_the_freed_pages_are_handed_back_with_malloc_trim():
    import platform

    from server_tuning import reaper

    assert platform.libc_ver()[0] == "glibc", "this machine is expected to run glibc"
    assert reaper._glibc() is not None and callable(reaper._glibc().malloc_trim)
    reaper.release_memory()


def test_without_glibc_the_memory_is_collected_and_nothing_else_called(monkeypatch):
    import platform

    from server_tuning import reaper

    reaper._glibc.cache_clear()
    monkeypatch.setattr(platform, "libc_ver", lambda: ("", ""))
    try:
        assert reaper._glibc() is None
        reaper.release_memory()
    finally:
        reaper._glibc.cache_clear()


def test_a_learner_holding_answers_not_recorded_keeps_the_session_until_they_are():
    runtime, reaper = FakeRuntime(), SessionReaper(grace=30)
    reaper.seen("a")
    reaper.holding("a", True)  # its last run was cut short between grading and recording
    reaper.sweep(runtime, now=0)
    assert reaper.sweep(runtime, now=1000) == 0 and runtime.closed == []
    reaper.holding("a", False)  # a later run recorded them
    assert reaper.sweep(runtime, now=1001) == 1


def test_without_libc_so_the_memory_is_only_collected(monkeypatch):
    import ctypes

    from server_tuning import reaper

    def no_library(name):
        raise OSError(f"{name}: cannot open shared object file")

    reaper._glibc.cache_clear()
    monkeypatch.setattr(ctypes, "CDLL", no_library)
    try:
        assert reaper._glibc() is None
        reaper.release_memory()
    finally:
        reaper._glibc.cache_clear()


# ---- against a real Streamlit runtime -------------------------------------------------------------
def test_the_session_of_a_tab_gone_for_the_grace_time_is_closed_and_cannot_be_resumed(real_runtime):
    from server_tuning.reaper import reap_once

    reaper = SessionReaper(grace=30)
    stays, leaves = real_runtime.open_tab(), real_runtime.open_tab()
    reaper.seen(stays)
    reaper.seen(leaves)
    assert reap_once(reaper, now=0, shutdown_pause=0) == 0
    real_runtime.close_tab(leaves)
    assert real_runtime.stored(leaves)  # kept by Streamlit for a tab that comes back
    assert reap_once(reaper, now=10, shutdown_pause=0) == 0  # noticed gone
    assert reap_once(reaper, now=39, shutdown_pause=0) == 0
    assert reap_once(reaper, now=40, shutdown_pause=0) == 1
    assert not real_runtime.stored(leaves) and reaper.tracked() == 1
    back = real_runtime.on_loop(lambda: real_runtime.runtime.connect_session(
        _tab(), {}, existing_session_id=leaves))
    assert back != leaves  # a tab coming back now starts afresh: nothing of the old one is kept
    assert real_runtime.runtime.is_active_session(stays)
    assert reap_once(reaper, now=1000, shutdown_pause=0) == 0  # the open tab is never closed


HOLD_SCRIPT = """
import time
from pathlib import Path

release = Path(__file__).with_name("release")
while not release.exists():  # a long script run: it ends when the test says so
    time.sleep(0.02)
"""


def test_a_session_whose_script_run_is_in_progress_is_closed_only_after_it(real_runtime,
                                                                            tmp_path):
    from server_tuning import streamlit_internals
    from server_tuning.reaper import reap_once

    (tmp_path / "app.py").write_text(HOLD_SCRIPT)
    reaper = SessionReaper(grace=30)
    session_id = real_runtime.open_tab()
    reaper.seen(session_id)
    session = real_runtime.app_session(session_id)
    real_runtime.on_loop(lambda: session.request_rerun(None))
    _wait_until(lambda: session_id in streamlit_internals.sessions_running_a_script())
    real_runtime.close_tab(session_id)  # the tab closed during the run
    assert reap_once(reaper, now=0, shutdown_pause=0) == 0
    assert reap_once(reaper, now=1000, shutdown_pause=0) == 0  # gone long, but still running
    assert real_runtime.stored(session_id)
    (tmp_path / "release").touch()
    _wait_until(lambda: session_id not in streamlit_internals.sessions_running_a_script())
    assert reap_once(reaper, now=1001, shutdown_pause=0) == 1
    assert not real_runtime.stored(session_id)


def test_a_sweep_that_fails_is_logged_and_the_reaper_goes_on(real_runtime, monkeypatch, caplog):
    import logging

    from server_tuning import streamlit_internals
    from server_tuning.reaper import reap_once

    reaper = SessionReaper(grace=30)
    reaper.seen(real_runtime.open_tab())

    def broken(runtime, session_id):
        raise RuntimeError("the runtime changed under us")

    monkeypatch.setattr(streamlit_internals, "session_is_connected", broken)
    monkeypatch.setattr(streamlit_internals.log, "propagate", True)  # to caplog
    with caplog.at_level(logging.ERROR, logger="server_tuning"):
        assert reap_once(reaper, now=0) == 0
    assert "session reaper: sweep failed" in caplog.text


def test_before_the_server_runs_there_is_nothing_to_reap():
    from server_tuning.reaper import reap_once

    reaper = SessionReaper(grace=30)
    reaper.seen("a")
    assert reap_once(reaper, now=1000) == 0 and reaper.tracked() == 1


def test_the_reaper_thread_sweeps_every_interval(real_runtime, monkeypatch):
    from server_tuning import reaper as reaper_module

    monkeypatch.setattr(reaper_module, "INTERVAL_S", 0.01)
    session_id = real_runtime.open_tab()
    real_runtime.close_tab(session_id)
    reaper = reaper_module.start(grace=0.0)
    reaper.seen(session_id)
    _wait_until(lambda: not real_runtime.stored(session_id))
    assert reaper.tracked() == 0


def _tab():
    from tests.server_tuning.conftest import Tab

    return Tab()


def _wait_until(condition, limit: float = 60.0) -> None:
    """Wait for a state (not a time): `limit` only stops a broken test from hanging."""
    import time

    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the state never came"
        time.sleep(0.01)
