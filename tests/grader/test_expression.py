"""Formula verdicts and every kind of feedback."""

import pytest

F = {"functions": ["F"], "symbols": ["x"]}
WG = {"matrices": ["W", "g"]}
AB = {"matrices": ["A", "B"]}
JF = {"matrices": ["J_F", "g"]}


@pytest.mark.parametrize(
    ("answer", "expected", "decls", "correct"),
    [
        ("1+F'(x)", "1 + F'(x)", F, True),
        ("F'(x)+1", "1 + F'(x)", F, True),
        ("1+diff(F(x), x)", "1 + F'(x)", F, True),
        ("d/dx (x + F(x))", "1 + F'(x)", F, True),
        ("1+F(x)", "1 + F'(x)", F, False),
        ("F'(x)", "1 + F'(x)", F, False),
        ("x + F(x)", "F(x) + x", F, True),
        ("diff(F(2x), x)", "2F'(2x)", F, True),
        ("diff(F(x)^2, x)", "2F(x)F'(x)", F, True),
        ("(I+W)^T g", "(I + W)^T g", WG, True),
        ("g + W^T g", "(I + W)^T g", WG, True),
        ("(W+I)' g", "(I + W)^T g", WG, True),
        ("transpose(I+W) g", "(I + W)^T g", WG, True),
        (r"\left(I+W\right)^{\top} g", "(I + W)^T g", WG, True),
        ("（I＋W）ᵀ g", "(I + W)^T g", WG, True),
        ("(I+W) g", "(I + W)^T g", WG, False),
        ("A B", "A B", AB, True),
        ("B A", "A B", AB, False),
        ("(A B)^T", "B^T A^T", AB, True),
        ("(A B)^T", "A^T B^T", AB, False),
        ("(I + J_F)^T g", "g + J_F^T g", JF, True),
        ("(x+1)^2", "x^2 + 2x + 1", {}, True),
        ("x^2+2x", "x^2 + 2x + 1", {}, False),
        # equal where both are real (x > 0), and real together on enough of the line: right,
        # with a note, either way round (issue 29's one real-domain rule)
        ("2 log(x)", "log(x^2)", {}, True),
        ("log(x^2)", "2 log(x)", {}, True),
        ("log(x^2)", "2 log(x)", {"symbols": ["x"], "positive": ["x"]}, True),
        ("sqrt(x^2)", "|x|", {}, True),
        ("sqrt(x^2)", "x", {}, False),
        # ln x is not real for x < 0, where x^2 is: equal where both are real (x > 0), right
        # with a note (issue 29; corpus branch-slip/009-010)
        ("exp(2 ln x)", "x^2", {}, True),
        # a real power of a negative base is not real: equal where 1 + a > 0
        ("(1+a)^n", "abs(1+a)^n", {}, True),
        ("(1+a)^2", "abs(1+a)^2 + 1", {}, False),  # both real everywhere, and they differ
        ("e^(x+1)", "e e^x", {}, True),
        ("sigmoid(x)", "1/(1+exp(-x))", {}, True),
        ("sech(x)^2", "1 - tanh(x)^2", {}, True),
        ("|1 + a|^n", "abs(a+1)^n", {}, True),
        ("2αx", "2 x alpha", {}, True),
        ("x_{l+1}", "x_{l + 1}", {}, True),
        ("x_{l+1}", "x_l + 1", {"symbols": ["x_l", "x_{l+1}"]}, False),
        (r"\frac{x}{2}", "x/2", {}, True),
        (r"\frac{1}{2}\|y\|", r"\frac{1}{2}|y|", {}, True),  # a scalar's norm \|y\| is |y|
    ],
)
def test_formula_verdicts(grade, answer, expected, decls, correct):
    r = grade(kind="expression", expected=expected, answer=answer, **decls)
    if correct is None:
        assert r.error and not r.correct
    else:
        assert r.correct is correct, r.feedback
        assert r.score == (1.0 if correct else 0.0)
        assert r.error is None


def test_counterexample_names_point_and_both_values(grade):
    r = grade(kind="expression", expected="x^2 + 2x + 1", answer="x^2 + 2x")
    # At x = 2 the answer is 8 and the expected answer is 9: checkable by hand.
    assert "x = 2" in r.feedback
    assert "8" in r.feedback and "9" in r.feedback


def test_counterexample_uses_a_concrete_function(grade):
    r = grade(kind="expression", expected="1 + F'(x)", answer="1 + F(x)", functions=["F"])
    assert "F(t) = " in r.feedback
    assert "For example" in r.feedback


def test_counterexample_for_matrices_shows_small_integer_matrices(grade):
    r = grade(kind="expression", expected="A B", answer="B A", matrices=["A", "B"], lang="zh")
    assert "例如" in r.feedback and "A = [[" in r.feedback


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_shape_feedback_gives_both_shapes(grade, lang):
    r = grade(kind="expression", expected="(I + W)^T g", answer="g^T (I + W)", lang=lang, **WG)
    assert not r.correct
    words = {"en": ("row vector", "column vector"), "zh": ("行向量", "列向量")}[lang]
    assert all(w in r.feedback for w in words)


def test_scalar_against_vector_literal_is_a_shape_error(grade):
    r = grade(kind="expression", expected="[x, 2x]", answer="x")
    assert "scalar" in r.feedback and "vector of length 2" in r.feedback


