"""`grader.check` grades in this process when sampling decides, and uses the contained worker
only for the symbolic check: most answers never wait for the worker, even while it starts."""

import pytest

import grader
from grader import api
from grader.kinds.feedback import result


class RecordingWorker:
    def __init__(self) -> None:
        self.requests: list[dict] = []

    def grade(self, request: dict) -> dict:
        self.requests.append(request)
        return result(correct=True, score=1.0, feedback="from the worker")

    def start(self) -> None:
        raise RuntimeError("grader worker did not start")


@pytest.fixture
def worker(monkeypatch) -> RecordingWorker:
    stub = RecordingWorker()
    monkeypatch.setattr(api, "shared_worker", lambda: stub)
    return stub


@pytest.mark.parametrize("request_", [
    {"kind": "numeric", "expected": [0.5, -0.2, 0.1], "answer": "[0.5, -0.2, 0.1]"},
    {"kind": "numeric", "expected": 0.5**20, "answer": "9.54×10^-7", "sigfigs": 3},
    {"kind": "expression", "expected": "(I + W)^T g", "answer": "g + W^T g",
     "matrices": ["W", "g"]},
    {"kind": "expression", "expected": "1 + F'(x)", "answer": "diff(x + F(x), x)",
     "functions": ["F"]},
    {"kind": "derivation", "expected": "x^2 + 2x + 1", "answer": ["(x+1)^2", "x^2 + 2x + 1"]},
])
def test_sampling_decides_without_the_worker(worker, request_):
    graded = grader.check(request_)
    assert graded.correct and graded.error is None
    assert worker.requests == []
    assert graded.elapsed_ms >= 0


def test_what_sampling_cannot_decide_goes_to_the_worker(worker):
    # sqrt(-1-x^2) is not real at any sample point: only the symbolic check can compare.
    request = {"kind": "expression", "expected": "sqrt(-1-x^2)", "answer": "sqrt(-(1+x^2))"}
    graded = grader.check(request)
    assert worker.requests == [request]
    assert graded.feedback == "from the worker"


def test_wrong_and_unreadable_answers_are_graded_here_too(worker):
    assert not grader.check({"kind": "numeric", "expected": 2, "answer": "3"}).correct
    assert grader.check({"kind": "numeric", "expected": 2, "answer": "2+"}).error
    assert worker.requests == []


def test_warm_up_never_raises_when_the_worker_cannot_start(worker):
    grader.warm_up()  # the stub's start() raises: the app's warm-up thread must not
