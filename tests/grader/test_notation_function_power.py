"""Issue 10 item 3, class notation-function-power: sin^2 x is (sin x)^2 and sin^-1 x is arcsin x
(ISO 80000-2; Stewart §1.6), with a note saying how it was read."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import preview
from grader.errors import LimitError, ParseError
from grader.reading.names import Declarations
from grader.reading.nodes import BUILTIN_FUNCTIONS, Func, Mul, Num, Pow, Sym
from grader.reading.parser import INVERSE_FUNCTIONS, parse, parse_with_notes

X = Sym("x")
D = Declarations.of(symbols=["x"])


def n(v):
    return Num(float(v), str(v))


def tree(text):
    return parse(text, D)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sin^2 x", Pow(Func("sin", X), n(2))),
        ("sin^2(x)", Pow(Func("sin", X), n(2))),
        ("sin^2x", Pow(Func("sin", X), n(2))),
        ("cos^{2}x", Pow(Func("cos", X), n(2))),
        ("cos^(2) x", Pow(Func("cos", X), n(2))),
        (r"\sin^2 x", Pow(Func("sin", X), n(2))),
        (r"\sin^{2}(x)", Pow(Func("sin", X), n(2))),
        ("sin**2(x)", Pow(Func("sin", X), n(2))),  # SymPy's function_exponentiation
        ("tan^3 2x", Pow(Func("tan", Mul((n(2), X))), n(3))),
        ("sinh^2 x", Pow(Func("sinh", X), n(2))),
        ("log^2 x", Pow(Func("log", X), n(2))),
        ("sin^1 x", Func("sin", X)),
        ("sin^-1 x", Func("arcsin", X)),
        ("sin^{-1}(x)", Func("arcsin", X)),
        ("sin^(-1)(x)", Func("arcsin", X)),
        ("cos^{-1}(x)", Func("arccos", X)),
        (r"\tan^{-1} x", Func("arctan", X)),
        ("cosh^-1 x", Func("acosh", X)),
        ("cot^-1 x", Func("arccot", X)),
    ],
)
def test_function_powers_and_inverses_read_as_in_textbooks(text, expected):
    assert tree(text) == expected


@pytest.mark.parametrize(("text", "note"), [("sin^2 x", "note_function_power"),
                                            ("sin^-1 x", "note_inverse_function")])
def test_the_reading_is_pointed_out(text, note):
    assert note in parse_with_notes(text, D)[2]
    en, zh = preview(text, symbols=["x"]), preview(text, symbols=["x"], lang="zh")
    assert "(sin x)^2" in en["note"] or "arcsin x" in en["note"]
    assert "函数" in zh["note"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("sin^m x", "function_power"),  # a letter the question does not declare: not guessed
        ("sin^{2x} x", "function_power"),  # a formula as the power: refused as before
        ("sin^0 x", "function_power"),
        ("sin^-2 x", "function_power"),
        ("sin^{1/2} x", "function_power"),
        ("exp^-1 x", "no_inverse_notation"),  # not read as log: write what you mean
        ("sqrt^-1 x", "no_inverse_notation"),
    ],
)
def test_powers_without_a_standard_meaning_are_refused(text, key):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert info.value.key == key


@pytest.mark.parametrize(("text", "expected"), [
    # a declared name as the power reads like a number there (Doenet: sin^n x is (sin x)^n)
    ("sin^n x", Pow(Func("sin", X), Sym("n"))),
    ("coth^n(x)", Pow(Func("coth", X), Sym("n"))),
    (r"\sin^{n} x", Pow(Func("sin", X), Sym("n"))),
    ("sin^x x", Pow(Func("sin", X), X)),
    ("sin^k x", Pow(Func("sin", X), Sym("k"))),  # an integer name
])
def test_a_declared_name_as_a_function_power_is_a_power_of_the_value(text, expected):
    decls = Declarations.of(symbols=["x", "n"], integers=["k"])
    assert parse(text, decls)[0] == expected
    assert "note_function_power" in parse_with_notes(text, decls)[2]


def test_a_huge_function_power_is_a_limit():
    with pytest.raises(LimitError):
        tree("sin^99999 x")


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        ("sin(x)^2", "sin^2 x", "correct"),
        ("1", "sin^2 x + cos^2 x", "correct"),
        ("cos(2*x)", "1 - 2 sin^2 x", "correct"),
        ("4*sin(x)^2*cos(x)^2", "sin^2(2x)", "correct"),
        ("sin(x^2)", "sin^2 x", "wrong"),
        ("sin(sin(x))", "sin^2 x", "wrong"),
        ("arcsin(x)", "sin^{-1}(x)", "correct"),
        ("1/sin(x)", "sin^{-1}(x)", "wrong"),
        ("sin^2 x", "sin(x)^2", "correct"),  # also in an expected answer
    ],
)
def test_verdicts(grade, expected, answer, verdict):
    r = grade(kind="expression", expected=expected, answer=answer, symbols=["x"])
    assert r.verdict == verdict, r.feedback


def test_a_wrong_inverse_says_how_it_was_read(grade):
    r = grade(kind="expression", expected="1/sin(x)", answer="sin^-1 x", symbols=["x"])
    assert "arcsin x, not 1/sin x" in r.feedback


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(BUILTIN_FUNCTIONS), st.integers(2, 9),
       st.sampled_from(["x", "(x)", "{x}", "2x", "(x+1)"]))
def test_a_power_on_the_name_is_the_power_of_the_value(name, power, argument):
    """f^n arg == (f arg)^n for every built-in function and power."""
    assert tree(f"{name}^{power} {argument}") == tree(f"({name} {argument})^{power}")


@pytest.mark.parametrize("name", sorted(INVERSE_FUNCTIONS))
def test_every_minus_one_is_the_named_inverse(name):
    assert tree(f"{name}^-1(x)") == Func(INVERSE_FUNCTIONS[name], X)
