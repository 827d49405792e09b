"""Wrong answers grouped by the grader's equivalence, ranked by learners; no learner ids leave."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizbank import load_bank
from quizbank.equivalence import same_answer
from tutor.answer_classes import MAX_SPELLINGS, group_wrong_answers
from tutor.attempt_table import LearnerAnswer

FIXTURES = load_bank(Path(__file__).parents[1] / "quizbank" / "fixtures" / "valid")
EXPRESSION = FIXTURES.questions["fx-expression"]  # (I + W)^T g, matrices W, g


def answers(*rows):
    return [LearnerAnswer(learner, text, verdict) for learner, text, verdict in rows]


def grader_same(question):
    return lambda first, second: same_answer(question, first, second)


def test_equivalent_spellings_form_one_class_ranked_by_learners():
    result = group_wrong_answers(answers(
        (1, "(I + W) g", "wrong"), (2, "g + W g", "wrong"), (3, "W g+g", "wrong"),
        (3, "W g + g", "wrong"),  # the same learner again: one learner, two answers
        (4, "W^T g", "wrong"), (5, "(I+W)^T g", "correct"), (6, "oops(", "unreadable"),
    ), grader_same(EXPRESSION))
    first, second = result.classes
    assert first.learners == 3 and first.answers == 4
    assert {text for text, _ in first.spellings} == {"(I + W) g", "g + W g", "W g+g"}
    assert (second.representative, second.learners) == ("W^T g", 1)
    assert result.wrong_learners == 4
    # A class holds texts and counts only: nothing says who answered.
    assert set(vars(first)) == {"representative", "spellings", "learners", "answers"}


def test_numbers_within_the_tolerance_are_one_class(sample):
    from quizbank import parse_bank

    data = sample("numeric") | {"answer": 2.0, "tolerance": {"kind": "absolute", "value": 0.01},
                                "tests": []}
    question = parse_bank({"questions": [data]}).questions[data["id"]]
    result = group_wrong_answers(answers(
        (1, "3", "wrong"), (2, "3.001", "wrong"), (3, "6/2", "wrong"), (4, "-2", "wrong")),
        grader_same(question))
    assert [c.learners for c in result.classes] == [3, 1]


@pytest.fixture
def sample():
    import copy

    import yaml

    path = Path(__file__).parents[1] / "quizbank" / "fixtures" / "valid" / "all_types.yaml"
    data = {q["type"]: q for q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]}
    return lambda kind: copy.deepcopy(data[kind])


def test_only_the_most_common_spellings_are_compared():
    rows = [(k, f"x{k}", "wrong") for k in range(MAX_SPELLINGS + 7)]
    calls = []
    result = group_wrong_answers(answers(*rows), lambda a, b: calls.append(1) and False)
    assert result.others == 7
    assert len(result.classes) == MAX_SPELLINGS


def test_equivalence_needs_a_formula_or_number_question():
    with pytest.raises(TypeError):
        same_answer(FIXTURES.questions["fx-choice"], "a", "b")
