"""quizbank.grading.grade for every bank question type: one grader.Result each."""

import pytest

from grader import Verdict
from quizbank import parse_bank
from quizbank.grading import grade
from quizbank.variants import build_variant

BASE = {"topic": "jacobian", "difficulty": "medium",
        "source": {"text": "gradient-propagation", "section": "3.2"},
        "prompt": {"zh": "题", "en": "Q"}, "solution": {"zh": "解", "en": "S"}}


def question(**fields):
    bank = parse_bank({"questions": [{**BASE, **fields}]})
    return next(iter(bank.questions.values()))


CHOICE_SINGLE = question(id="c-single", type="choice", options=[
    {"id": "a", "text": {"zh": "甲", "en": "A"}, "correct": True},
    {"id": "b", "text": {"zh": "乙", "en": "B"}, "correct": False,
     "feedback": {"zh": "乙错了", "en": "B is wrong because..."}}])
CHOICE_MULTI = question(id="c-multi", type="choice", multiple=True, options=[
    {"id": "a", "text": {"en": "A"}, "correct": True},
    {"id": "b", "text": {"en": "B"}, "correct": True},
    {"id": "c", "text": {"en": "C"}, "correct": False, "feedback": {"en": "C no"}},
    {"id": "d", "text": {"en": "D"}, "correct": False, "feedback": {"en": "D no"}}])
EXPRESSION = question(id="e", type="expression", answer="(I + W)^T g", matrices=["W", "g"],
                      malrules=[{"answer": "(I + W) g",
                                 "feedback": {"zh": "忘了转置", "en": "You forgot the transpose"}}])
NUMERIC = question(id="n", type="numeric", answer=[0.4, 2.05],
                   tolerance={"kind": "relative", "value": 1e-3})
DERIVATION = question(id="d", type="derivation", start="d/dx (x + F(x))", target="1 + F'(x)",
                      symbols=["x"], functions=["F"],
                      steps=["diff(x, x) + diff(F(x), x)", "1 + F'(x)"])
ORDERING = question(id="o", type="ordering", steps=[
    {"id": "s1", "text": {"en": "one", "zh": "一"}}, {"id": "s2", "text": {"en": "two"}},
    {"id": "s3", "text": {"en": "three"}}, {"id": "s4", "text": {"en": "four"}}])
INTERVIEW = question(id="i", type="interview", model_answer={"en": "m", "zh": "m"}, rubric=[
    {"id": "identity", "kind": "required", "text": {"en": "identity term", "zh": "恒等项"},
     "keywords": {"zh": ["恒等", "单位矩阵"], "en": ["identity", "I + J"]}},
    {"id": "never-vanish", "kind": "misconception", "text": {"en": "never vanishes"},
     "keywords": {"en": ["never vanish"], "zh": ["永远不会消失"]}}])
GENERATED = question(id="g", type="generated", template="linear_residual_block",
                     asks=["loss", "grad_x"], tolerance={"kind": "relative", "value": 1e-3})


@pytest.mark.parametrize(
    ("q", "answer", "verdict", "score"),
    [
        (CHOICE_SINGLE, ["a"], "correct", 1.0),
        (CHOICE_SINGLE, ["b"], "wrong", 0.0),
        (CHOICE_MULTI, ["a", "b"], "correct", 1.0),
        (CHOICE_MULTI, ["a"], "partial", 0.5),
        (CHOICE_MULTI, ["a", "c"], "wrong", 0.0),
        (CHOICE_MULTI, ["a", "b", "c", "d"], "wrong", 0.0),
        (EXPRESSION, "g + W^T g", "correct", 1.0),
        (EXPRESSION, "(I+W) g", "wrong", 0.0),
        (NUMERIC, "[0.4 2.05]", "correct", 1.0),
        (NUMERIC, "[0.4, 2.5]", "partial", 0.5),
        (DERIVATION, ["diff(x, x) + diff(F(x), x)", "1 + F'(x)"], "correct", 1.0),
        (ORDERING, ["s1", "s2", "s3", "s4"], "correct", 1.0),
        (ORDERING, ["s2", "s1", "s3", "s4"], "partial", 5 / 6),
        (ORDERING, ["s4", "s3", "s2", "s1"], "wrong", 0.0),
    ],
)
def test_grade_by_type(q, answer, verdict, score):
    r = grade(q, answer, lang="en")
    assert r.verdict is Verdict(verdict), r.feedback
    assert r.correct is (verdict == "correct")
    assert r.score == pytest.approx(score)


