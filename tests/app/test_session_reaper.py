"""The session reaper closes sessions only after their learner has been gone for the grace time."""

from __future__ import annotations

from app_pages.session_reaper import SessionReaper


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


def test_streamlits_runtime_still_offers_what_the_reaper_calls():
    # The reaper uses these two thread-safe Runtime methods; an upgrade that drops them must fail
    # here rather than leave every session of a class in memory.
    from streamlit.runtime import Runtime

    assert callable(Runtime.is_active_session)
    assert callable(Runtime.clear_user_info_for_session)
