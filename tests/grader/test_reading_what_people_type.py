"""Issue 29 item 2: notations people type, read as they mean them: LaTeX commands glued to the
name after them, E as Euler's number where nothing else is called E, the n-th root without its
backslash, logarithms to any base, ± as a pair of values. Values are checked against closed
forms (log_b x = ln x / ln b, the n-th root as a power), not against the grader's own output."""

import math

import pytest

from grader import check, preview
from grader.errors import ParseError
from grader.reading.names import Declarations
from grader.reading.nodes import Const, Func, FuncN, Matrix, Mul, Num, Pow, Sym
from grader.reading.parser import parse, parse_with_notes

D = Declarations.of(symbols=["x", "a", "b", "y"])


def tree(text, decls=D):
    return parse(text, decls)[0]


def expression(answer, expected, symbols=("x",), lang="en"):
    return check({"kind": "expression", "expected": expected, "answer": answer,
                  "symbols": list(symbols), "lang": lang})


# -- glued LaTeX commands -----------------------------------------------------------------------

@pytest.mark.parametrize(("glued", "spaced"), [
    (r"a\cdotb", r"a \cdot b"), (r"2\timesx", r"2 \times x"), (r"a\astb", r"a \ast b"),
    (r"a\divb", r"a \div b"), (r"\alphax", r"\alpha x"), (r"\sinx", r"\sin x"),
    (r"\sinhx", r"\sinh x"), (r"\lnx", r"\ln x"), (r"\sqrtx", r"\sqrt x"),
    (r"\fracab", r"\frac a b"), (r"a\cdotab", r"a \cdot a b"), (r"2\cdotx_1", r"2 \cdot x_1"),
    (r"\pix", r"\pi x"), (r"x\cdot\sinx", r"x \cdot \sin x"),
])
def test_a_known_command_glued_to_a_known_name_is_split(glued, spaced):
    decls = Declarations.of(symbols=["x", "a", "b", "x_1"])
    assert tree(glued, decls) == tree(spaced, decls)


@pytest.mark.parametrize("text", [r"\cdotfoo", r"a\cdotzz", r"\foo x", r"\mathbfx", r"\Tx"])
def test_a_glued_command_whose_rest_is_unknown_is_refused_as_typed(text):
    with pytest.raises(ParseError) as info:
        tree(text, Declarations.of(symbols=["x", "a"]))
    assert info.value.key in ("unknown_command", "bad_command_argument")


def test_glued_commands_are_graded_as_written_apart():
    assert expression(r"a\cdotb", "a*b", symbols=("a", "b")).correct
    assert expression(r"2\timesx + \sqrtx", "2x + sqrt(x)").correct
    assert expression(r"a\space b", "a*b", symbols=("a", "b")).correct


# -- E as Euler's number ------------------------------------------------------------------------

def test_e_is_eulers_number_where_the_question_has_no_e():
    node, _, notes = parse_with_notes("E^2", D)
    assert node == Pow(Const("e"), Num(2.0, "2")) and "note_e_constant" in notes
    assert expression("E^2", "e^2").correct
    wrong = expression("E^3", "e^2")
    assert wrong.verdict.value == "wrong" and "Euler's number" in wrong.feedback
    assert "自然常数" in expression("E^3", "e^2", lang="zh").feedback


def test_e_stays_a_name_where_the_question_declares_it_or_random_variables():
    assert tree("E^2", Declarations.of(symbols=["E"])) == Pow(Sym("E"), Num(2.0, "2"))
    assert not expression("e*x", "E*x", symbols=("E", "x")).correct
    moments = Declarations.of(symbols=["x"], random=["x"])
    assert type(tree("E[x]", moments)).__name__ == "Moment"


# -- roots ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "same_as"), [
    ("sqrt[3]{x}", r"\sqrt[3]{x}"), ("sqrt[4]{x}y", r"\sqrt[4]{x} y"),
    ("1/sqrt[5]{x}", r"1/\sqrt[5]{x}"), ("nthroot(x, 3)", "root(x, 3)"),
    ("nthRoot(x, 4)", "root(x, 4)"), ("sqrt[x]", "sqrt(x)"), ("sqrt[3] {x}", "sqrt(3)*x"),
])
def test_roots_without_a_backslash(text, same_as):
    assert tree(text) == tree(same_as)


