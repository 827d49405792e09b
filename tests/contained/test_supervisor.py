"""contained.Supervisor: JSON lines to a child process, a hung child killed, a dead one replaced,
as `grader.worker` and `compute.worker` rely on (their own tests drive the real workers)."""

from __future__ import annotations

import ast
import os
import signal
from pathlib import Path

import pytest

from contained import NoReply, Supervisor, WorkerUnavailable

ROOT = Path(__file__).resolve().parents[2]
CHILD = "tests.contained.echo_child"


@pytest.fixture
def supervisors():
    made: list[Supervisor] = []

    def make(**options) -> Supervisor:
        made.append(Supervisor(CHILD, startup_timeout=30, **options))
        return made[-1]

    yield make
    for supervisor in made:
        supervisor.close()


def test_the_package_stays_a_leaf_below_grader_and_compute():
    """Both leaves import it, so it imports none of the project (nor the app or torch)."""
    project = {"grader", "compute", "quizbank", "tutor", "app_pages", "streamlit", "torch"}
    imported = set()
    for path in (ROOT / "contained").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
    assert "contained" in imported and "json" in imported  # the walk saw the imports
    assert not imported & project


def test_a_request_gets_its_reply_and_printing_cannot_corrupt_it(supervisors):
    supervisor = supervisors()
    assert supervisor.request({"job": "echo", "text": "残差 x"}, timeout=10)["echo"] == {
        "job": "echo", "text": "残差 x"}
    assert supervisor.request({"job": "print"}, timeout=10)["echo"] == {"job": "print"}
    assert supervisor.restarts == 0


def test_a_message_that_is_not_json_is_refused_before_anything_is_sent(supervisors):
    supervisor = supervisors()
    with pytest.raises(TypeError):
        supervisor.request({"job": object()}, timeout=10)
    assert supervisor.pid is None  # no child was started for it


@pytest.mark.parametrize("replace_at_once", [False, True])
def test_a_hung_child_is_killed_and_replaced(supervisors, replace_at_once):
    supervisor = supervisors(replace_at_once=replace_at_once)
    supervisor.start()
    hung = supervisor.pid
    with pytest.raises(NoReply) as failure:
        supervisor.request({"job": "sleep", "seconds": 30}, timeout=0.5)
    assert not failure.value.died and supervisor.restarts == 1
    with pytest.raises(ProcessLookupError):
        os.kill(hung, 0)  # killed and reaped
    assert (supervisor.pid is not None) == replace_at_once  # at once, or on the next request
    assert supervisor.request({"job": "echo"}, timeout=10)["pid"] not in (hung, None)


def test_a_request_that_kills_the_child_is_not_sent_again_by_default(supervisors, tmp_path):
    supervisor = supervisors()
    with pytest.raises(NoReply) as failure:
        supervisor.request({"job": "die_once", "marker": str(tmp_path / "m")}, timeout=10)
    assert failure.value.died and supervisor.restarts == 1
    assert supervisor.request({"job": "echo"}, timeout=10)["echo"] == {"job": "echo"}


def test_retry_if_died_sends_the_request_to_a_fresh_child(supervisors, tmp_path):
    supervisor = supervisors(retry_if_died=True)
    reply = supervisor.request({"job": "die_once", "marker": str(tmp_path / "m")}, timeout=10)
    assert reply["pid"] == supervisor.pid and supervisor.restarts == 1


def test_retry_if_died_gives_up_after_one_more_try(supervisors):
    supervisor = supervisors(retry_if_died=True)
    with pytest.raises(NoReply) as failure:
        supervisor.request({"job": "die"}, timeout=10)
    assert failure.value.died and supervisor.restarts == 2


def test_a_child_killed_between_requests_is_replaced(supervisors):
    """Killed (the out-of-memory killer, an operator) just before a request: the death is seen
    only when the reply does not come, and the request goes to a fresh child."""
    supervisor = supervisors(retry_if_died=True)
    supervisor.start()
    killed = supervisor.pid
    os.kill(killed, signal.SIGKILL)
    reply = supervisor.request({"job": "echo"}, timeout=10)
    assert reply["pid"] != killed and supervisor.restarts == 1


def test_a_spare_takes_over_at_once_after_a_failure(supervisors):
    supervisor = supervisors(keep_spare=True)
    supervisor.start()
    first = supervisor.pid
    spare = supervisor._spare.process.pid
    with pytest.raises(NoReply):
        supervisor.request({"job": "sleep", "seconds": 30}, timeout=0.5)
    assert supervisor.request({"job": "echo"}, timeout=10)["pid"] == spare != first


def test_a_child_that_never_says_ready_is_unavailable_and_killed(monkeypatch):
    monkeypatch.setenv("ECHO_CHILD_SILENT", "1")
    supervisor = Supervisor(CHILD, startup_timeout=1.0)
    try:
        with pytest.raises(WorkerUnavailable):
            supervisor.request({"job": "echo"}, timeout=10)
        assert supervisor.pid is None
    finally:
        supervisor.close()
