"""Numeric questions may carry mal-rules: a wrong number within the tolerance of one gets its
feedback (the wrong-answer classes of the Analytics page become such mal-rules)."""

import pytest

from quizbank import BankError, parse_bank
from quizbank.grading import grade

RULE = {"answer": "[0.5, 1.5]", "feedback": {"en": "You used W, not its transpose.",
                                             "zh": "用了 W，不是它的转置。"}}


@pytest.fixture
def question(sample):
    data = sample("numeric") | {"malrules": [RULE]}
    return parse_bank({"questions": [data]}).questions[data["id"]]


@pytest.mark.parametrize("answer, malrule", [
    ("[0.5, 1.5]", "You used W, not its transpose."),
    ("[0.5002, 1.4995]", "You used W, not its transpose."),  # within the relative 1e-3
    ("[0.6, 1.5]", None),
])
def test_a_wrong_number_near_a_malrule_gets_its_feedback(question, answer, malrule):
    result = grade(question, answer, lang="en")
    assert result.verdict.value == "wrong" and result.malrule == malrule
    if malrule:
        assert malrule in result.feedback


def test_the_right_answer_never_gets_malrule_feedback(question):
    result = grade(question, "[0.4, 2.05]", lang="zh")
    assert result.correct and result.malrule is None


def test_feedback_in_the_learners_language(question):
    assert grade(question, "[0.5, 1.5]", lang="zh").malrule == "用了 W，不是它的转置。"


def test_a_malrule_answer_must_be_text(sample):
    data = sample("numeric") | {"malrules": [{**RULE, "answer": 0.5}]}
    with pytest.raises(BankError, match="malrules"):
        parse_bank({"questions": [data]})
