"""The modules the server loads and freezes at start-up exist, and none of them pulls in torch."""

import subprocess
import sys
from pathlib import Path

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
