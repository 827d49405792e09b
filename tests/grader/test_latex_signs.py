"""The LaTeX printer parenthesises a term that carries its own sign after + or - (issue 16,
item 5): `1 - (-F'(x))` is never written `1 - -F'(x)`, in every output that uses the printer
(the "interpreted as" preview, graded results, derivation lines)."""

import pytest

import grader


@pytest.mark.parametrize(
    ("typed", "latex"),
    [
        ("1 - (-F'(x))", r"1 - \left(-F'\left(x\right)\right)"),
        ("1 - (-2)", r"1 - \left(-2\right)"),
        ("x - (-y)", r"x - \left(-y\right)"),
        ("1 - (-2x)", r"1 - \left(-2 x\right)"),
        ("x - y", "x - y"),
        ("-x + y", "-x + y"),
        ("-(-x)", r"-\left(-x\right)"),
    ],
)
def test_a_signed_term_after_an_operator_is_parenthesised(typed, latex):
    assert grader.preview(typed, functions=["F"])["interpreted"] == latex


def test_the_graded_result_and_derivation_lines_use_the_same_parentheses():
    result = grader.check({"kind": "expression", "expected": "1 + F'(x)",
                           "answer": "1 - (-F'(x))", "functions": ["F"]})
    assert r"1 - \left(-F'" in result.interpreted
    assert " - -" not in result.interpreted
