"""Layers by index (issue 24, item 2): members of a declared family, and declared relations."""

import numpy as np
import pytest

import grader
from grader.reading.names import Declarations
from grader.reading.nodes import Member
from grader.reading.parser import parse
from grader.values.evaluate import Env, evaluate

RESIDUAL = {"functions": ["F"], "families": ["x", "F"], "integers": ["L", "l"],
            "relations": ["x_{l+1} = x_l + F_l(x_l)"]}


def derivation(lines, start, **declared):
    result = grader.check({"kind": "derivation", "answer": lines, "start": start, **declared})
    assert not result.error, result.error
    return [s.status.value for s in result.steps]


def test_members_are_read_with_their_index():
    decls = Declarations.of(functions=["F"], matrices=["W"], families=["x", "F", "W"])
    node, _ = parse("x_{l+1} + F_l(x_l) + W_i", decls)
    kinds = [(t.family, t.kind) for t in node.terms]
    assert kinds == [("x", "symbol"), ("F", "function"), ("W", "matrix")]
    assert all(type(t) is Member for t in node.terms)


def test_the_same_index_value_is_the_same_member_and_distinct_ones_differ():
    decls = Declarations.of(families=["x"], integers=["l"])
    env = Env(k=3, n=1, seed=0)
    env.symbols["l"] = np.array([2, 2, 5], dtype=complex)
    shifted = evaluate(parse("x_{l+1}", decls)[0], env)
    assert shifted[0] == evaluate(parse("x_3", decls)[0], env)[0]
    assert shifted[2] == evaluate(parse("x_6", decls)[0], env)[2]
    assert evaluate(parse("x_3 - x_4", decls)[0], env)[0] != 0


@pytest.mark.parametrize("lines, expected", [
    ([r"x_l + \sum_{i=l}^{L-1} F_i(x_i)"], ["verified"]),  # the unrolled form (He et al. 2016b)
    ([r"x_0 + \sum_{i=0}^{L-1} F_i(x_i)"], ["verified"]),
    ([r"x_l + \sum_{i=l}^{L-1} \mathcal{F}_i(x_i)"], ["verified"]),  # as the papers write F
    ([r"x_l + \sum_{i=l}^{L} F_i(x_i)"], ["does_not_follow"]),  # one layer too many
    ([r"x_l + \sum_{i=l+1}^{L-1} F_i(x_i)"], ["does_not_follow"]),  # one layer too few
    ([r"x_l + \sum_{i=l}^{L-1} F_i(x_l)"], ["does_not_follow"]),  # every block at x_l
    ([r"x_l + \sum_{i=l}^{L-1} F_i(x_i)", r"x_{L-1} + F_{L-1}(x_{L-1})"],
     ["verified", "verified"]),
])
def test_the_unrolled_residual_stack_is_checked_against_the_recursion(lines, expected):
    assert derivation(lines, "x_L", **RESIDUAL) == expected


def test_the_recursion_step_itself():
    assert derivation(["x_{l+1} - x_l"], "F_l(x_l)", **RESIDUAL) == ["verified"]
    assert derivation(["x_{l+2} - x_l"], "F_l(x_l)", **RESIDUAL) == ["does_not_follow"]


def test_the_scalar_gradient_product_is_checked_at_concrete_depths():
    """d x_L / d x_l = prod_{i=l}^{L-1} (1 + F_i'(x_i)) for scalar layers: its expansion."""
    declared = {"functions": ["F"], "families": ["F", "x"], "integers": ["l"]}
    start = r"\prod_{i=l}^{l+1} (1 + F_i'(x_i))"
    right = r"1 + F_l'(x_l) + F_{l+1}'(x_{l+1}) + F_l'(x_l) F_{l+1}'(x_{l+1})"
    wrong = r"1 + F_l'(x_l) + F_{l+1}'(x_{l+1})"
    assert derivation([right], start, **declared) == ["verified"]
    assert derivation([wrong], start, **declared) == ["does_not_follow"]


@pytest.mark.parametrize("field, value, words", [
    ("integers", 5, "integers must be a list of names"),
    ("families", ["x!"], "not a valid declared name"),
    ("positive", ["a"], "positive names must be declared"),
    ("relations", ["x_{l+1}"], "one equation"),
    ("relations", ["x_{l+1} = x_l"] * 11, "at most 10"),
])
def test_bad_declarations_are_bad_requests(field, value, words):
    result = grader.check({"kind": "expression", "expected": "x", "answer": "x",
                           "symbols": ["x"], field: value})
    assert result.error and words in result.error


