"""Release the state of learners who left: their Streamlit sessions are closed, the memory freed.

When a browser tab closes, Streamlit keeps its session (session state, widget values, the
script runner) so a reconnecting tab can resume it; it drops a kept session only when another
session is stored after `server.disconnectedSessionTTL` has passed, and never calls its
shutdown then. After a class leaves, nothing more is stored, so every session stays in memory.

The reaper notes each session id the shell runs for (`seen`), and every `INTERVAL_S` closes the
ones that have been disconnected for half of `server.disconnectedSessionTTL` or longer, through
the runtime's thread-safe `clear_user_info_for_session` (for a disconnected session: shut it
down on the event loop and forget it; the same path a logout takes). Half, because once the TTL
has passed Streamlit's storage no longer hands the session out, not even to be closed. When it closed any, it runs one
garbage collection (the sessions' objects are cycles, and with `runner.postScriptGC` off an idle
server would not collect them) and hands freed heap pages back to the OS (glibc `malloc_trim`).
"""

from __future__ import annotations

import ctypes
import gc
import threading
import time

import streamlit as st
from streamlit.logger import get_logger

INTERVAL_S = 10.0

_log = get_logger(__name__)  # Streamlit's logger: INFO lines reach the server log


class SessionReaper:
    """Session ids and, for the disconnected ones, since when (monotonic seconds)."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self._left_at: dict[str, float | None] = {}  # None: connected when last looked at
        self._lock = threading.Lock()

    def seen(self, session_id: str) -> None:
        with self._lock:
            self._left_at[session_id] = None

    def tracked(self) -> int:
        with self._lock:
            return len(self._left_at)

    def sweep(self, runtime, now: float) -> int:
        """Close the sessions disconnected for `grace` seconds or more; how many were closed."""
        closed = []
        with self._lock:
            for session_id, left_at in list(self._left_at.items()):
                if runtime.is_active_session(session_id):
                    self._left_at[session_id] = None
                elif left_at is None:
                    self._left_at[session_id] = now
                elif now - left_at >= self.grace:
                    closed.append(session_id)
                    del self._left_at[session_id]
        for session_id in closed:
            runtime.clear_user_info_for_session(session_id)
        return len(closed)


def release_memory() -> None:
    """Collect the closed sessions' cycles, then return free heap pages to the OS."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the pages are reused, just not returned
        pass


def _run(reaper: SessionReaper) -> None:
    from streamlit.runtime import Runtime

    while True:
        time.sleep(INTERVAL_S)
        if not Runtime.exists():  # AppTest runs scripts without a server runtime
            continue
        try:
            closed = reaper.sweep(Runtime.instance(), time.monotonic())
            if closed:
                time.sleep(1.0)  # the event loop shuts them down first
                release_memory()
                _log.info("closed %d sessions of learners who left", closed)
        except Exception:  # noqa: BLE001 - the reaper must outlive a bad sweep
            _log.exception("session reaper: sweep failed")


@st.cache_resource(show_spinner=False)
def session_reaper() -> SessionReaper:
    """The process's reaper, its thread started on first use."""
    reaper = SessionReaper(grace=float(st.get_option("server.disconnectedSessionTTL")) / 2)
    threading.Thread(target=_run, args=(reaper,), name="session-reaper", daemon=True).start()
    return reaper


def note_this_session() -> None:
    """Called by the shell on every run: the current session is one to look after."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is not None:
        session_reaper().seen(ctx.session_id)
