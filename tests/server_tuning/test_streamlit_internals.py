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
        import streamlit.delta_generator as delta_generator

        monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
        streamlit_internals.skip_repl_check()
        assert delta_generator._use_warning_has_been_displayed is False
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
