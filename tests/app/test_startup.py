"""The modules the server loads and freezes at start-up exist, and none of them pulls in torch."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from app_pages.startup import PAGE_MODULES

ROOT = Path(__file__).resolve().parents[2]


def test_every_start_up_module_imports_and_torch_stays_out():
    code = (
        "import importlib, sys\n"
        f"for name in {list(PAGE_MODULES)!r}:\n"
        "    importlib.import_module(name)\n"
        "print('torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_start_up_work_waits_for_the_first_script_run(monkeypatch):
    # The warm-up (worker processes, imports, the bank) must not compete with the first page.
    import threading

    from app_pages import startup

    monkeypatch.setattr(startup, "_first_run_done", threading.Event())
    done = threading.Event()
    thread = startup.after_first_run(done.set, "test-warm-up")
    assert not done.wait(0.3)
    startup.first_run_finished()
    assert done.wait(5)
    thread.join(5)


def test_start_up_work_starts_anyway_without_the_shell(monkeypatch):
    # A page script run on its own (AppTest) never calls first_run_finished.
    import threading

    from app_pages import startup

    monkeypatch.setattr(startup, "_first_run_done", threading.Event())
    monkeypatch.setattr(startup, "FIRST_RUN_WAIT_S", 0.2)
    done = threading.Event()
    startup.after_first_run(done.set, "test-warm-up")
    assert done.wait(5)


@pytest.fixture
def fresh_preload(monkeypatch):
    """startup's preload state as in a new server process, the server already listening."""
    import threading

    from app_pages import startup

    monkeypatch.setattr(startup, "_preload_lock", threading.Lock())
    monkeypatch.setattr(startup, "_first_run_started", False)
    monkeypatch.setattr(startup, "_collection_paused", False)
    monkeypatch.setattr(startup, "_wait_until_serving", lambda: None)
    monkeypatch.setattr(startup, "PRELOAD_AFTER_S", 0.0)
    return startup


def test_the_preload_does_the_first_pages_work_without_collections(fresh_preload, monkeypatch):
    import gc

    seen = []
    monkeypatch.setattr(fresh_preload, "_first_page_work", lambda: seen.append(gc.isenabled()))
    fresh_preload.preload_first_page().join(5)
    assert seen == [False]
    assert gc.isenabled()


def test_a_preload_not_yet_begun_is_dropped_when_the_first_run_starts(fresh_preload, monkeypatch):
    seen = []
    monkeypatch.setattr(fresh_preload, "PRELOAD_AFTER_S", 0.3)
    monkeypatch.setattr(fresh_preload, "_first_page_work", lambda: seen.append("preloaded"))
    thread = fresh_preload.preload_first_page()
    fresh_preload._first_run_begins()
    thread.join(5)
    assert seen == []


def test_the_first_run_waits_for_a_preload_under_way(fresh_preload, monkeypatch):
    # Never two threads importing the same modules at once.
    import threading

    started, release, order = threading.Event(), threading.Event(), []

    def work():
        started.set()
        release.wait(5)
        order.append("preload done")

    monkeypatch.setattr(fresh_preload, "_first_page_work", work)
    preload = fresh_preload.preload_first_page()
    assert started.wait(5)
    first_run = threading.Thread(target=lambda: (fresh_preload._first_run_begins(),
                                                 order.append("first run goes on")))
    first_run.start()
    first_run.join(0.2)
    assert order == []  # still waiting
    release.set()
    first_run.join(5)
    preload.join(5)
    assert order == ["preload done", "first run goes on"]


def test_a_failed_preload_leaves_the_first_run_to_do_it(fresh_preload, monkeypatch):
    import gc

    def fail():
        raise OSError("database is locked")

    monkeypatch.setattr(fresh_preload, "_first_page_work", fail)
    fresh_preload.preload_first_page().join(5)
    assert gc.isenabled()
    # The failed preload let go of its lock: the first run goes on at once and does the work.
    assert fresh_preload._preload_lock.acquire(timeout=1)
    fresh_preload._preload_lock.release()


def test_the_app_server_preloads_the_first_page_once_it_listens():
    # `make run`'s command against the real Streamlit: the preload runs and the page is served.
    import os
    import tempfile
    import urllib.request

    from tests.e2e.server import ROOT, start_server, stop_server, wait_ready

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        server = start_server(ROOT / "streamlit_app.py", log_path=log,
                              env={"TUTOR_DATABASE_URL": f"sqlite:///{tmp}/tutor.db"})
        try:
            wait_ready(server)
            deadline = time.monotonic() + 60
            while "first page preloaded" not in server.log() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "first page preloaded" in server.log(), server.log()
            with urllib.request.urlopen(server.url, timeout=10) as response:
                assert response.status == 200
        finally:
            stop_server(server)
        assert os.path.exists(f"{tmp}/tutor.db")  # the progress store was opened (and migrated)


def test_the_tab_icon_is_a_local_png_once_image_tools_are_loaded():
    import numpy  # noqa: F401 - loaded, as after the first page's run

    from app_pages import FAVICON, favicon

    assert favicon() == FAVICON and FAVICON.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
