"""Sums and products written with ⋯ (issue 25, item 5): the general term inferred from the terms
written, shown as the \\sum/\\prod it stands for, refused with a message when it cannot be."""

import pytest

import grader
from grader.errors import ParseError
from grader.kinds.request import declarations
from grader.reading.latex import to_latex
from grader.reading.parser import parse

X = {"families": ["x"]}
RESIDUAL = {"families": ["x", "F"], "functions": ["F"], "integers": ["L"]}
CHAIN = {"families": ["x"], "integers": ["L", "l"]}


def read(text, declared):
    return to_latex(parse(text, declarations(declared))[0])


@pytest.mark.parametrize("text, declared, latex", [
    (r"x_1 + x_2 + \cdots + x_n", X, r"\sum_{i=1}^{n} x_{i}"),
    (r"x_1 + \cdots + x_n", X, r"\sum_{i=1}^{n} x_{i}"),  # one term: a step of 1, upwards
    (r"x_0 + x_1 + \ldots + x_{L-1}", X, r"\sum_{i=0}^{L - 1} x_{i}"),
    (r"x_n + x_{n-1} + \dots + x_1", X, r"\sum_{i=n}^{1} x_{i}"),  # downwards, as written
    ("1 + 2 + ... + n", {}, r"\sum_{i=1}^{n} i"),
    (r"x^1 + x^2 + \cdots + x^n", {"symbols": ["x"]}, r"\sum_{i=1}^{n} {x}^{i}"),
    (r"(1+F_1'(x_1))(1+F_2'(x_2))\cdots(1+F_L'(x_L))", RESIDUAL,
     r"\prod_{i=1}^{L} \left(1 + F_{i}'\left(x_{i}\right)\right)"),
    (r"x_1 \cdot x_2 \cdot \cdots \cdot x_n", X, r"\prod_{i=1}^{n} x_{i}"),
    (r"\frac{\partial x_L}{\partial x_{L-1}} \frac{\partial x_{L-1}}{\partial x_{L-2}} \cdots"
     r" \frac{\partial x_{l+1}}{\partial x_l}", CHAIN,
     r"\prod_{i=L}^{l + 1} \frac{\partial x_{i}}{\partial x_{i-1}}"),
    (r"2 + x_1 + x_2 + \cdots + x_n", X, r"2 + \sum_{i=1}^{n} x_{i}"),  # the pattern's run only
    (r"a_1 b_n + a_2 b_{n-1} + \cdots + a_n b_1", {"families": ["a", "b"]},
     r"\sum_{i=1}^{n} \left(a_{i} b_{-i + n + 1}\right)"),
])
def test_the_general_term_is_inferred_and_shown(text, declared, latex):
    assert read(text, declared) == latex
    assert grader.preview(text, **declared)["interpreted"] == latex


@pytest.mark.parametrize("text, declared, key", [
    (r"x_1 + x_3 + \cdots + x_n", X, "dots_cannot_infer"),  # a step of 2
    (r"x_1 + y_2 + \cdots + x_n", {"families": ["x", "y"]}, "dots_cannot_infer"),
    (r"x_1 + x_2 + \cdots + x_n^2", X, "dots_cannot_infer"),  # the last term of another form
    (r"x_1 + x_1 + \cdots + x_1", X, "dots_cannot_infer"),  # nothing varies: how many?
    (r"x_2 + x_1 + \cdots + x_n", X, "dots_cannot_infer"),  # written down, running up
    (r"x_1 + x_2 + \cdots + x_{n+1/2}", X, "bad_subscript"),
    (r"x_1 + \cdots + \cdots + x_n", X, "unexpected_token"),
    (r"a_1 + a_2 + \cdots + a_n", {}, "dots_needs_family"),
    (r"x_1 + x_2 + \cdots", X, "dots_needs_last"),
    (r"x_1 x_2 \cdots", X, "dots_needs_last"),
    (r"\cdots + x_n", X, "unexpected_token"),
])
def test_what_cannot_be_inferred_is_refused_with_a_message(text, declared, key):
    with pytest.raises(ParseError) as err:
        parse(text, declarations(declared))
    assert err.value.key == key


@pytest.mark.parametrize("lang, words", [("en", "declare a as a family"),
                                         ("zh", "请把 a 声明为族")])
def test_the_message_is_in_the_learners_language(lang, words):
    result = grader.check({"kind": "derivation", "answer": [r"a_1 + a_2 + \cdots + a_n", "0"],
                           "lang": lang})
    assert words in result.steps[0].feedback


@pytest.mark.parametrize("lines, declared, expected", [
    (["1 + 2 + \\cdots + n", r"\frac{n(n+1)}{2}"], {}, ["verified", "verified"]),
    (["1 + 2 + \\cdots + n", r"\frac{n(n-1)}{2}"], {}, ["verified", "does_not_follow"]),
    ([r"x_1 + x_2 + \cdots + x_n", r"\sum_{i=1}^{n} x_i"], X, ["verified", "verified"]),
    ([r"x_1 + x_2 + \cdots + x_n", r"\sum_{i=1}^{n-1} x_i"], X, ["verified", "does_not_follow"]),
    ([r"(1+F_1'(x_1))(1+F_2'(x_2))\cdots(1+F_L'(x_L))", r"\prod_{l=1}^{L} (1 + F_l'(x_l))"],
     RESIDUAL, ["verified", "verified"]),
    ([r"(1+F_1'(x_1))(1+F_2'(x_2))\cdots(1+F_L'(x_L))", r"1 + \sum_{l=1}^{L} F_l'(x_l)"],
     RESIDUAL, ["verified", "does_not_follow"]),
])
def test_a_line_with_dots_is_checked_as_its_series(lines, declared, expected):
    result = grader.check({"kind": "derivation", "answer": lines, **declared})
    assert [s.status.value for s in result.steps] == expected


def test_a_chain_member_that_is_only_dots_is_still_skipped():
    parts = grader.split_derivation(r"$$x_1 + x_2 + \cdots + x_n = \cdots = \sum_{i=1}^{n} x_i$$",
                                    families=["x"])
    assert [p.text for p in parts if not p.remark] == [r"x_1 + x_2 + \cdots + x_n",
                                                        r"\sum_{i=1}^{n} x_i"]


def test_many_dots_are_bounded_by_the_parser_limits():
    text = " + ".join(f"x_{k}" for k in range(1, 100)) + r" + \cdots + x_n"
    assert read(text, X) == r"\sum_{i=1}^{n} x_{i}"  # 99 terms written: one pattern
    many = " + ".join([r"x_1 + \cdots + x_n"] * 40)  # 40 sums, each inferred on its own
    assert read(many, X).count(r"\sum") == 40
    with pytest.raises(ParseError) as err:
        parse(r"x_1 + \cdots + x_n + " * 80 + "1", declarations(X))
    assert err.value.key == "too_long"