def test_malrule_match_returns_its_feedback(grade):
    rules = [{"answer": "(I + W) g", "feedback": "You forgot the transpose."}]
    r = grade(kind="expression", expected="(I + W)^T g", answer="g + W g", malrules=rules, **WG)
    assert not r.correct
    assert "You forgot the transpose." in r.feedback
    assert r.malrule == "You forgot the transpose."


def test_malrule_of_another_shape_is_matched_before_the_shape_message(grade):
    # Regression: the row form g^T (I + W) got the shape message, never its mal-rule's feedback.
    rules = [{"answer": "g^T (I + W)", "feedback": "This is the row-vector form."}]
    r = grade(kind="expression", expected="(I + W)^T g", answer="g^T + g^T W", malrules=rules,
              **WG)
    assert not r.correct and r.malrule == "This is the row-vector form."
    plain = grade(kind="expression", expected="(I + W)^T g", answer="g^T + g^T W", **WG)
    assert plain.malrule is None and "vector" in plain.feedback  # without it: the shape message


def test_broken_malrule_does_not_block_grading(grade):
    rules = [{"answer": "(((", "feedback": "x"}, {"nope": 1}]
    r = grade(kind="expression", expected="x", answer="x + 1", malrules=rules)
    assert r.error is None and not r.correct


@pytest.mark.parametrize(("lang", "word"), [("en", "character 5"), ("zh", "第 5 个字符")])
def test_unreadable_answer_points_at_the_raw_character(grade, lang, word):
    r = grade(kind="expression", expected="x", answer="x ＋ $ 1", lang=lang)
    assert r.interpreted is None and r.error
    assert word in r.feedback
    # The caret sits under "$"; the full-width "＋" is padded with a full-width space.
    assert r.feedback.splitlines()[-2:] == ["  x ＋ $ 1", "    \u3000 ^"]


def test_interpreted_is_latex_from_the_tree(grade):
    r = grade(kind="expression", expected="x", answer="(I+W)^T g", **WG)
    assert r.interpreted == r"{\left(I + W\right)}^{\top} g"


def test_misconfigured_expected_is_not_the_learners_fault(grade):
    r = grade(kind="expression", expected="(x", answer="x")
    assert "misconfigured" in r.error


def test_answer_that_cannot_be_evaluated_says_why(grade):
    r = grade(kind="expression", expected="(I + W)^T g", answer="1 + W", **WG)
    assert r.error and "cannot add" in r.error
    assert r.interpreted == "1 + W"


def test_symbols_the_question_does_not_use_are_named(grade):
    # Issue 10 item 5: an undeclared letter is a variable; the answer is graded (here wrong) and
    # the feedback names it (tests/grader/test_names_undeclared.py has the whole policy).
    r = grade(kind="expression", expected="x + 1", answer="y + 1")
    assert r.verdict == "wrong" and r.error is None and r.interpreted == "y + 1"
    assert "uses y; this question is about x" in r.feedback
    assert "y = " in r.counterexample.point


def test_cannot_decide_is_honest(grade):
    # Never real for real x: no valid sample point, and sympy cannot prove it either way.
    r = grade(kind="expression", expected="sqrt(-1 - x^2) + F(x)", answer="F(x)",
              functions=["F"])
    assert not r.correct
    assert r.error is not None


def test_symbolic_fallback_decides_where_sampling_cannot(grade):
    r = grade(kind="expression", expected="sqrt(-1 - x^2)", answer="sqrt(-(1 + x^2))")
    assert r.correct, r.feedback


@pytest.mark.parametrize(("lang", "note"), [("en", "ln x/y reads as (ln x)/y"),
                                            ("zh", "ln x/y 读作 (ln x)/y")])
@pytest.mark.parametrize("answer", ["ln x/y", "sin x/y", "\\ln x / y"])
def test_a_wrong_function_argument_before_a_division_says_how_it_was_read(grade, lang, note,
                                                                          answer):
    """KAS reads ln x/y as ln(x/y) (kas/105, 117); here, as on the Notation table, the argument
    stops at the division: wrong for the quotient's function at x = y = 2 (ln 2/2 != ln 1 = 0),
    with the reading said; right for (ln x)/y, without the note."""
    function = "sin" if "sin" in answer else "ln"
    wrong = grade(kind="expression", expected=f"{function}(x/y)", answer=answer, lang=lang)
    assert not wrong.correct and note in wrong.feedback
    right = grade(kind="expression", expected=f"{function}(x)/y", answer=answer, lang=lang)
    assert right.correct and note not in right.feedback


@pytest.mark.parametrize(("lang", "note"), [("en", "reads as (1/2)·x"), ("zh", "读作 (1/2)·x")])
def test_a_wrong_product_after_a_division_says_how_it_was_read(grade, lang, note):
    wrong = grade(kind="expression", expected="1/(2x)", answer="1/2x", lang=lang)
    assert not wrong.correct and note in wrong.feedback
    assert grade(kind="expression", expected="x/2", answer="1/2x", lang=lang).correct
    other = grade(kind="expression", expected="1/(2x)", answer="1/(3x)", lang=lang)
    assert note not in other.feedback
