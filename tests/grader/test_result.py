"""The one result type: verdicts, the JSON Lines contract, and the worker's wire format."""

import dataclasses
import json

import pytest

import grader
from grader import Counterexample, Part, Result, Step, StepStatus, Verdict
from grader.result import CONTRACT_FIELDS
from grader.worker import Worker


def test_a_result_is_immutable():
    r = Result(Verdict.WRONG)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.score = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(("request_", "verdict"), [
    ({"kind": "numeric", "expected": 0.4, "answer": "0.4"}, Verdict.CORRECT),
    ({"kind": "numeric", "expected": [1, 2], "answer": "[1, 3]"}, Verdict.PARTIAL),
    ({"kind": "numeric", "expected": 0.4, "answer": "0.5"}, Verdict.WRONG),
    ({"kind": "numeric", "expected": 0.4, "answer": "0.4 +"}, Verdict.UNREADABLE),
    ({"kind": "expression", "expected": "x^2", "answer": "x*x"}, Verdict.CORRECT),
    ({"kind": "expression", "expected": "x^2", "answer": "2x"}, Verdict.WRONG),
    ({"kind": "banana"}, Verdict.UNREADABLE),
])
def test_every_answer_gets_one_of_four_verdicts(request_, verdict):
    r = grader.check(request_)
    assert r.verdict is verdict
    assert r.correct is (verdict is Verdict.CORRECT)
    assert (r.error is not None) is (verdict is Verdict.UNREADABLE)


def test_the_json_lines_contract_has_exactly_its_fields():
    r = grader.check({"id": "q1", "kind": "numeric", "expected": 0.4, "answer": "0.4"})
    line = r.to_json()
    assert tuple(line) == CONTRACT_FIELDS
    assert line["id"] == "q1" and line["correct"] is True and line["score"] == 1.0
    json.dumps(line)


def test_a_wrong_formula_carries_its_counterexample():
    r = grader.check({"kind": "expression", "expected": "x^2", "answer": "2x"})
    assert isinstance(r.counterexample, Counterexample)
    assert r.counterexample.point in r.feedback


def test_every_field_survives_the_workers_wire():
    inner = Result(Verdict.WRONG, feedback="no", interpreted="x")
    full = Result(Verdict.PARTIAL, score=0.5, feedback="f", interpreted="a = b", malrule="m",
                  counterexample=Counterexample("x = 2", "4", "5"), first_wrong_step=2,
                  steps=(Step(1, StepStatus.VERIFIED, "a"), Step(2, StepStatus.DOES_NOT_FOLLOW,
                                                                 "b", "why")),
                  reaches_target=False, parts=(Part("loss", inner),), id="7", elapsed_ms=1.5)
    assert Result.from_wire(json.loads(json.dumps(full.to_wire()))) == full


def test_the_contained_worker_returns_the_same_result_as_in_process():
    request = {"kind": "derivation", "expected": "x^2 + 2x + 1",
               "answer": ["(x+1)^2", "x^2 + 2x + 2"]}
    worker = Worker(keep_spare=False)
    try:
        contained = worker.grade(request)
    finally:
        worker.close()
    from grader.kinds.request import grade_request

    assert contained == grade_request(request)
    assert [s.status for s in contained.steps] == [StepStatus.VERIFIED, StepStatus.DOES_NOT_FOLLOW]
