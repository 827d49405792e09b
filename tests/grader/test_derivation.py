"""The derivation checker: each line must equal the one before; the last must be the target."""

import pytest

F = {"functions": ["F"], "symbols": ["x"]}


def derive(grade, lines, start=None, target=None, **decls):
    return grade(kind="derivation", expected=target, start=start, answer=lines, **decls)


@pytest.mark.parametrize(
    ("lines", "start", "target", "decls", "correct", "first_wrong", "statuses"),
    [
        (["diff(x, x) + diff(F(x), x)", "1 + F'(x)"], "d/dx (x + F(x))", "1 + F'(x)", F,
         True, None, ["verified", "verified"]),
        (["1 + F'(x)"], "d/dx (x + F(x))", "1 + F'(x)", F, True, None, ["verified"]),
        # a broken line is not the next line's reference: line 2 follows from the start
        (["1 + F(x)", "1 + F'(x)"], "d/dx (x + F(x))", "1 + F'(x)", F,
         False, 1, ["does_not_follow", "verified"]),
        (["(x+1)^2", "x^2 + 1", "x^2 + 2x + 1", "x^2 + 1 + 2x"], None, None, {}, False, 2,
         ["verified", "does_not_follow", "verified", "verified"]),
        # a line that builds on the broken one does not follow either (it is still wrong)
        (["(x+1)^2", "x^2 + 1", "x^2 + 1 + 0"], None, None, {}, False, 2,
         ["verified", "does_not_follow", "does_not_follow"]),
        (["diff(x, x) + diff(F(x), x)", "F'(x)"], "d/dx (x + F(x))", "1 + F'(x)", F,
         False, 2, ["verified", "does_not_follow"]),
        (["(x+1)^2", "x^2 + 2x + 1", "x^2 + 2x"], None, None, {}, False, 3,
         ["verified", "verified", "does_not_follow"]),
        (["(x+1)^2", "x^2 + 2x + 1"], None, "x^2+2x+1", {}, True, None,
         ["verified", "verified"]),
        (["(x+1)^2", "x^2 + 2x + 1"], None, "x^2", {}, False, None, ["verified", "verified"]),
        (["(I + W)^T g", "(I + W^T) g", "g + W^T g"], None, "g + W^T g",
         {"matrices": ["W", "g"]}, True, None, ["verified"] * 3),
        (["(I + W)^T g", "(I + W) g"], None, None, {"matrices": ["W", "g"]}, False, 2,
         ["verified", "does_not_follow"]),
        (["(x+1)^2", "x^2 + (", "x^2 + 2x + 1"], None, None, {}, False, 2,
         ["verified", "unreadable", "verified"]),
        (["= x^2 + 2x + 1"], "(x+1)^2", None, {}, True, None, ["verified"]),
    ],
)
def test_derivations(grade, lines, start, target, decls, correct, first_wrong, statuses):
    r = derive(grade, lines, start, target, **decls)
    assert r.correct is correct, r.feedback
    assert r.first_wrong_step == first_wrong
    assert [s.status for s in r.steps] == statuses


def test_first_wrong_line_feedback_has_a_counterexample(grade):
    r = derive(grade, ["(x+1)^2", "x^2 + 1"], target="x^2+2x+1")
    assert r.first_wrong_step == 2
    assert "Line 2" in r.feedback and "x = " in r.feedback
    assert "does not follow from line 1" in r.feedback and "line 1 gives" in r.feedback


@pytest.mark.parametrize(("lang", "follows", "gives"), [
    ("en", "Line 4 does not follow from line 2.", ", line 2 gives "),
    ("zh", "第 4 行不能由第 2 行推出。", "，第 2 行等于 "),
])
def test_a_step_names_the_line_it_was_compared_with(grade, lang, follows, gives):
    # Line 3 does not follow, so it is not the reference: line 4 is compared with line 2, and
    # its feedback must say so, not "the line before" (which is line 3).
    r = derive(grade, ["x + x", "2x", "3x", "2x + 1"], lang=lang)
    assert [s.status for s in r.steps] == ["verified", "verified", "does_not_follow",
                                          "does_not_follow"]
    feedback = r.steps[3].feedback
    assert feedback.startswith(follows) and gives in feedback, feedback


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Line 1 is not close enough to the starting line"),
    ("zh", "第 1 行与起始式相差超出允许范围"),
])
def test_an_approximate_step_names_the_start_it_was_compared_with(grade, lang, expected):
    r = derive(grade, ["≈ 0.34"], start="1/3", lang=lang)
    assert r.steps[0].feedback.startswith(expected), r.steps[0].feedback


def test_last_line_not_target_message_and_half_score(grade):
    r = derive(grade, ["(x+1)^2", "x^2 + 2x + 1"], target="x^2")
    assert "not the target" in r.feedback
    assert r.score == 0.5


def test_partial_score_counts_verified_lines_before_the_first_problem(grade):
    r = derive(grade, ["x + x", "2x", "3x"], start="2x", target="3x")
    assert r.first_wrong_step == 3
    assert r.score == pytest.approx(2 / 3)


def test_answer_text_with_newlines_is_split_into_lines(grade):
    r = derive(grade, "(x+1)^2\nx^2+2x+1\n", target="x^2+2x+1")
    assert r.correct and len(r.steps) == 2


def test_chinese_step_feedback(grade):
    r = derive(grade, ["(x+1)^2", "x^2 + 1"], lang="zh")
    assert "第 2 行不能由第 1 行推出" in r.feedback


def test_empty_derivation_is_an_error(grade):
    r = derive(grade, [], target="x")
    assert r.error and not r.correct


def test_misconfigured_start_is_reported(grade):
    r = derive(grade, ["x"], start="((")
    assert "misconfigured" in r.error
