"""Issue 29 item 1: what a person would call a typo is refused ("cannot read", with the place
shown), never graded: a space inside a number, a malformed number, a decimal comma inside a
formula, an unbalanced bracket of any kind. Commas that separate arguments or entries stay."""

import pytest

from grader import check, preview
from grader.errors import ParseError
from grader.reading.names import Declarations
from grader.reading.parser import parse

D = Declarations.of(symbols=["x", "y", "a", "n", "k"], functions=["F"], matrices=["W"])


def refusal(text, decls=D, space_vectors=False):
    with pytest.raises(ParseError) as info:
        parse(text, decls, space_vectors)
    return info.value


def expression(answer, expected="x + 1", lang="en", **extra):
    return check({"kind": "expression", "expected": expected, "answer": answer,
                  "symbols": ["x"], "lang": lang, **extra})


# -- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "key", "pos", "params"), [
    ("2 3", "number_space_number", 2, {"first": "2", "second": "3"}),
    ("x + 2 3", "number_space_number", 6, {"first": "2", "second": "3"}),
    ("2^3 4", "number_space_number", 4, {"first": "3", "second": "4"}),
    ("-2 2", "number_space_number", 3, {}),
    ("2 * 3 4", "number_space_number", 6, {}),
    ("x^2 3", "number_space_number", 4, {}),
    ("1 1/2", "number_space_number", 2, {}),  # a mixed number (1.5) to many people
    ("x/2 3", "number_space_number", 4, {}),
    ("1 000", "thousands_space", 2, {"plain": "1000", "written": "1 000"}),
    ("12 500 000", "thousands_space", 3, {"plain": "12500000"}),
    ("1 000.5 + x", "thousands_space", 2, {"plain": "1000.5"}),
    ("2 e5", "space_in_number", 2, {"number": "2e5"}),
    ("2 E5", "space_in_number", 2, {"number": "2E5"}),
    ("2 e-5 x", "space_in_number", 2, {"number": "2e-5"}),
    ("2e 5", "space_in_number", 3, {"number": "2e5"}),
    ("3.2.2", "malformed_number", 0, {"written": "3.2.2"}),
    ("3.2e2.2", "malformed_number", 0, {"written": "3.2e2.2"}),
    ("3e0.5", "malformed_number", 0, {"written": "3e0.5"}),
    ("3e.5", "malformed_number", 0, {"written": "3e.5"}),
    ("3e-0.5", "malformed_number", 0, {"written": "3e-0.5"}),
    ("2e+a", "malformed_number", 0, {"written": "2e+a"}),
    ("x + 2e-y", "malformed_number", 4, {"written": "2e-y"}),
])
def test_slips_in_numbers_are_refused_where_they_are(text, key, pos, params):
    err = refusal(text)
    assert (err.key, err.pos) == (key, pos)
    assert params.items() <= err.params.items()


@pytest.mark.parametrize("text", [
    "2e5", "2e-5", "9.54e-7 x", "2 x", "2e", "2e + a", "2 e", "2*e - y", "2 (3)", "(2) 3",
    r"\frac 1 2", r"\frac12 3", r"\binom 5 2", r"\sqrt 2 x", "x_1 + 2", "2 x 10^3",
    "9.54 x 10^-7", "1/2 1/2", "tan^3 2x", "[1 2]", "[1 2; 3 4]", "[1 000]", r"\begin{bmatrix} 1 & 2 \end{bmatrix}",
])
def test_what_is_not_a_slip_still_reads(text):
    parse(text, D)


def test_numeric_answers_keep_spaces_between_entries():
    """`2.1 2.8` is a vector in a numeric answer (space_vectors); `2 e5` is still a slip."""
    node, _ = parse("2.1 2.8", D, space_vectors=True)
    assert node.rows == ((node.rows[0][0], node.rows[0][1]),)
    assert refusal("2 e5", space_vectors=True).key == "space_in_number"
    assert refusal("3.2.2", space_vectors=True).key == "malformed_number"


SAYS = {"thousands_space": {"en": "did you mean", "zh": "你是想写"},
        "number_space_number": {"en": "separated only by a space", "zh": "之间只有空格"},
        "space_in_number": {"en": "a space inside the number", "zh": "中间有空格"},
        "malformed_number": {"en": "is not a number", "zh": "不是一个数"}}


