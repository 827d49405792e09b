"""CI: mutation tests of every answer key in the shipped bank (`quizbank test --mutations`).

Wrong answers derived from each key must be rejected and every mal-rule must be reachable. The
failures known today are listed, each with the reason, in data/known_mutation_survivors.json (the
bank belongs to the content work; the list is reconciled there). This test fails on a new failure
and on a listed one that no longer fails.
"""

import json
from pathlib import Path

import pytest

from quizbank import load_bank
from quizbank.grading import grade
from quizbank.mutations import KILLED, run_mutation_tests

KNOWN = json.loads((Path(__file__).parent / "data" / "known_mutation_survivors.json")
                   .read_text(encoding="utf-8"))["known"]


@pytest.fixture(scope="module")
def outcomes():
    return run_mutation_tests(load_bank(), grade)


def test_every_failure_is_known_and_every_known_one_still_fails(outcomes):
    failing = {(o.question_id, o.kind, o.mutant, o.status) for o in outcomes if not o.passed}
    known = {(k["question"], k["kind"], k["mutant"], k["status"]) for k in KNOWN}
    assert sorted(failing - known) == [], "new mutation-test failures (fix the bank or list them)"
    assert sorted(known - failing) == [], "fixed: remove these from known_mutation_survivors.json"


def test_every_known_failure_says_why():
    assert all(len(k["why"]) > 40 for k in KNOWN)


def test_the_mutants_exercise_every_kind_and_question_type(outcomes):
    kinds = {o.kind for o in outcomes if o.status == KILLED}
    assert {"drop_term", "drop_identity", "flip_sign", "swap_factors", "drop_transpose",
            "add_transpose", "exponent_up", "exponent_down", "tolerance_x10_up",
            "tolerance_x10_down_first", "transpose"} <= kinds
    bank = load_bank()
    tested = {bank.questions[o.question_id].type for o in outcomes}
    assert tested == {"expression", "derivation", "numeric", "generated"}
