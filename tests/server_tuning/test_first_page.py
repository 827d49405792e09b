"""The first page's preload and the first script run: never importing at once, collections paused
only while they work; the warm-up waits for the first page; the modules it loads exist."""

import gc
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from server_tuning import warm_up
from server_tuning.first_page import FirstPage

ROOT = Path(__file__).resolve().parents[2]


def test_every_warm_up_module_imports_and_torch_stays_out():
    code = (
        "import importlib, sys\n"
        f"for name in {list(warm_up.PAGE_MODULES)!r}:\n"
        "    importlib.import_module(name)\n"
        "print('torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_warm_up_work_waits_for_the_first_script_run(monkeypatch):
    # The warm-up (worker processes, imports, the bank) must not compete with the first page.
    monkeypatch.setattr(warm_up, "FIRST_PAGE_GRACE_S", 0.0)
    page, done = FirstPage(), threading.Event()
    thread = warm_up.after_first_run(page.finished, done.set, "test-warm-up")
    page.run_starts()
    assert not done.wait(0.3)
    page.run_finished()
    assert done.wait(5)
    thread.join(5)


def test_warm_up_work_starts_anyway_when_nobody_opens_the_page(monkeypatch):
    monkeypatch.setattr(warm_up, "FIRST_RUN_WAIT_S", 0.2)
    monkeypatch.setattr(warm_up, "FIRST_PAGE_GRACE_S", 0.0)
    done = threading.Event()
    warm_up.after_first_run(FirstPage().finished, done.set, "test-warm-up")
    assert done.wait(5)


@pytest.fixture
def no_delay(monkeypatch):
    from server_tuning import first_page

    monkeypatch.setattr(first_page, "PRELOAD_AFTER_S", 0.0)
    yield
    gc.enable()  # whatever a failing test left


def serving_now() -> None:
    pass


def test_the_preload_works_without_collections_and_resumes_them(no_delay):
    page, seen = FirstPage(), []
    page.preload(lambda: seen.append(gc.isenabled()), serving_now).join(5)
    assert seen == [False]
    assert gc.isenabled()


def test_the_first_run_runs_without_collections_until_it_finishes(no_delay):
    page = FirstPage()
    page.run_starts()
    assert not gc.isenabled()
    page.run_starts()  # a second session's run meanwhile changes nothing
    page.run_finished()
    assert gc.isenabled() and page.finished.is_set()


def test_a_preload_not_yet_begun_is_dropped_when_the_first_run_starts(no_delay, monkeypatch):
    from server_tuning import first_page

    monkeypatch.setattr(first_page, "PRELOAD_AFTER_S", 0.3)
    page, seen = FirstPage(), []
    thread = page.preload(lambda: seen.append("preloaded"), serving_now)
    page.run_starts()
    thread.join(5)
    page.run_finished()
    assert seen == []


def test_the_first_run_waits_for_a_preload_under_way(no_delay):
    page = FirstPage()
    started, release, order = threading.Event(), threading.Event(), []

    def work():
        started.set()
        release.wait(5)
        order.append("preload done")

    preload = page.preload(work, serving_now)
    assert started.wait(5)
    first_run = threading.Thread(target=lambda: (page.run_starts(), order.append("first run goes on")))
    first_run.start()
    first_run.join(0.2)
    assert order == []  # still waiting
    release.set()
    first_run.join(5)
    preload.join(5)
    page.run_finished()
    assert order == ["preload done", "first run goes on"]
    assert gc.isenabled()


def test_a_failed_preload_leaves_the_first_run_to_do_it(no_delay):
    page = FirstPage()

    def fail():
        raise OSError("database is locked")

    page.preload(fail, serving_now).join(5)
    assert gc.isenabled()
    done = threading.Thread(target=page.run_starts)  # the lock was let go: no wait
    done.start()
    done.join(1)
    assert not done.is_alive()
    page.run_finished()


# The shell's first run against a preload that holds on (in a fresh interpreter, so that what is
# in sys.modules is what this run imported). Before server tuning moved, the shell imported the
# first page's modules (the store, the picker) *before* its start-up hook took the preload's lock:
# two threads importing the same modules at once, the race this test catches.
SHELL_DURING_PRELOAD = """
import sys, threading, time
import server_tuning
from server_tuning import first_page
first_page.PRELOAD_AFTER_S = 0.0
started, release = threading.Event(), threading.Event()
first_page.first_page_work = lambda: (started.set(), release.wait(60))
first_page.wait_until_serving = lambda: None
server_tuning.enable()
assert started.wait(30), "the preload did not start"
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("streamlit_app.py", default_timeout=120)
run = threading.Thread(target=at.run)
run.start()
time.sleep(2.0)
imported_meanwhile = [m for m in ("app_pages.widgets.progress", "app_pages.state", "sqlalchemy")
                      if m in sys.modules]
release.set()
run.join(120)
print("imported while the preload worked:", imported_meanwhile)
print("page drawn:", bool(at.title))
"""


def test_the_shells_first_run_imports_nothing_while_the_preload_works(tmp_path):
    done = subprocess.run([sys.executable, "-c", SHELL_DURING_PRELOAD], cwd=ROOT, timeout=300,
                          capture_output=True, text=True,
                          env={**_env(), "TUTOR_DATABASE_URL": f"sqlite:///{tmp_path}/p.db"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "imported while the preload worked: []" in done.stdout, done.stdout
    assert "page drawn: True" in done.stdout, done.stdout + done.stderr[-3000:]


def _env() -> dict:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_the_app_server_preloads_the_first_page_once_it_listens():
    # `make run`'s command against the real Streamlit: the preload runs and the page is served.
    import os
    import tempfile
    import urllib.request

    from tests.e2e.server import ROOT as APP_ROOT
    from tests.e2e.server import start_server, stop_server, wait_ready

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        server = start_server(APP_ROOT / "streamlit_app.py", log_path=log,
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


# A server that died with an answer in its spool (the answer never reached the database).
CRASHED_SERVER = """
import os, sys
from tutor.store import ProgressStore, Spool, database_tag
from tutor.store.progress import utc_now
from tutor.store.records import NewAttempt
from tutor.store.spool import SpooledAttempt
from grader import Verdict

store = ProgressStore.open(os.environ["TUTOR_DATABASE_URL"])
learner = store.create_profile("Ada")
Spool(os.environ["TUTOR_SPOOL_DIR"], database=database_tag(store.url)).append(
    [SpooledAttempt(learner.id, NewAttempt(question_id="basics-residual-3d-example",
                                           verdict=Verdict.WRONG, key="left-by-the-crash"),
                    utc_now())])
os._exit(0)  # no settling, no clean exit: as a killed server
"""


def test_the_first_page_work_opens_the_store_and_writes_what_a_crashed_server_left(tmp_path,
                                                                                    monkeypatch):
    from app_pages.widgets import progress, resources
    from server_tuning.first_page import first_page_work
    from tutor.store import ProgressStore

    url = f"sqlite:///{tmp_path / 'progress.db'}"
    monkeypatch.setenv("TUTOR_DATABASE_URL", url)
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(tmp_path / "spool"))
    crashed = subprocess.run([sys.executable, "-c", CRASHED_SERVER], cwd=ROOT, env=_env(),
                             capture_output=True, text=True, timeout=120)
    assert crashed.returncode == 0, crashed.stderr[-3000:]
    first_page_work()
    store = ProgressStore.open(url)
    try:
        (learner,) = store.list_profiles()
        deadline = time.monotonic() + 60  # the writer's thread writes it: wait for that state
        while not store.list_attempts(learner.id) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [a.key for a in store.list_attempts(learner.id)] == ["left-by-the-crash"]
    finally:
        store.close()
    assert resources.progress_store().url.render_as_string() == url  # opened, shared
    assert progress.attempt_writer().replayed == 1  # the preload's writer is the page's


def test_the_preload_waits_until_the_server_listens(tmp_path):
    import asyncio

    from streamlit.runtime import Runtime, RuntimeConfig
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    from server_tuning.first_page import wait_until_serving

    (tmp_path / "app.py").write_text("")
    runtime = Runtime(RuntimeConfig(script_path=str(tmp_path / "app.py"),
                                    media_file_storage=MemoryMediaFileStorage("/media"),
                                    uploaded_file_manager=MemoryUploadedFileManager("/upload")))
    loop = asyncio.new_event_loop()
    loop_thread = threading.Thread(target=loop.run_forever, daemon=True)
    loop_thread.start()
    waiting = threading.Thread(target=wait_until_serving, kwargs={"poll": 0.001})
    try:
        waiting.start()
        waiting.join(0.2)
        assert waiting.is_alive()  # the runtime is made but does not listen yet
        asyncio.run_coroutine_threadsafe(runtime.start(), loop).result(30)
        waiting.join(30)
        assert not waiting.is_alive()
    finally:
        runtime.stop()
        loop.call_soon_threadsafe(loop.stop)
        loop_thread.join(10)
        Runtime._instance = None