def test_an_nth_root_without_a_backslash_has_the_value_of_the_power():
    assert expression("sqrt[4]{x}", "x^(1/4)").correct
    assert expression("sqrt[3]{-8}", "-2", symbols=()).correct  # the real cube root
    assert not expression("sqrt[3]{x}", "sqrt(3)*x").correct


# -- logarithms to any base -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "base"), [
    (r"\log_{1/2}(x)", 0.5), (r"\log_{0.5} x", 0.5), ("log_(10) (x)", 10.0),
    ("log_2.5x", 2.5), (r"\log_{10}x", 10.0), ("log_2x", 2.0), (r"\log_{2} x", 2.0),
])
def test_a_numeric_base_of_any_form(text, base):
    node = tree(text)
    assert type(node) is FuncN and node.name == "log" and node.args[0] == Sym("x")
    x = 3.7
    result = expression(text, f"ln(x)/ln({base})")
    assert result.correct, result.feedback
    assert math.isclose(math.log(x) / math.log(base), math.log(x, base))


@pytest.mark.parametrize(("text", "expected"), [
    (r"\log_b x", "ln(x)/ln(b)"), ("log_b(x)", "ln(x)/ln(b)"), (r"\log_{b+1} x", "ln(x)/ln(b+1)"),
    (r"\log_{\pi}(x)", "ln(x)/ln(pi)"), (r"\log_{1/2}^2 x", "(ln(x)/ln(1/2))^2"),
])
def test_a_base_with_names(text, expected):
    result = expression(text, expected, symbols=("x", "b"))
    assert result.correct, result.feedback


def test_an_infinite_base_or_argument_is_read():
    """Read (their values at infinity are the limits work of issue 29 item 4, not this one)."""
    assert tree(r"\log_\infty(2)") == FuncN("log", (Num(2.0, "2"), Num(math.inf, "inf")))
    assert tree(r"\log_{0.5}(\infty)") == FuncN("log", (Num(math.inf, "inf"), Num(0.5, "0.5")))


def test_a_base_that_is_no_formula_is_refused():
    with pytest.raises(ParseError) as info:
        tree("log_+x")
    assert info.value.key == "log_base"


# -- ± -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "pair"), [
    ("1 ± sqrt(2)", ("1 + sqrt(2)", "1 - sqrt(2)")),
    (r"1 \pm \sqrt{2}", ("1 + sqrt(2)", "1 - sqrt(2)")),
    ("±sqrt(2)", ("sqrt(2)", "-sqrt(2)")),
    ("x ∓ 1", ("x - 1", "x + 1")),
])
def test_plus_minus_is_a_pair_of_values(text, pair):
    node = tree(text)
    assert type(node) is Matrix and node.rows == ((tree(pair[0]), tree(pair[1])),)


def test_plus_minus_where_the_question_wants_a_pair():
    roots = "[(-b + sqrt(b^2 - 4a))/2, (-b - sqrt(b^2 - 4a))/2]"
    assert expression("(-b)/2 ± sqrt(b^2 - 4a)/2", roots, symbols=("a", "b")).correct
    assert check({"kind": "numeric", "expected": [1.5, 0.5], "answer": "1 ± 0.5",
                  "lang": "en"}).correct


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_plus_minus_where_one_value_is_wanted_is_refused_with_its_own_message(lang):
    result = expression("1 ± sqrt(2)", "1 + sqrt(2)", symbols=(), lang=lang)
    assert result.verdict.value == "unreadable"
    assert ("± gives two values" if lang == "en" else "± 表示两个值") in result.error
    assert "  1 ± sqrt(2)\n    ^" in result.feedback
    numeric = check({"kind": "numeric", "expected": 1.5, "answer": "1 ± 0.5", "lang": lang})
    assert numeric.verdict.value == "unreadable"


@pytest.mark.parametrize("text", ["(1 ± 2)^2", "x^{±1}", "1 ± 2, 3", "3, 1 ± 2", "1 ± 2 ± 3",
                                  r"\frac{-b \pm \sqrt{b^2-4a}}{2}"])
def test_plus_minus_inside_a_formula_is_refused(text):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key == "plus_minus_inside"
    assert preview(text, symbols=["x", "a", "b"])["caret"]


def test_function_powers_are_not_spaced_numbers():
    assert tree("tan^3 2x") == Pow(Func("tan", Mul((Num(2.0, "2"), Sym("x")))), Num(3.0, "3"))
