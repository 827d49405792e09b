"""Mutation tests of answer keys: the mutants, the verdicts on them, mal-rule checks, the CLI."""

from __future__ import annotations

import json
import math

import pytest

from quizbank import parse_bank
from quizbank.grading import grade
from quizbank.mutations import (
    JUSTIFIED,
    KEY_REJECTED,
    KILLED,
    MALRULE_IS_KEY,
    MALRULE_UNREACHABLE,
    SURVIVED,
    number_mutants,
    run_question_mutations,
    survivors_report,
    tolerance_step,
)
from quizbank.numbers import Tolerance


def question(sample, kind, **changes):
    data = sample(kind) | changes
    return parse_bank({"questions": [data]}).questions[data["id"]]


@pytest.mark.parametrize("key, tolerance, step", [
    (2.0, {"kind": "relative", "value": 1.0e-3}, 2.0e-3),
    (0.0, {"kind": "relative", "value": 1.0e-3}, 1.0e-3),
    (-5.0, {"kind": "absolute", "value": 0.01}, 0.01),
    (9.54e-7, {"kind": "sigfigs", "value": 3}, 1.0e-9),
    (3325.26, {"kind": "sigfigs", "value": 2}, 100.0),
])
def test_one_tolerance_at_the_key(key, tolerance, step):
    assert math.isclose(tolerance_step(key, Tolerance(**tolerance)), step, rel_tol=1e-12)


def test_number_mutants_of_a_matrix():
    tolerance = Tolerance(kind="absolute", value=0.1)
    found = dict(number_mutants([[1.0, 2.0], [3.0, 4.0]], tolerance))
    assert found["tolerance_x10_up"] == [[2.0, 3.0], [4.0, 5.0]]
    assert found["tolerance_x10_down_first"] == [[0.0, 2.0], [3.0, 4.0]]
    assert found["flip_sign"] == [[-1.0, -2.0], [-3.0, -4.0]]
    assert found["transpose"] == [[1.0, 3.0], [2.0, 4.0]]


def test_symmetric_matrices_and_zero_keys_have_no_useless_mutants():
    tolerance = Tolerance(kind="relative", value=1.0e-3)
    assert "transpose" not in dict(number_mutants([[1.0, 2.0], [2.0, 1.0]], tolerance))
    assert "flip_sign" not in dict(number_mutants(0.0, tolerance))


def test_numeric_mutants_are_killed_by_the_grader(sample):
    outcomes = run_question_mutations(question(sample, "numeric"), grade)
    assert outcomes and {o.status for o in outcomes} == {KILLED}


def accept_everything(question, answer, *, lang="en", variant=None):
    from grader import Result, Verdict

    return Result(Verdict.CORRECT, score=1.0)


def test_a_grader_that_accepts_mutants_makes_them_survive_unless_justified(sample):
    q = question(sample, "numeric", accepted_mutants=[
        {"answer": "[-0.4, -2.05]", "why": "the sign does not matter here (a made-up reason)"}])
    outcomes = {o.kind: o for o in run_question_mutations(q, accept_everything)}
    assert outcomes["flip_sign"].status == JUSTIFIED
    assert "made-up reason" in outcomes["flip_sign"].detail
    assert outcomes["tolerance_x10_up"].status == SURVIVED


def test_a_key_the_grader_rejects_is_reported_first(sample):
    def reject(question, answer, **_):
        from grader import Result, Verdict

        return Result(Verdict.WRONG, feedback="no")

    (outcome,) = run_question_mutations(question(sample, "numeric"), reject)
    assert outcome.status == KEY_REJECTED


def test_a_malrule_equal_to_the_key_is_reported(sample, monkeypatch):
    monkeypatch.setattr("quizbank.mutations.formula_mutants", lambda text, q: [])
    q = question(sample, "expression", malrules=[
        {"answer": "(W + I)^T g", "feedback": {"en": "same as the key", "zh": "与答案相同"}}])
    (outcome,) = run_question_mutations(q, grade)
    assert outcome.status == MALRULE_IS_KEY


def test_a_malrule_shadowed_by_an_earlier_one_is_unreachable(sample, monkeypatch):
    monkeypatch.setattr("quizbank.mutations.formula_mutants", lambda text, q: [])
    rule = {"feedback": {"en": "forgot the transpose", "zh": "忘了转置"}}
    q = question(sample, "expression", malrules=[
        {**rule, "answer": "(I + W) g"},
        {"answer": "g + W g", "feedback": {"en": "never shown", "zh": "不会显示"}}])
    first, second = run_question_mutations(q, grade)
    assert first.status == KILLED
    assert second.status == MALRULE_UNREACHABLE and "another" in second.detail


def test_numeric_malrules_are_checked_too(sample):
    q = question(sample, "numeric", malrules=[
        {"answer": "[0.4, 2.05]", "feedback": {"en": "is the key", "zh": "就是答案"}},
        {"answer": "[0.5, 1.5]", "feedback": {"en": "W, not W^T", "zh": "用了 W"}}])
    statuses = [o.status for o in run_question_mutations(q, grade) if o.kind.startswith("mal")]
    assert statuses == [MALRULE_IS_KEY, KILLED]


def test_generated_questions_perturb_each_asked_answer(sample):
    q = question(sample, "generated")
    outcomes = run_question_mutations(q, grade)
    assert {o.status for o in outcomes} == {KILLED}
    seeds = {o.mutant.split(":")[0] for o in outcomes}
    assert seeds == {"seed 1", "seed 2", "seed 3"}
    assert len(outcomes) == 3 * len(q.asks) * 3


def test_the_report_lists_what_did_not_die(sample):
    outcomes = run_question_mutations(question(sample, "numeric"), accept_everything)
    report = survivors_report(outcomes)
    assert report.count("| fx-numeric |") == len(outcomes)
    assert "survived" in report


def test_cli_fails_on_a_survivor_and_writes_the_report(tmp_path, capsys, monkeypatch, sample):
    from quizbank.cli import main

    monkeypatch.setattr("quizbank.mutations.formula_mutants", lambda text, q: [])
    data = sample("expression") | {"malrules": [
        {"answer": "(W + I)^T g", "feedback": {"en": "same", "zh": "相同"}}], "tests": []}
    (tmp_path / "bank.yaml").write_text(json.dumps({"questions": [data]}), encoding="utf-8")
    report = tmp_path / "report.md"
    code = main(["test", str(tmp_path / "bank.yaml"), "--mutations", "--report", str(report)])
    out = capsys.readouterr().out
    assert code == 1 and "malrule_is_key" in out and "bank.yaml:" in out
    assert "(W + I)^T g" in report.read_text(encoding="utf-8")


def test_a_tiny_absolute_tolerance_is_not_rounded_away(sample):
    # Regression: mutants were printed with 12 significant figures, so 230144 + 1e-8 came out as
    # the key itself and "survived".
    q = question(sample, "numeric", answer=230144,
                 tolerance={"kind": "absolute", "value": 1.0e-9},
                 tests=[{"answer": "230144", "verdict": "correct"}])
    outcomes = {o.kind: o for o in run_question_mutations(q, grade)}
    assert outcomes["tolerance_x10_up"].status == KILLED
    assert outcomes["tolerance_x10_up"].mutant != "230144.0"