@pytest.mark.parametrize("relation", ["x_l = x_{l+1}", "F_{l+1}(t) = F_l(t)", "x = 1"])
def test_a_relation_that_is_not_a_recursion_is_a_misconfigured_question(relation):
    result = grader.check({"kind": "derivation", "answer": ["x_1"], "start": "x_1",
                           "families": ["x", "F"], "functions": ["F"], "integers": ["l"],
                           "relations": [relation]})
    assert result.error


# -- the gradient of the unrolled form, through the recursion (He et al. 2016b, eq. (5)) --------

GRADIENT = r"\frac{\partial x_L}{\partial x_l}"


@pytest.mark.parametrize("lines, expected", [
    ([r"1 + \frac{\partial}{\partial x_l}\sum_{i=l}^{L-1} F_i(x_i)"], ["verified"]),
    ([r"\prod_{i=l}^{L-1} (1 + F_i'(x_i))"], ["verified"]),  # scalar layers: the chain rule
    ([r"1 + \frac{\partial}{\partial x_l}\sum_{i=l}^{L-1} F_i(x_i)",
      r"\prod_{i=l}^{L-1} (1 + F_i'(x_i))"], ["verified", "verified"]),
    ([r"\prod_{i=l}^{L} (1 + F_i'(x_i))"], ["does_not_follow"]),  # one factor too many
    ([r"1 + \sum_{i=l}^{L-1} F_i'(x_i)"], ["does_not_follow"]),  # the cross terms dropped
    ([r"\prod_{i=l}^{L-1} F_i'(x_i)"], ["does_not_follow"]),  # the identity path dropped
])
def test_the_gradient_of_the_unrolled_form_is_checked_through_the_recursion(lines, expected):
    assert derivation(lines, GRADIENT, **RESIDUAL) == expected


def test_the_gradient_is_previewed_as_written():
    out = grader.preview(GRADIENT, **RESIDUAL)
    assert out["interpreted"] == r"\frac{\partial x_{L}}{\partial x_{l}}" and out["note"] is None


@pytest.mark.parametrize("answer, words", [
    ("x_{1000}", "too large to compute from its relation"),
    (r"\sum_{i=1}^{9}\sum_{j=1}^{9}\sum_{k=1}^{9}\sum_{m=1}^{9} x_{i+j+k+m}", "too many terms"),
    (r"\frac{\partial |x_L|}{\partial x_l}", None),  # not a member: read as an unknown Leibniz
])
def test_hostile_members_get_a_clear_message(answer, words):
    result = grader.check({"kind": "expression", "expected": "x_L", "answer": answer,
                           **RESIDUAL})
    assert result.error
    if words:
        assert words in result.error


def test_a_product_of_member_derivatives_is_evaluated():
    """Regression: the complex-step derivative came back as floats, and comparing it with a
    complex value failed (UFuncTypeError)."""
    square = GRADIENT + " " + GRADIENT
    lines = [r"\left(\prod_{i=l}^{L-1} (1 + F_i'(x_i))\right)^2"]
    assert derivation(lines, square, **RESIDUAL) == ["verified"]


# -- domains: positive and nonnegative names ------------------------------------------------------

@pytest.mark.parametrize("answer, expected, declared, correct", [
    ("sqrt(a^2)", "a", {}, False),  # a real a: |a|
    ("sqrt(a^2)", "a", {"positive": ["a"]}, True),
    ("sqrt(a^2)", "a", {"nonnegative": ["a"]}, True),
    ("2 log(a)", "log(a^2)", {"positive": ["a"]}, True),
    ("-a", "a", {"positive": ["a"]}, False),
    (r"\sum_{i=1}^{n} \sqrt{a^2}", "n a", {"positive": ["a"], "integers": ["n"]}, True),
])
def test_positive_names_are_sampled_positive(answer, expected, declared, correct):
    result = grader.check({"kind": "expression", "expected": expected, "answer": answer,
                           "symbols": ["a"], **declared})
    assert result.correct is correct
