"""Release the state of learners who left: their Streamlit sessions are closed, the memory freed.

When a browser tab closes, Streamlit keeps its session (session state, widget values, the
script runner) so a reconnecting tab can resume it; it drops a kept session only when another
session is stored after `server.disconnectedSessionTTL` has passed, and never calls its
shutdown then. After a class leaves, nothing more is stored, so every session stays in memory.

The reaper notes each session id the shell runs for (`seen`, from `server_tuning.run_starts`), and every `INTERVAL_S` closes the
ones that have been disconnected for half of `server.disconnectedSessionTTL` or longer, except a
session whose script run is still in progress (a tab closed during a long run: the run may be
about to record an answer) or whose last run left graded answers it had not yet handed to the
attempt writer (`holding`, from `server_tuning.run_finished`): those wait for a later sweep, through
the runtime's thread-safe `clear_user_info_for_session` (`streamlit_internals.close_session`) (for a disconnected session: shut it
down on the event loop and forget it; the same path a logout takes). Half, because once the TTL
has passed Streamlit's storage no longer hands the session out, not even to be closed. When it closed any, it runs one
garbage collection (the sessions' objects are cycles, and with `runner.postScriptGC` off an idle
server would not collect them) and hands freed heap pages back to the OS (glibc `malloc_trim`).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import platform
import threading
import time

from server_tuning import streamlit_internals
from server_tuning.streamlit_internals import log

INTERVAL_S = 10.0


class SessionReaper:
    """Session ids and, for the disconnected ones, since when (monotonic seconds)."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self._left_at: dict[str, float | None] = {}  # None: connected when last looked at
        self._holding: set[str] = set()  # sessions whose last run left answers not recorded
        self._lock = threading.Lock()

    def seen(self, session_id: str) -> None:
        with self._lock:
            self._left_at[session_id] = None

    def holding(self, session_id: str, unsaved: bool) -> None:
        """Whether the session's last run ended with graded answers not yet handed to the
        attempt writer (a run cut short between the grading and the recording)."""
        with self._lock:
            (self._holding.add if unsaved else self._holding.discard)(session_id)

    def tracked(self) -> int:
        with self._lock:
            return len(self._left_at)

    def sweep(self, runtime, now: float, running: set[str] = frozenset()) -> int:
        """Close the sessions disconnected for `grace` seconds or more, unless `running` a script
        or holding answers not recorded; how many were closed."""
        closed = []
        with self._lock:
            for session_id, left_at in list(self._left_at.items()):
                if streamlit_internals.session_is_connected(runtime, session_id):
                    self._left_at[session_id] = None
                elif left_at is None:
                    self._left_at[session_id] = now
                elif (now - left_at >= self.grace and session_id not in running
                      and session_id not in self._holding):
                    closed.append(session_id)
                    del self._left_at[session_id]
        for session_id in closed:
            streamlit_internals.close_session(runtime, session_id)
        return len(closed)


def release_memory() -> None:
    """Collect the closed sessions' cycles, then return free heap pages to the OS (glibc only)."""
    gc.collect()
    if _glibc() is not None:
        _glibc().malloc_trim(0)


@functools.cache
def _glibc():
    """glibc's C library, or None (musl, macOS: freed pages are reused, just not returned)."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def reap_once(reaper: SessionReaper, now: float, shutdown_pause: float = 1.0) -> int:
    """One sweep of the server's sessions, then their memory released if any was closed; how
    many were closed (0 before the server runs, and after a sweep that failed: logged)."""
    runtime = streamlit_internals.running_runtime()
    if runtime is None:  # not serving yet
        return 0
    try:
        closed = reaper.sweep(runtime, now, streamlit_internals.sessions_running_a_script())
        if closed:
            time.sleep(shutdown_pause)  # the event loop shuts them down first
            release_memory()
            log.info("closed %d sessions of learners who left", closed)
    except Exception:  # noqa: BLE001 - the reaper must outlive a bad sweep
        log.exception("session reaper: sweep failed")
        return 0
    return closed


def _run(reaper: SessionReaper) -> None:
    while True:
        time.sleep(INTERVAL_S)
        reap_once(reaper, time.monotonic())


def start(grace: float) -> SessionReaper:
    """The process's reaper, its thread started."""
    reaper = SessionReaper(grace=grace)
    threading.Thread(target=_run, args=(reaper,), name="session-reaper", daemon=True).start()
    return reaper
