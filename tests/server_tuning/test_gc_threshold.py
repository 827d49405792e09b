"""A tuned server, once warm, collects its youngest generation less often than Python's default:
with a class on the server, the default's full collections held the interpreter lock for
4-7 s a minute (docs/server.md, "Garbage collection under a class"). Untuned processes keep
Python's thresholds."""

import gc
import json
import subprocess
import sys
from pathlib import Path

from server_tuning import warm_up

ROOT = Path(__file__).resolve().parents[2]

WARM_UP_WITHOUT_WORKER = """
import gc, json
import compute.worker
compute.worker.start = lambda: None  # the warm-up's worker process is not what is tested here
from server_tuning import warm_up
before = gc.get_threshold()
warm_up.start_worker_load_and_freeze()
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def test_the_warm_up_freezes_then_raises_the_young_generations_threshold(tmp_path):
    done = subprocess.run([sys.executable, "-c", WARM_UP_WITHOUT_WORKER], cwd=ROOT, text=True,
                          capture_output=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                               "TUTOR_DATABASE_URL": f"sqlite:///{tmp_path}/progress.db"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == [700, 10, 10]  # Python's own, until the warm-up
    assert seen["after"] == [warm_up.YOUNG_GENERATION_THRESHOLD, 10, 10]
    assert seen["frozen"] > 100_000  # the start-up heap, frozen before


def test_an_untuned_process_keeps_pythons_thresholds():
    # this test process imported the tuning module without enabling it
    assert gc.get_threshold()[0] == 700