def test_choice_feedback_for_the_chosen_distractor():
    r = grade(CHOICE_SINGLE, ["b"], lang="zh")
    assert "乙错了" in r.feedback


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Not correct: that is not the right option. B is wrong because..."),
    ("zh", "不正确：这不是正确的选项。 乙错了"),
])
def test_a_wrong_single_choice_says_wrong_not_a_count_of_options(lang, expected):
    # "1 of 2 options judged correctly" reads as half right for a question with one answer.
    assert grade(CHOICE_SINGLE, ["b"], lang=lang).feedback == expected


def test_a_multiple_choice_still_counts_the_options_judged_right():
    r = grade(CHOICE_MULTI, ["a", "c"], lang="en")
    assert r.feedback.startswith("Not quite: 2 of 4 options judged correctly.")


def test_expression_malrule_in_the_learners_language():
    r = grade(EXPRESSION, "(I + W) g", lang="zh")
    assert r.malrule == "忘了转置" and "忘了转置" in r.feedback


def test_ordering_names_the_first_misplaced_step():
    r = grade(ORDERING, ["s2", "s1", "s3", "s4"], lang="zh")
    assert r.first_wrong_step == 1 and "第 1 步" in r.feedback


def test_unknown_choice_id_is_an_error():
    r = grade(CHOICE_SINGLE, ["zzz"])
    assert r.error and r.verdict is Verdict.UNREADABLE


def test_generated_grades_each_ask_against_the_variant_it_is_given():
    variant = build_variant("linear_residual_block", seed=7, difficulty="medium")
    key = variant.answers
    answers = {"loss": repr(key["loss"]), "grad_x": str(key["grad_x"])}
    r = grade(GENERATED, answers, variant=variant)
    assert r.correct and [p.name for p in r.parts] == ["loss", "grad_x"]
    answers["loss"] = repr(key["loss"] * 1.01)
    r = grade(GENERATED, answers, variant=variant)
    assert r.verdict is Verdict.PARTIAL and r.score == 0.5
    assert r.part("loss").verdict is Verdict.WRONG and r.part("grad_x").correct


@pytest.mark.parametrize("loss", ["", "[[1, 2]", "x + 1"])
def test_a_generated_answer_with_a_box_that_cannot_be_read_is_not_an_attempt(loss):
    variant = build_variant("linear_residual_block", seed=7, difficulty="medium")
    r = grade(GENERATED, {"loss": loss, "grad_x": str(variant.answers["grad_x"])}, variant=variant)
    assert r.verdict is Verdict.UNREADABLE and r.error.startswith("loss: ")
    assert r.part("loss").unreadable and r.part("grad_x").correct


def test_generated_needs_the_variant_of_its_own_template():
    with pytest.raises(ValueError, match="variant"):
        grade(GENERATED, {"loss": "1"})
    other = build_variant("gradient_multiplier", seed=7)
    with pytest.raises(ValueError, match="gradient_multiplier"):
        grade(GENERATED, {"loss": "1"}, variant=other)


def test_interview_is_not_auto_graded():
    r = grade(INTERVIEW, "The identity path: 梯度 = I + J, so it never vanishes")
    assert r.verdict is Verdict.UNREADABLE and r.error and r.score == 0


def test_a_derivations_tolerance_reaches_its_approximate_lines():
    """Issue 10 item 3: ≈ lines of a derivation are checked within the question's tolerance
    (3 sqrt(2) = 4.2426...: "≈ 4.25" is not its rounding to 3 figures, but it is within 1 %)."""
    fields = {"type": "derivation", "start": "sqrt(2)*3", "target": "4.25", "steps": ["≈ 4.25"]}
    loose = question(id="d-tol", tolerance={"kind": "relative", "value": 0.01}, **fields)
    by_digits = question(id="d-digits", **fields)
    assert grade(loose, ["≈ 4.25"]).verdict == Verdict.CORRECT
    assert grade(by_digits, ["≈ 4.25"]).verdict == Verdict.WRONG
    assert grade(by_digits, ["≈ 4.24", "≈ 4.25"]).verdict != Verdict.CORRECT


def test_a_derivations_tolerance_is_not_significant_figures():
    with pytest.raises(Exception, match="relative or absolute"):
        question(id="d-sig", type="derivation", start="x", target="x", steps=["x"],
                 tolerance={"kind": "sigfigs", "value": 3})
