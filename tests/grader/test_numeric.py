"""Numbers, vectors and matrices against the tolerance rules (see grader/kinds/numeric.py)."""

import pytest

HALF_POW_20 = 0.5**20  # 9.5367431640625e-07, the source text's 9.54×10^-7


@pytest.mark.parametrize(
    ("answer", "expected", "tol", "correct"),
    [
        ("9.54e-7", HALF_POW_20, {"sigfigs": 3}, True),
        ("9.54×10^-7", HALF_POW_20, {"sigfigs": 3}, True),
        ("9.54*10^(-7)", HALF_POW_20, {"sigfigs": 3}, True),
        ("9.54 × 10⁻⁷", HALF_POW_20, {"sigfigs": 3}, True),
        ("0.5^20", HALF_POW_20, {"sigfigs": 3}, True),
        ("9.5e-7", HALF_POW_20, {"sigfigs": 3}, False),  # too few digits
        ("9.55e-7", HALF_POW_20, {"sigfigs": 3}, False),
        ("9.537e-7", HALF_POW_20, {"sigfigs": 3}, True),  # more digits, rounds to the same
        ("2.50", 2.5, {"sigfigs": 3}, True),
        ("2.5", 2.5, {"sigfigs": 3}, True),  # the key exactly: never too short (issue 30)
        ("2.5", 2.54, {"sigfigs": 3}, False),  # not the key: too short
        # An exact zero has no figures to show (regression: "0" in a matrix was "1 figure").
        ("0", 0.0, {"sigfigs": 3}, True),
        ("0.00", 0.0, {"sigfigs": 3}, True),
        ("-0", 0.0, {"sigfigs": 3}, True),
        ("0*10^3", 0.0, {"sigfigs": 3}, True),
        ("[[1.04, -0.0408], [0, 1.00]]", [[1.0408248, -0.0408248], [0.0, 1.0]], {"sigfigs": 3},
         True),
        ("[1.04 -0.0408; 0 1.0]", [[1.0408248, -0.0408248], [0.0, 1.0004]], {"sigfigs": 3},
         False),
        ("[1.04 -0.0408; 0 1.0]", [[1.0408248, -0.0408248], [0.0, 1.0]], {"sigfigs": 3},
         True),  # the exact entry 1 typed as 1.0 is not too short (issue 30)
        ("0", 0.001, {"sigfigs": 3}, False),
        ("1.01", 1.01, {}, True),
        ("1+0.01", 1.01, {}, True),
        ("1.0101", 1.01, {"rtol": 1e-3}, True),
        ("1.02", 1.01, {"rtol": 1e-3}, False),
        ("1.02", 1.01, {"atol": 0.05}, True),
        ("1.1", 1.01, {"atol": 0.05}, False),
        ("0.001", 0.0, {"atol": 0.01}, True),
        ("0.001", 0.0, {"rtol": 0.01}, False),
        ("[0.4, 2.05]", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("(0.4, 2.05)", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("0.4, 2.05", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("[0.4 2.05]", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("［0.4，2.05］", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("[0.4; 2.05]", [0.4, 2.05], {"rtol": 1e-3}, True),
        (r"\begin{bmatrix}0.4\\2.05\end{bmatrix}", [0.4, 2.05], {"rtol": 1e-3}, True),
        ("[1.1*0.5 - 0.1*1.5, 0.2*0.5 + 1.3*1.5]", [0.4, 2.05], {"rtol": 1e-9}, True),
        ("[0.4, 2.06]", [0.4, 2.05], {"rtol": 1e-3}, False),
        ("[[1.1,-0.1],[0.2,1.3]]", [[1.1, -0.1], [0.2, 1.3]], {}, True),
        ("[1.1 -0.1; 0.2 1.3]", [[1.1, -0.1], [0.2, 1.3]], {}, True),
        ("5/4", 1.25, {}, True),
        ("2^40", 1099511627776, {}, True),
        ("0/0", 1.0, {"rtol": 1.0}, False),  # NaN never matches
        ("1/0", 1.0, {"rtol": 1.0}, False),
    ],
)
def test_tolerance_rules(grade, answer, expected, tol, correct):
    r = grade(kind="numeric", expected=expected, answer=answer, **tol)
    assert r.correct is correct, r.feedback


# Infinity is read and graded, and 1/0 is undefined: see test_undefined_values.py (issue 10).
@pytest.mark.parametrize("answer", ["nan", "NaN", "1e309", "10^400"])
def test_non_finite_answers_are_refused_with_a_message(grade, answer):
    r = grade(kind="numeric", expected=1.0, answer=answer, rtol=1.0)
    assert not r.correct and r.error


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("[[1,2],[3,4]] [1;1]", [3, 7]), ("transpose([1 2; 3 4])", [[1, 3], [2, 4]]),
     ("[1 2; 3 4]^2", [[7, 10], [15, 22]]), ("2 [1, 2]", [2, 4])],
)
def test_computed_vectors_and_matrices(grade, answer, expected):
    r = grade(kind="numeric", expected=expected, answer=answer)
    assert r.correct and r.error is None, r.feedback


def test_inverse_of_a_singular_matrix_is_explained(grade):
    r = grade(kind="numeric", expected=[[1, 0], [0, 1]], answer="[1 2; 2 4]^-1")
    assert "no inverse" in r.error


@pytest.mark.parametrize("answer", ["sqrt(-4)", "log(-1)"])
def test_complex_values_are_named(grade, answer):
    r = grade(kind="numeric", expected=2.0, answer=answer)
    assert "not a real number" in r.error


def test_wrong_shape_gives_both_shapes(grade):
    r = grade(kind="numeric", expected=[[1, 2], [3, 4]], answer="[1, 2, 3, 4]")
    assert "vector of length 4" in r.feedback and "2×2 matrix" in r.feedback


def test_vector_names_the_wrong_entries_and_gives_partial_score(grade):
    r = grade(kind="numeric", expected=[1, 2, 3, 4], answer="[1, 2, 3, 5]")
    assert "at entry 4." in r.feedback
    assert r.score == 0.75


@pytest.mark.parametrize(
    ("answer", "lang", "names"),
    [("[[1, 2], [3, 5]]", "en", "at row 2, column 2."),
     ("[[1, 9], [8, 4]]", "en", "at row 1, column 2; row 2, column 1."),
     ("[[1, 9], [8, 4]]", "zh", "第 1 行第 2 列、第 2 行第 1 列的元素")],
)
def test_matrix_names_the_wrong_entries_by_row_and_column(grade, answer, lang, names):
    r = grade(kind="numeric", expected=[[1, 2], [3, 4]], answer=answer, lang=lang)
    assert names in r.feedback and "transpose" not in r.feedback


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("[[1, 3], [2, 4]]", [[1, 2], [3, 4]]),  # square: the values of the transpose
     ("[[1, 2, 3], [4, 5, 6]]", [[1, 4], [2, 5], [3, 6]]),  # 2×3 for a 3×2 key
     ("[[0.1, 0.3], [0.2, 0.4]]", [[0.1, 0.2], [0.3, 0.40001]])],  # within the tolerance
)
def test_a_transposed_matrix_is_named(grade, answer, expected):
    r = grade(kind="numeric", expected=expected, answer=answer, rtol=1e-3)
    assert not r.correct and "looks like the transpose" in r.feedback
    zh = grade(kind="numeric", expected=expected, answer=answer, rtol=1e-3, lang="zh")
    assert "转置" in zh.feedback


def test_a_symmetric_key_typed_right_is_not_called_transposed(grade):
    assert grade(kind="numeric", expected=[[1, 2], [2, 1]], answer="[[1, 2], [2, 1]]").correct
    r = grade(kind="numeric", expected=[[1, 2], [2, 1]], answer="[[1, 2], [2, 5]]")
    assert "transpose" not in r.feedback


def test_symbols_in_a_numeric_answer_are_named(grade):
    r = grade(kind="numeric", expected=1.0, answer="x + 1")
    assert "x" in r.error


def test_expected_may_be_a_formula(grade):
    assert grade(kind="numeric", expected="0.5^20", answer="9.5367e-7", rtol=1e-4).correct


def test_too_few_digits_message_in_chinese(grade):
    r = grade(kind="numeric", expected=HALF_POW_20, answer="9.5e-7", sigfigs=3, lang="zh")
    assert "3 位有效数字" in r.feedback


@pytest.mark.parametrize(("answer", "expected"), [("[0.5]", [0.5]), ("0.5", [0.5]), ("[0.5]", 0.5),
                                                  ("[[0.5]]", [[0.5]])])
def test_one_entry_vector_and_a_number_are_the_same_answer(grade, answer, expected):
    # Regression: `[0.5]` for a one-entry vector was reported as the wrong shape.
    assert grade(kind="numeric", expected=expected, answer=answer, rtol=1e-9).correct


@pytest.mark.parametrize(("answer", "dotted"), [("9,54", "9.54"), ("1,5", "1.5"),
                                                ("9,54e-7", "9.54e-7"), ("-3,14", "-3.14"),
                                                ("1，5", "1.5")])
def test_a_decimal_comma_for_one_number_is_asked_about_not_guessed(grade, answer, dotted):
    # Issue 10 item 3: 9,54 is the decimal 9.54 or the pair (9, 54): ask, don't guess.
    r = grade(kind="numeric", expected=float(dotted), answer=answer)
    assert r.verdict == "unreadable" and dotted in r.error, r.feedback


def test_a_comma_is_a_separator_where_the_key_is_a_vector(grade):
    assert grade(kind="numeric", expected=[1, 5], answer="1,5").correct
    r = grade(kind="numeric", expected=2.5, answer="1, 5, 7")
    assert r.verdict == "wrong" and "vector of length 3" in r.feedback
