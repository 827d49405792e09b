"""Issue 10 items 3 and 5, class names-unknown: a name the grader does not know is never split
silently into a product of letters. A run of letters is one known name, or a product of known
names (Wx, 2sinx, xalpha, 2ab where a and b are the question's), or an unreadable answer whose
message names it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.errors import ParseError
from grader.reading.lexer import GREEK
from grader.reading.names import Declarations
from grader.reading.nodes import Const, Func, Mul, Num, Sym, symbol_names, walk
from grader.reading.parser import parse

D = Declarations.of(symbols=["x", "a", "b"], matrices=["W"])


def tree(text, decls=D):
    return parse(text, decls)[0]


@pytest.mark.parametrize(
    ("text", "key", "name"),
    [
        ("foo(x)", "not_a_function", "foo"), ("rate*x", "unknown_name", "rate"),
        ("loss + 1", "unknown_name", "loss"), ("erf(x)", "not_a_function", "erf"),
        ("sinc(x)", "not_a_function", "sinc"), ("relu(x)", "not_a_function", "relu"),
        ("softplus(x)", "not_a_function", "softplus"), ("sen(x)", "not_a_function", "sen"),
        ("tg(x)", "not_a_function", "tg"), ("sq(x)", "not_a_function", "sq"),
        ("xy", "unknown_name_product", "xy"), ("2ty", "unknown_name_product", "ty"),
        (r"\text{rate} x", "unknown_name", "rate"),
        (r"\operatorname{relu}(x)", "not_a_function", "relu"),
        ("var_y + 1", "unknown_name", "var_y"),
    ],
)
def test_unknown_names_are_refused_by_name(text, key, name):
    with pytest.raises(ParseError) as info:
        tree(text)
    assert (info.value.key, info.value.params["name"]) == (key, name)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wx", Mul((tree("W"), Sym("x")))),
        ("2ab", Mul((Num(2.0, "2"), Sym("a"), Sym("b")))),
        ("2sinx", Mul((Num(2.0, "2"), Func("sin", Sym("x"))))),
        ("xalpha", Mul((Sym("x"), Sym("alpha")))),
        ("2pix", Mul((Num(2.0, "2"), Const("pi"), Sym("x")))),
        ("xe^x", tree("x e^x")),
        ("t", Sym("t")), ("X", Sym("X")), ("x_9", Sym("x_9")), ("beta", Sym("beta")),
    ],
)
def test_established_implicit_products_and_single_letters_stay(text, expected):
    assert tree(text) == expected


@pytest.mark.parametrize(
    ("answer", "en", "zh"),
    [
        ("foo(x)", "foo is not a function or name this question knows", "foo 不是本题认识的函数或名字"),
        ("xy", "(to multiply, write x*y)", "若表示相乘，请写成 x*y"),
    ],
)
def test_the_message_names_it_in_both_languages(grade, answer, en, zh):
    r = grade(kind="expression", expected="x", answer=answer, symbols=["x"])
    assert r.verdict == "unreadable" and en in r.error
    assert zh in grade(kind="expression", expected="x", answer=answer, symbols=["x"],
                       lang="zh").error


def test_an_unknown_name_in_the_expected_answer_is_the_questions_fault(grade):
    r = grade(kind="expression", expected="foo(x)", answer="x", symbols=["x"])
    assert r.verdict == "unreadable" and "misconfigured" in r.error


KNOWN = set(D.vocabulary())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzW", min_size=2, max_size=7))
def test_a_run_of_letters_never_becomes_unknown_letters(word):
    """Every name in the reading is known (declared, built-in, Greek), or the run is refused."""
    try:
        node = tree(f"{word} + 1")
    except ParseError as err:
        assert err.key in ("unknown_name", "unknown_name_product", "not_a_function",
                           "expected_call", "unexpected_end", "unexpected_token", "incomplete",
                           "leibniz_undeclared", "not_finite", "diff_arguments")
        return
    for name in symbol_names(node):
        assert name in KNOWN or name in GREEK or name == word, (word, name)
    for n in walk(node):
        assert not (type(n) is Sym and len(n.name) == 1 and n.name not in KNOWN), (word, n)
