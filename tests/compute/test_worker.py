"""compute.worker: the same problems and errors as in-process, torch only in the child."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

import compute
from compute import worker as compute_worker
from compute.errors import ParamsError, TemplateError
from compute.worker_main import reply_to

TEMPLATES = [t["name"] for t in compute.list_templates()]


@pytest.fixture(scope="module")
def child():
    worker = compute_worker.ComputeWorker()
    worker.start()
    yield worker
    worker.close()


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("difficulty", compute.DIFFICULTIES)
def test_worker_builds_the_very_dict_of_the_in_process_call(child, template, difficulty):
    for seed in (0, 7):
        arguments = {"template": template, "seed": seed, "difficulty": difficulty}
        assert child.call("generate", arguments) == compute.generate(
            template, seed=seed, difficulty=difficulty)


def test_worker_deep_mlp_series_matches(child):
    setting = {"depth": 6, "width": 5, "gain": 0.9, "seed": 3}
    assert child.call("deep_mlp_grad_norms", setting) == compute.series.deep_mlp_grad_norms(
        6, 5, 0.9, 3)


@pytest.mark.parametrize(("arguments", "error", "text"), [
    ({"template": "no_such_template", "seed": 0, "difficulty": "easy"}, TemplateError,
     "no_such_template"),
    ({"template": TEMPLATES[0], "seed": -1, "difficulty": "easy"}, ParamsError, "seed"),
    ({"template": TEMPLATES[0], "seed": 0, "difficulty": "extreme"}, ParamsError, "difficulty"),
])
def test_worker_raises_the_compute_error_of_the_in_process_call(child, arguments, error, text):
    with pytest.raises(error, match=text) as raised:
        child.call("generate", arguments)
    with pytest.raises(error) as local:
        compute.generate(arguments["template"], seed=arguments["seed"],
                         difficulty=arguments["difficulty"])
    assert str(raised.value) == str(local.value)
    if error is ParamsError:
        assert raised.value.problems == local.value.problems


def test_reply_to_reports_an_unknown_job_without_dying():
    reply = reply_to(json.dumps({"job": "format_disk", "arguments": {}}))
    assert reply["error"]["type"] == "KeyError"


def test_a_killed_child_is_replaced_on_the_next_call():
    worker = compute_worker.ComputeWorker()
    try:
        worker.start()
        os.kill(worker.pid, signal.SIGKILL)
        arguments = {"template": TEMPLATES[0], "seed": 1, "difficulty": "easy"}
        assert worker.call("generate", arguments) == compute.generate(
            TEMPLATES[0], seed=1, difficulty="easy")
        assert worker.restarts == 1
    finally:
        worker.close()


def test_routed_process_never_imports_torch():
    code = (
        "import sys, compute, compute.worker\n"
        "compute.worker.route()\n"
        "p = compute.generate(compute.list_templates()[0]['name'], seed=3)\n"
        "s = compute.series.deep_mlp_grad_norms(4, 3, 0.5, 0)\n"
        "assert p['answers'] and s['plain']\n"
        "print('torch' in sys.modules)\n"
        "compute.worker.stop()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_torch_probe_can_fail():
    # Without routing the same calls do import torch: the test above can tell the difference.
    code = ("import sys, compute\ncompute.generate(compute.list_templates()[0]['name'], seed=3)\n"
            "print('torch' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_a_child_that_does_not_answer_in_time_is_killed_and_replaced():
    worker = compute_worker.ComputeWorker(call_timeout=0.0)  # no reply can be in time
    arguments = {"template": TEMPLATES[0], "seed": 1, "difficulty": "easy"}
    try:
        worker.start()
        hung = worker.pid
        with pytest.raises(compute_worker.WorkerError, match="did not answer"):
            worker.call("generate", arguments)
        assert worker.pid is None  # killed
        worker.call_timeout = 30.0
        assert worker.call("generate", arguments) == compute.generate(
            TEMPLATES[0], seed=1, difficulty="easy")
        assert worker.pid != hung
    finally:
        worker.close()
