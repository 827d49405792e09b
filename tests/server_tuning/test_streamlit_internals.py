"""Each Streamlit internal that server tuning uses still exists, with the shape it is used with,
on the installed Streamlit; on a version not tested, the tuning that needs them stays off.

When one of the first tests fails after an upgrade, the name moved: fix
`server_tuning/streamlit_internals.py` for the new version, then add its minor to
`TESTED_MINORS` and to the pin in pyproject.toml.
"""

import importlib
import inspect
import logging
import tomllib
from pathlib import Path

import pytest

from server_tuning import streamlit_internals

ROOT = Path(__file__).resolve().parents[2]

# (module, attribute path, the parameters it is called with): one row per internal used.
INTERNALS = [
    ("streamlit.runtime", "Runtime.exists", ["cls"]),
    ("streamlit.runtime", "Runtime.instance", ["cls"]),
    ("streamlit.runtime", "Runtime.is_active_session", ["self", "session_id"]),
    ("streamlit.runtime", "Runtime.clear_user_info_for_session", ["self", "session_id"]),
    ("streamlit.runtime", "Runtime.state", None),  # a property
    ("streamlit.runtime.runtime", "RuntimeState.INITIAL", None),
    ("streamlit.runtime.scriptrunner", "get_script_run_ctx", ["suppress_warning"]),
    ("streamlit.runtime.scriptrunner", "ScriptRunContext.session_id", None),
    ("streamlit.delta_generator", "_use_warning_has_been_displayed", None),
    ("streamlit.runtime.scriptrunner_utils.script_run_context_attr", "SCRIPT_RUN_CONTEXT_ATTR_NAME",
     None),
    ("streamlit.runtime.scriptrunner.script_runner", "ScriptRunner.start", ["self"]),
    ("streamlit.runtime.app_session", "_populate_theme_msg", ["msg", "section"]),
    ("streamlit.runtime.app_session", "AppSession._create_new_session_message",
     ["self", "page_script_hash", "run_descriptor", "pages"]),
    ("streamlit.config", "get_config_options", ["force_reparse", "options_from_flags"]),
]


def _resolve(module: str, path: str):
    owner = importlib.import_module(module)
    for part in path.split("."):
        owner = inspect.getattr_static(owner, part) if isinstance(owner, type) else getattr(owner, part)
    return owner


@pytest.mark.parametrize(("module", "path", "parameters"), INTERNALS,
                         ids=[f"{m}.{p}" for m, p, _ in INTERNALS])
def test_the_internal_is_where_server_tuning_reaches_it(module, path, parameters):
    if path == "ScriptRunContext.session_id":  # a dataclass field, not a class attribute
        from streamlit.runtime.scriptrunner import ScriptRunContext

        assert "session_id" in ScriptRunContext.__dataclass_fields__
        return
    found = _resolve(module, path)
    if path == "_use_warning_has_been_displayed":  # a flag the REPL check reads and sets
        import streamlit.delta_generator as delta_generator

        source = inspect.getsource(delta_generator._maybe_print_use_warning)
        assert "if not _use_warning_has_been_displayed:" in source and isinstance(found, bool)
        return
    if path == "ScriptRunner.start":  # it names the thread a run is in: how one is recognised
        assert f'name="{streamlit_internals.SCRIPT_THREAD_NAME}"' in inspect.getsource(found)
    if parameters is not None:
        function = found.__func__ if isinstance(found, (classmethod, staticmethod)) else found
        assert list(inspect.signature(function).parameters) == parameters


def test_the_installed_streamlit_is_a_tested_one_and_the_pin_allows_only_those():
    assert streamlit_internals.supported()
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pin = next(d for d in dependencies if d.startswith("streamlit>") or d.startswith("streamlit="))
    allowed = [f"streamlit>={minor},<{minor.split('.')[0]}.{int(minor.split('.')[1]) + 1}"
               for minor in streamlit_internals.TESTED_MINORS]
    assert pin in allowed, f"{pin!r}: pin Streamlit to the tested minors {allowed}"


def test_an_untested_streamlit_turns_the_internals_off_and_says_so(monkeypatch, caplog):
    monkeypatch.setattr(streamlit_internals.log, "propagate", True)  # to caplog
    supported = streamlit_internals.supported
    supported.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="server_tuning"):
            assert not streamlit_internals.supported("9.1.0")
        assert "server tuning off: Streamlit 9.1.0" in caplog.text
        monkeypatch.setattr(streamlit_internals, "supported", lambda version=None: False)
        assert streamlit_internals.running_runtime() is None
        assert streamlit_internals.serving() is False
        assert streamlit_internals.current_session_id() is None
        assert streamlit_internals.sessions_running_a_script() == set()
        import streamlit.delta_generator as delta_generator

        monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
        streamlit_internals.skip_repl_check()
        assert delta_generator._use_warning_has_been_displayed is False
        from streamlit.runtime import app_session

        built = app_session._populate_theme_msg
        streamlit_internals.reuse_theme_messages()
        assert app_session._populate_theme_msg is built
    finally:
        supported.cache_clear()