@pytest.mark.parametrize(("answer", "key"), [
    ("1 000", "thousands_space"), ("12 500 000.5", "thousands_space"),
    ("2 3", "number_space_number"), ("2.1 -2.8", "number_space_number"),
    ("2 e5", "space_in_number"), ("3.2.2", "malformed_number"),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_numeric_question_wanting_one_number_asks_about_spaced_numbers(answer, key, lang):
    result = check({"kind": "numeric", "expected": 1000, "answer": answer, "lang": lang})
    assert result.verdict.value == "unreadable" and "^" in result.feedback
    assert SAYS[key][lang] in result.error
    with_vector = check({"kind": "numeric", "expected": [2.1, 2.8], "answer": "2.1 2.8",
                         "lang": lang})
    assert with_vector.correct


# -- brackets ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "key", "pos", "bracket"), [
    ("(x+1", "bracket_never_closed", 0, "("),
    ("((x+1)", "bracket_never_closed", 0, "("),
    ("F(x", "bracket_never_closed", 1, "("),
    ("[x, 1", "bracket_never_closed", 0, "["),
    ("{x+1", "bracket_never_closed", 0, "{"),
    (r"\{x+1", "bracket_never_closed", 0, r"\{"),
    (r"\left(x+1", "bracket_never_closed", 5, "("),
    (r"\frac{1}{x", "bracket_never_closed", 8, "{"),
    ("x+1)", "bracket_closes_nothing", 3, ")"),
    ("x+1]", "bracket_closes_nothing", 3, "]"),
    ("x+1}", "bracket_closes_nothing", 3, "}"),
    (r"\left(x\right]", "bracket_mismatch", 13, "]"),
    ("(x+1]", "bracket_mismatch", 4, "]"),
    ("|x+1", "bracket_unpaired_bar", 0, None),
    ("x+|1", "bracket_unpaired_bar", 2, None),
    ("(|x)", "bracket_unpaired_bar", 1, None),
    (r"\|x", "bracket_unpaired_bar", 0, None),
])
def test_an_unbalanced_bracket_is_shown_where_it_is(text, key, pos, bracket):
    err = refusal(text)
    assert (err.key, err.pos) == (key, pos)
    if bracket is not None:
        assert err.params["bracket"] == bracket


def test_a_missing_term_is_said_before_an_open_bracket():
    """`2*(x+` while typing: the term after + is missing (the bracket comes next)."""
    assert refusal("2*(x+").key == "incomplete"


# -- commas -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("answer", "decimal", "column"), [
    ("x+1,5", "1.5", 4), ("x + 0,5*x + 0,5", "0.5", 6), ("2,5*x + 1", "2.5", 2),
])
def test_a_decimal_comma_in_a_formula_is_asked_about(answer, decimal, column):
    result = expression(answer, expected="1.5*x + 0.5")
    assert result.verdict.value == "unreadable"
    assert f"did you mean {decimal}?" in result.error
    assert f"character {column}" in result.error


@pytest.mark.parametrize(("answer", "expected", "symbols", "functions"), [
    ("F(x, y)", "F(x, y)", ["x", "y"], ["F"]),
    ("binomial(5,2)", "10", [], []),
    ("sum(i,i,1,4)", "10", [], []),
    ("log(8,2)", "3", [], []),
    ("max(1,2)", "2", [], []),
])
def test_commas_between_arguments_are_arguments(answer, expected, symbols, functions):
    result = check({"kind": "expression", "expected": expected, "answer": answer,
                    "symbols": symbols, "functions": functions, "lang": "en"})
    assert result.correct, result.feedback


def test_a_vector_answer_keeps_its_commas():
    result = check({"kind": "expression", "expected": "[1, 5]", "answer": "1,5", "lang": "en"})
    assert result.correct
    wrong = check({"kind": "expression", "expected": "[x, 1]", "answer": "x,1,5",
                   "symbols": ["x"], "lang": "en"})
    assert wrong.verdict.value == "wrong"  # a wrong shape, graded, not asked about


# -- the learner's view: unreadable, in both languages, with a caret ---------------------------

@pytest.mark.parametrize("answer", ["x + 2 3", "x + 1 000", "x + 2 e5", "x + 3.2.2", "(x + 1",
                                    "x + 1)", "|x| + |1", "x+1,5"])
def test_a_slip_is_unreadable_with_a_caret_in_both_languages(answer):
    en, zh = expression(answer, lang="en"), expression(answer, lang="zh")
    assert en.verdict.value == zh.verdict.value == "unreadable"
    assert "Could not read your answer" in en.error and "^" in en.feedback
    assert "无法读取你的答案" in zh.error and "^" in zh.feedback
    if "," not in answer:  # the preview knows no expected shape: `x+1,5` may be a vector there
        shown = preview(answer, symbols=["x"])
        assert shown["interpreted"] is None and shown["caret"]


# -- hostile input through the new checks: a typed error or a tree, never a crash ------------

@pytest.mark.parametrize("text", [
    "(" * 999, ")" * 999, "|" * 999, "[" * 500 + "]" * 499, "1 " * 499, "3." * 499, "2e" * 499,
    "2 e" * 333, "\\cdot" * 199 + "x", "a\\cdotb" * 140, "sqrt[" * 199 + "x", "sqrt[2]{" * 120,
    "\\log_{" * 150, "log_(" * 190, "±" * 999, "1 ± " * 250, "x+1,5" * 199, "\\sinx" * 199,
    "E^" * 499 + "E",
])
def test_hostile_input_through_the_slip_checks_is_a_typed_error_or_a_tree(text):
    from grader.errors import GraderError

    try:
        parse(text, D)
    except GraderError:
        pass
    result = expression(text)
    assert result.verdict.value in ("unreadable", "wrong", "correct")
