"""Issue 24, the two halves together: Leibniz fractions of members and symbols, `dF(x)` written
as one run, Greek families (`\\lambda_l`), boxed chains and the gradient of an undeclared loss.

Every case failed on main before the integration (unreadable, or a label swallowing a line)."""

import pytest

import grader

LAYERS = {"families": ["x", "F"], "functions": ["F"], "integers": ["l", "L", "n"],
          "relations": ["x_{l+1} = x_l + F_l(x_l)"]}
HE = {"families": ["x", "W"], "functions": ["F"], "integers": ["l", "L", "i"],
      "relations": ["x_{l+1} = x_l + F(x_l, W_l)"]}


def statuses(answer, **declared):
    result = grader.check({"kind": "derivation", "answer": answer, "lang": "en", **declared})
    assert result.error is None, result.error
    return [s.status.value for s in result.steps]


@pytest.mark.parametrize(("answer", "expected"), [
    # ∂x/∂W is 0: x and W are independent symbols (the weight derivative of a block)
    ([r"\frac{\partial}{\partial W}\left(x + F(x, W)\right)",
      r"\frac{\partial x}{\partial W} + \frac{\partial F(x, W)}{\partial W}",
      r"\frac{\partial F(x, W)}{\partial W}"], ["verified"] * 3),
    ([r"\frac{\partial}{\partial W}\left(x + F(x, W)\right)",
      r"\frac{\partial x}{\partial W} + \frac{\partial F(x, W)}{\partial W}",
      r"1 + \frac{\partial F(x, W)}{\partial W}"], ["verified", "verified", "does_not_follow"]),
    # dF(x) written as one run of letters is d F(x)
    ([r"\frac{d}{dx}\left(x F(x)\right)", r"\frac{dx}{dx}F(x) + x\frac{dF(x)}{dx}",
      "F(x) + x F'(x)"], ["verified"] * 3),
    ([r"\frac{d}{dx}\left(x F(x)\right)", r"\frac{dx}{dx}F(x) + x\frac{dF(x)}{dx}",
      "F(x) + F'(x)"], ["verified", "verified", "does_not_follow"]),
])
def test_leibniz_fractions_of_symbols_and_one_run_calls(answer, expected):
    assert statuses(answer, symbols=["x", "W"], functions=["F"]) == expected


@pytest.mark.parametrize(("block", "expected"), [
    (r"$$\boxed{ \frac{\partial x_{l+1}}{\partial x_l} =1+F_l'(x_l) }$$", ["verified"] * 2),
    (r"$$\boxed{ \frac{\partial x_{l+1}}{\partial x_l} =F_l'(x_l) }$$",
     ["verified", "does_not_follow"]),
    (r"$$\boxed{x_n=x_0+\sum_{l=0}^{n-1}F_l(x_l)}$$", ["verified"] * 2),
    (r"$$\boxed{x_n=x_0+\sum_{l=0}^{n}F_l(x_l)}$$", ["verified", "does_not_follow"]),
])
def test_a_boxed_member_chain_checks_against_the_relation(block, expected):
    assert statuses(block, **LAYERS) == expected


def test_a_greek_family_reads_in_a_relation():
    declared = {"families": ["x", "lambda", "F"], "functions": ["F"],
                "integers": ["L", "l", "i", "j"],
                "relations": [r"x_{l+1} = \lambda_l x_l + F_l(x_l)"]}
    right = (r"x_L=\Bigl(\prod_{i=l}^{L-1}\lambda_i\Bigr)x_l+\sum_{i=l}^{L-1}"
             r"\Bigl(\prod_{j=i+1}^{L-1}\lambda_j\Bigr)F_i(x_i)")
    assert statuses(right, **declared) == ["verified"] * 2
    off_by_one = right.replace(r"\prod_{j=i+1}", r"\prod_{j=i}")
    assert statuses(off_by_one, **declared) == ["verified", "does_not_follow"]