def test_on_an_untested_streamlit_the_server_starts_no_preload_and_no_reaper(monkeypatch):
    import server_tuning
    from server_tuning import first_page

    monkeypatch.setattr(streamlit_internals, "supported", lambda version=None: False)
    preloads = []
    monkeypatch.setattr(first_page.FirstPage, "preload", lambda *a: preloads.append(a))
    monkeypatch.setattr(server_tuning, "_tuning", None)
    monkeypatch.setattr(server_tuning.warm_up, "after_first_run", lambda *a: None)
    server_tuning.enable()
    server_tuning.run_starts()
    server_tuning.run_finished()
    assert preloads == [] and server_tuning._tuning.reaper is None
    import compute.worker

    compute.worker.stop()  # enable() routed torch work to a worker: computing here again


def test_without_enable_the_shells_hooks_do_nothing(monkeypatch):
    import gc

    import server_tuning

    monkeypatch.setattr(server_tuning, "_tuning", None)
    server_tuning.run_starts()
    assert gc.isenabled()  # no collections paused, no threads, no reaper
    server_tuning.run_finished()
    assert not server_tuning.enabled()


# ---- each internal at work, on the installed Streamlit ---------------------------------------------
def _report_the_run():
    import streamlit as st

    from server_tuning import streamlit_internals

    st.session_state["seen"] = (streamlit_internals.current_session_id(),
                                streamlit_internals.sessions_running_a_script())


def test_a_script_run_knows_its_session_and_is_seen_running_while_it_runs():
    from streamlit.testing.v1 import AppTest

    session_id, running = AppTest.from_function(_report_the_run).run().session_state["seen"]
    assert session_id and session_id in running
    assert session_id not in streamlit_internals.sessions_running_a_script()  # the run is over
    assert streamlit_internals.current_session_id() is None  # outside any run


def test_the_runtime_is_found_once_it_exists_and_serving_once_started(tmp_path):
    from streamlit.runtime import Runtime, RuntimeConfig
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    assert streamlit_internals.running_runtime() is None and not streamlit_internals.serving()
    script = tmp_path / "app.py"
    script.write_text("")
    made = Runtime(RuntimeConfig(script_path=str(script),
                                 media_file_storage=MemoryMediaFileStorage("/media"),
                                 uploaded_file_manager=MemoryUploadedFileManager("/upload")))
    try:
        assert streamlit_internals.running_runtime() is made
        assert not streamlit_internals.serving()  # made, not started: not listening yet
    finally:
        Runtime._instance = None


def test_a_started_runtime_is_serving_and_its_sessions_are_seen(real_runtime):
    assert streamlit_internals.running_runtime() is real_runtime.runtime
    assert streamlit_internals.serving()
    session_id = real_runtime.open_tab()
    assert streamlit_internals.session_is_connected(real_runtime.runtime, session_id)
    real_runtime.close_tab(session_id)
    assert not streamlit_internals.session_is_connected(real_runtime.runtime, session_id)
    streamlit_internals.close_session(real_runtime.runtime, session_id)
    real_runtime.on_loop(lambda: None)  # the close runs on the event loop: let it
    assert not real_runtime.stored(session_id)


# ---- the theme part of the session message, built once ---------------------------------------------
THEME_SECTIONS = ("theme", "theme.light", "theme.dark", "theme.sidebar", "theme.light.sidebar",
                  "theme.dark.sidebar")


def _session_theme_bytes() -> bytes:
    """The six theme sections filled as `AppSession._create_new_session_message` fills them."""
    from streamlit.proto.NewSession_pb2 import NewSession
    from streamlit.runtime import app_session

    message = NewSession()
    theme = message.custom_theme
    targets = (theme, theme.light, theme.dark, theme.sidebar, theme.light.sidebar,
               theme.dark.sidebar)
    for target, section in zip(targets, THEME_SECTIONS, strict=True):
        app_session._populate_theme_msg(target, section)
    return message.SerializeToString(deterministic=True)


@pytest.fixture
def counted_theme_builds(monkeypatch):
    """Streamlit's own theme builder, counted; afterwards the builder and the config as before."""
    from streamlit import config
    from streamlit.runtime import app_session

    original, builds = app_session._populate_theme_msg, []

    def counted(msg, section="theme"):
        builds.append(section)
        original(msg, section)

    monkeypatch.setattr(app_session, "_populate_theme_msg", counted)
    config.get_config_options(force_reparse=True)  # the project's .streamlit/config.toml
    yield builds
    config.get_config_options(force_reparse=True)


def test_the_theme_message_is_built_once_and_is_streamlits_byte_for_byte(counted_theme_builds):
    from streamlit.proto.NewSession_pb2 import NewSession

    built = _session_theme_bytes()
    streamlit_internals.reuse_theme_messages()
    counted_theme_builds.clear()
    reused = [_session_theme_bytes() for _ in range(3)]
    assert counted_theme_builds == list(THEME_SECTIONS)  # once per section, not per run
    assert reused == [built] * 3 and b"#1E5AD0" in built  # the project's primary colour
    assert not NewSession.FromString(built).custom_theme.HasField("light")  # empty: absent


def test_a_changed_theme_option_is_read_again(monkeypatch, counted_theme_builds):
    from streamlit import config
    from streamlit.runtime import app_session

    original = app_session._populate_theme_msg
    streamlit_internals.reuse_theme_messages()
    before = _session_theme_bytes()
    config.set_option("theme.primaryColor", "#AA0000")
    config.set_option("theme.light.textColor", "#111111")
    after = _session_theme_bytes()
    monkeypatch.setattr(app_session, "_populate_theme_msg", original)
    assert after == _session_theme_bytes() != before
    assert b"#AA0000" in after and b"#111111" in after
