"""Display formatting: short, trimmed numbers; values filled into LaTeX untouched."""

from __future__ import annotations

import pytest

from compute.texfmt import count, fill, mat, num, vec


@pytest.mark.parametrize(("value", "text"), [
    (0.0, "0"), (-0.0, "0"), (2.0, "2"), (-3.0, "-3"), (2.0500000000000003, "2.05"),
    (0.1 + 0.2, "0.3"), (1.3249e-4, r"1.325 \times 10^{-4}"), (9.5367431640625e-07,
                                                            r"9.537 \times 10^{-7}"),
    (3325.256730079651, "3325"), (0.001234567, "0.001235"), (-0.55, "-0.55"),
    (9.99996e-5, r"1 \times 10^{-4}"), (123456789.0, "123456789"), (1.5e12, r"1.5 \times 10^{12}"), (2.5e15, r"2.5 \times 10^{15}"),
])
def test_num(value, text):
    assert num(value) == text


def test_arrays_and_fill():
    assert vec([1.0, 0.5]) == r"\begin{bmatrix}1 \\ 0.5\end{bmatrix}"
    assert mat([[1, 2], [3, 4]]) == r"\begin{bmatrix}1 & 2 \\ 3 & 4\end{bmatrix}"
    assert count(2362368) == r"2\,362\,368"
    assert fill(r"$\frac{1}{2} @x + @{y}z$", x="a", y="b") == r"$\frac{1}{2} a + bz$"


# ---- issue 16, item 5: signs in parentheses, the key's precision --------------------------------
def test_a_negative_operand_is_parenthesised():
    from compute.texfmt import operand

    assert (operand(-2.0), operand(2.0), operand(0.0)) == ("(-2)", "2", "0")


@pytest.mark.parametrize(
    ("value", "text"),
    [(20.345, "20.345"), (20.345000000000002, "20.345"), (2.4, "2.400"), (1.0, "1.000"),
     (0.0, "0"), (1 / 3, "0.333333"), (-3.26, "-3.260"), (9.54e-7, r"9.540 \times 10^{-7}")],
)
def test_a_key_is_as_precise_as_the_key_list_and_never_below_four_figures(value, text):
    from compute.texfmt import key_num
    from tutor.sessions.exercises import format_value

    assert key_num(value) == text
    if "times" not in text and value != int(value):  # the page's list of keys agrees
        assert float(format_value(value)) == float(text)


@pytest.mark.parametrize("seed", range(1, 25))
def test_the_worked_loss_never_writes_minus_minus(seed):
    import re

    import compute

    problem = compute.generate("linear_residual_block", seed=seed, difficulty="medium")
    for lang in ("en", "zh"):
        assert not re.search(r"-\s*-\s*\d", problem["solution"][lang])
    loss = problem["answers"]["loss"]
    from compute.texfmt import key_num

    assert f"= {key_num(loss)}$$" in problem["solution"]["en"]