def test_the_gradient_of_an_undeclared_loss_is_one_unknown_value():
    """∂ℒ/∂x_L (ℒ undeclared, or read as the depth L) is a value nothing else determines: the
    chain checks when both sides carry it the same way, and not when a factor changes."""
    head = r"\frac{\partial \mathcal{L}}{\partial x_l} = "
    right = (head + r"\frac{\partial \mathcal{L}}{\partial x_L} \frac{\partial}{\partial x_l}"
             r" \left( x_l + \sum_{i=l}^{L-1} F(x_i, W_i) \right) = \frac{\partial \mathcal{L}}"
             r"{\partial x_L} \left( 1 + \frac{\partial}{\partial x_l} \sum_{i=l}^{L-1}"
             r" F(x_i, W_i) \right)")
    assert statuses(right, **HE) == ["verified"] * 2
    dropped_one = right.replace(r"\left( 1 + \frac", r"\left( \frac")
    assert statuses(dropped_one, **HE) == ["verified", "does_not_follow"]
    other_layer = right.replace(r"{\partial x_L} \left( 1", r"{\partial x_l} \left( 1")
    assert statuses(other_layer, **HE) == ["verified", "does_not_follow"]


def test_the_preview_shows_the_unknown_gradient_as_a_fraction():
    shown = grader.preview(r"\frac{\partial L}{\partial x_L} (1 + F_l'(x_l))", **{
        k: HE[k] for k in ("functions",)}, families=["x", "F"], integers=["l", "L"])
    assert shown["error"] is None, shown
    assert r"\frac{\partial L}{\partial x_{L}}" in shown["interpreted"]


# Issue 24: the preview shows how each notation was read (for every keystroke, parse only).
@pytest.mark.parametrize(("text", "declared", "interpreted"), [
    ("x + x = 2x = x \\cdot 2", {"symbols": ["x"]}, "x + x = 2 x = x \\cdot 2"),  # a chain
    ("0.5^{20}\\approx9.54\\times10^{-7}", {}, "{0.5}^{20} \\approx 9.54 \\cdot {10}^{-7}"),
    (r"\sum_{i=1}^{n} i", {}, r"\sum_{i=1}^{n} i"),
    (r"\prod_{l=L}^{1} W_l", {"matrices": ["W"], "families": ["W"], "integers": ["L"]},
     r"\prod_{l=L}^{1} W_{l} \;\left[= W_{L} \, W_{L - 1} \cdots W_{1}\right]"),
    ("x_{l+1}", {"families": ["x"], "integers": ["l"]}, "x_{l + 1}"),
    (r"\lambda_l x_l", {"families": ["x", "lambda"], "integers": ["l"]}, r"\lambda_{l} x_{l}"),
    (r"\frac{\partial F(x, W)}{\partial x}", {"symbols": ["x", "W"], "functions": ["F"]},
     r"\frac{\partial }{\partial x}\left(F\left(x, W\right)\right)"),
    (r"x\frac{dF(x)}{dx}", {"symbols": ["x"], "functions": ["F"]},
     r"x \frac{d}{dx}\left(F\left(x\right)\right)"),
    (r"\frac{\partial x_L}{\partial x_l}", {"families": ["x"], "integers": ["l", "L"]},
     r"\frac{\partial x_{L}}{\partial x_{l}}"),
])
def test_the_preview_shows_how_each_notation_was_read(text, declared, interpreted):
    shown = grader.preview(text, **declared)
    assert shown["error"] is None and shown["interpreted"] == interpreted, shown


def test_the_preview_of_a_chain_points_at_the_member_it_cannot_read():
    shown = grader.preview("(x+1)^2 = x^2 + 2x + @", symbols=["x"], lang="zh")
    assert shown["interpreted"] is None and "@" in shown["error"]
    assert shown["caret"].splitlines()[0].strip() == "x^2 + 2x + @"
