"""Issue 10 item 5, class names-undeclared: an answer that uses a one-letter name the question
does not use is still graded. Right when the formula does not depend on it (0*z, (p/q)*(q/p)),
wrong when it does (t^2 + 1 for x^2 + 1), and the feedback names it (and a case slip, X for x)."""

import pytest

from grader import preview


def expression(grade, expected, answer, lang="en", **decls):
    return grade(kind="expression", expected=expected, answer=answer, lang=lang, **decls)


@pytest.mark.parametrize(
    ("expected", "answer", "decls", "verdict"),
    [
        ("x^2 + 1", "x^2 + 1 + 0*z", {"symbols": ["x"]}, "correct"),
        ("x^2 + 1", "x^2 + 1 + z - z", {"symbols": ["x"]}, "correct"),
        ("x^2 + 1", "x^2 + sin(t)^2 + cos(t)^2", {"symbols": ["x"]}, "correct"),
        ("x^2 + 1", "x^2 + (p/q)*(q/p)", {"symbols": ["x"]}, "correct"),
        ("1", "(p/q)*(q/p)", {}, "correct"),
        ("0", "0*z", {}, "correct"),
        ("x^2 + 1", "t^2 + 1", {"symbols": ["x"]}, "wrong"),
        ("x^2 + 1", "X^2 + 1", {"symbols": ["x"]}, "wrong"),
        ("x^2 + 1", "a*x^2 + 1", {"symbols": ["x"]}, "wrong"),
        ("x^2 + 1", "x^2 + 1 + k", {"symbols": ["x"]}, "wrong"),
        ("2*x", "2*t", {"symbols": ["x"]}, "wrong"),
        ("sin(x)", "sin(X)", {"symbols": ["x"]}, "wrong"),
        ("2*x", "2*alpha", {"symbols": ["x"]}, "wrong"),  # a Greek letter is a name too
        ("x_0 + 1", "x_1 + 1", {"symbols": ["x_0"]}, "wrong"),
        ("(I + W)^T g", "(I + W)^T h", {"matrices": ["W", "g"]}, "wrong"),
    ],
)
def test_verdicts(grade, expected, answer, decls, verdict):
    r = expression(grade, expected, answer, **decls)
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize(
    ("expected", "answer", "en", "zh"),
    [
        ("x^2 + 1", "t^2 + 1", "Your answer uses t; this question is about x.",
         "你的答案用到了 t；本题的名字是 x。"),
        ("x^2 + 1", "X^2 + 1", "(capital and small letters are different names)", "大写和小写"),
        ("1", "z + 1", "Your answer uses z, which this question does not use.", "本题并没有这个名字"),
    ],
)
def test_the_feedback_names_the_other_name(grade, expected, answer, en, zh):
    symbols = ["x"] if "x" in expected else []
    assert en in expression(grade, expected, answer, symbols=symbols).feedback
    assert zh in expression(grade, expected, answer, "zh", symbols=symbols).feedback


def test_the_counterexample_shows_the_other_names_value(grade):
    r = expression(grade, "x^2 + 1", "t^2 + 1", symbols=["x"])
    point = dict(part.split(" = ") for part in r.counterexample.point.split(", "))
    assert set(point) == {"t", "x"}
    t, x = float(point["t"]), float(point["x"])
    assert float(r.counterexample.answer) == t * t + 1
    assert float(r.counterexample.expected) == x * x + 1


def test_a_right_answer_gets_no_note(grade):
    assert expression(grade, "0", "0*z").feedback == "Correct."


def test_names_of_a_malrule_are_the_questions_names(grade):
    malrules = [{"answer": "x^2 + c", "feedback": "The constant is 1."}]
    r = grade(kind="expression", expected="x^2 + 1", answer="x^2 + c", symbols=["x"],
              malrules=malrules)
    assert r.malrule == "The constant is 1." and "uses c" not in r.feedback
    other = grade(kind="expression", expected="x^2 + 1", answer="x^2 + k", symbols=["x"],
                  malrules=malrules)
    assert other.malrule is None and "uses k" in other.feedback


def test_the_expected_answers_letters_split_a_run_in_the_answer(grade):
    # Nothing declared: the expected answer's variables are the question's names (2ab is 2·a·b).
    assert expression(grade, "2*a*b", "2ab").correct
    assert expression(grade, "x*y", "xy").correct


@pytest.mark.parametrize(("answer", "note"), [("t^2 + 1", "uses t; this question is about x"),
                                              ("X + 1", "capital and small letters")])
def test_the_preview_points_it_out_before_submitting(answer, note):
    assert note in preview(answer, symbols=["x"])["note"]


def test_the_preview_says_nothing_when_the_question_declares_nothing():
    assert preview("t^2 + 1")["note"] is None


def test_an_undeclared_letter_called_like_a_function_is_a_product_with_a_note(grade):
    r = expression(grade, "x^2", "f(x)", symbols=["x"])
    assert r.verdict == "wrong" and "f(x) reads as f·x" in r.feedback and "uses f" in r.feedback


def test_numbers_still_want_numbers(grade):
    r = grade(kind="numeric", expected=2.0, answer="2t")
    assert r.verdict == "unreadable" and "t" in r.error
