"""Every name server tuning uses from Streamlit that is not part of its documented API, in one
place and behind one version check.

Streamlit documents `st.*`; the runtime (`streamlit.runtime`), the script-run context and the
runtime's states are its internals and may move in any release. Each function here reaches one of
them, and only when the installed Streamlit's minor version is one that
`tests/server_tuning/test_streamlit_internals.py` has run on (`TESTED_MINORS`, the same versions
`pyproject.toml` pins). On any other version every function answers "nothing to do" (no runtime,
no session) and the server logs once that its tuning is off: the app then runs as a plain
`streamlit run` would, never on a guess about internals that may have changed.

To support a new Streamlit minor: install it, run `tests/server_tuning/`, and when it passes add
the minor here and to the pin.
"""

from __future__ import annotations

import logging
import threading
from functools import cache

import streamlit

# The Streamlit minor versions the tests of this module have run on (and pyproject.toml pins).
TESTED_MINORS = ("1.67",)


def _server_log() -> logging.Logger:
    """The tuning's lines in the server's log (stderr, as Streamlit writes its own)."""
    logger = logging.getLogger("server_tuning")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


log = _server_log()


def minor_version(version: str) -> str:
    """"1.67.0" -> "1.67"."""
    return ".".join(version.split(".")[:2])


@cache
def supported(version: str = streamlit.__version__) -> bool:
    """True when the installed Streamlit is one the internals below were tested on; otherwise
    logged once (per version asked about) and False."""
    if minor_version(version) in TESTED_MINORS:
        return True
    log.warning("server tuning off: Streamlit %s is not one of the versions its internals were "
                "tested on (%s; server_tuning/streamlit_internals.py)", version,
                ", ".join(TESTED_MINORS))
    return False


def running_runtime():
    """The server's `Runtime` once it exists (None under AppTest, before the server starts, or
    on an untested Streamlit)."""
    if not supported():
        return None
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def serving() -> bool:
    """The server has started listening (its runtime has left the INITIAL state)."""
    runtime = running_runtime()
    if runtime is None:
        return False
    from streamlit.runtime.runtime import RuntimeState

    return runtime.state != RuntimeState.INITIAL


def current_session_id() -> str | None:
    """The session whose script run calls this (None outside a script run)."""
    if not supported():
        return None
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id


SCRIPT_THREAD_NAME = "ScriptRunner.scriptThread"


def sessions_running_a_script() -> set[str]:
    """The sessions whose script run is in progress now: Streamlit runs each in a thread of its
    own ("ScriptRunner.scriptThread", ending when the session has no run left to do), with the
    run's context as an attribute of the thread. Read without locks: a run that starts just
    after is one the caller could not have seen anyway."""
    if not supported():
        return set()
    from streamlit.runtime.scriptrunner_utils.script_run_context_attr import (
        SCRIPT_RUN_CONTEXT_ATTR_NAME,
    )

    running = set()
    for thread in threading.enumerate():
        ctx = getattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, None)
        if thread.name == SCRIPT_THREAD_NAME and ctx is not None:
            running.add(ctx.session_id)
    return running


def session_is_connected(runtime, session_id: str) -> bool:
    """The session's browser tab is connected (`Runtime.is_active_session`, thread-safe)."""
    return runtime.is_active_session(session_id)


def skip_repl_check() -> None:
    """Spare the first script run Streamlit's check, on its first element, that it is not running
    in a REPL (an `inspect.stack()` with every frame's source, ~0.03 s once per process): under
    `streamlit run` it never is. The check runs once, guarded by this module-level flag."""
    if not supported():
        return
    from streamlit import delta_generator

    delta_generator._use_warning_has_been_displayed = True


def close_session(runtime, session_id: str) -> None:
    """Shut a disconnected session down and forget it, the path a logout takes
    (`Runtime.clear_user_info_for_session`, thread-safe)."""
    runtime.clear_user_info_for_session(session_id)


def reuse_theme_messages() -> None:
    """Build each `[theme*]` part of the session message once, not on every script run.

    Streamlit sends a `new_session` message at the start of every run, fragment runs included,
    and fills its six theme sections by scanning all ~370 config options once per section
    (`app_session._populate_theme_msg`): ~0.4 ms of the event loop per run under a class
    (docs/server.md). The patched function fills a section from a copy built the first time,
    and builds it again whenever one of that section's option values differs from those the
    copy was built from (a config re-read, `set_option`): the message is the one Streamlit
    would build, byte for byte (tests/server_tuning/test_streamlit_internals.py)."""
    if not supported():
        return
    from streamlit import config
    from streamlit.runtime import app_session

    build = app_session._populate_theme_msg
    if getattr(build, "reuses_copies", False):
        return
    sections: dict[str, list] = {}  # section -> its ConfigOptions, for one options dict
    indexed: list = [None]  # the options dict `sections` was made from
    copies: dict[tuple[str, type], tuple[list, object]] = {}
    lock = threading.Lock()

    def values_of(section: str) -> list:
        options = config.get_config_options()
        if indexed[0] is not options:  # a re-read config is a new dict
            sections.clear()
            for option in options.values():
                sections.setdefault(option.section, []).append(option)
            indexed[0] = options
        return [(option.key, option.value) for option in sections.get(section, ())]

    def populate(msg, section: str = "theme") -> None:
        with lock:
            values = values_of(section)
            held = copies.get((section, type(msg)))
            if held is None or held[0] != values:
                built = type(msg)()
                build(built, section)
                held = copies[(section, type(msg))] = (values, built)
        if held[1].ListFields():  # an empty section leaves the message untouched, as Streamlit
            msg.MergeFrom(held[1])  # does (merging an empty one would mark it present)

    populate.reuses_copies = True
    app_session._populate_theme_msg = populate
