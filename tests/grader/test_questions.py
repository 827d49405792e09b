"""grade_question for every bank question type, and rubric keyword suggestions."""

import pytest

import grader
from quizbank import parse_bank

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
    ("q", "answer", "correct", "score"),
    [
        (CHOICE_SINGLE, ["a"], True, 1.0),
        (CHOICE_SINGLE, ["b"], False, 0.0),
        (CHOICE_MULTI, ["a", "b"], True, 1.0),
        (CHOICE_MULTI, ["a"], False, 0.5),
        (CHOICE_MULTI, ["a", "c"], False, 0.0),
        (CHOICE_MULTI, ["a", "b", "c", "d"], False, 0.0),
        (EXPRESSION, "g + W^T g", True, 1.0),
        (EXPRESSION, "(I+W) g", False, 0.0),
        (NUMERIC, "[0.4 2.05]", True, 1.0),
        (NUMERIC, "[0.4, 2.5]", False, 0.5),
        (DERIVATION, ["diff(x, x) + diff(F(x), x)", "1 + F'(x)"], True, 1.0),
        (ORDERING, ["s1", "s2", "s3", "s4"], True, 1.0),
        (ORDERING, ["s2", "s1", "s3", "s4"], False, 5 / 6),
        (ORDERING, ["s4", "s3", "s2", "s1"], False, 0.0),
    ],
)
def test_grade_question_by_type(q, answer, correct, score):
    r = grader.grade_question(q, answer, lang="en")
    assert r["correct"] is correct, r["feedback"]
    assert r["score"] == pytest.approx(score)
    assert r["id"] == q.id


def test_choice_feedback_for_the_chosen_distractor():
    r = grader.grade_question(CHOICE_SINGLE, ["b"], lang="zh")
    assert "乙错了" in r["feedback"]
    chosen = [d for d in r["details"] if d["chosen"]]
    assert chosen == [{"id": "b", "chosen": True, "correct": False, "feedback": "乙错了"}]


def test_expression_malrule_in_the_learners_language():
    r = grader.grade_question(EXPRESSION, "(I + W) g", lang="zh")
    assert r["malrule"] == "忘了转置" and "忘了转置" in r["feedback"]


def test_ordering_names_the_first_misplaced_step():
    r = grader.grade_question(ORDERING, ["s2", "s1", "s3", "s4"], lang="zh")
    assert r["first_wrong_step"] == 1 and "第 1 步" in r["feedback"]


def test_unknown_choice_id_is_an_error():
    assert grader.grade_question(CHOICE_SINGLE, ["zzz"])["error"]


def test_generated_grades_each_ask_against_compute():
    import compute

    key = compute.generate("linear_residual_block", seed=7, difficulty="medium")["answers"]
    answers = {"loss": repr(key["loss"]), "grad_x": str(key["grad_x"])}
    r = grader.grade_question(GENERATED, answers, seed=7)
    assert r["correct"] and set(r["details"]) == {"loss", "grad_x"}
    answers["loss"] = repr(key["loss"] * 1.01)
    r = grader.grade_question(GENERATED, answers, seed=7)
    assert not r["correct"] and r["score"] == 0.5
    assert r["details"]["loss"]["correct"] is False


def test_interview_is_not_auto_graded():
    r = grader.grade_question(INTERVIEW, "The identity path: 梯度 = I + J, so it never vanishes")
    assert r["error"] and r["correct"] is False and r["score"] == 0
