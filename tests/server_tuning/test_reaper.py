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
