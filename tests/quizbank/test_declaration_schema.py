"""Issue 24 item 4: one declaration schema in the bank's YAML, passed to the grading request."""

import pytest

from quizbank import BankError, parse_bank
from quizbank.grading import request_for

BASE = {"topic": "jacobian", "difficulty": "medium",
        "source": {"text": "gradient-propagation", "section": "3.2"},
        "prompt": {"zh": "题", "en": "Q"}, "solution": {"zh": "解", "en": "S"}}
DERIVATION = {**BASE, "id": "d", "type": "derivation", "start": "d/dx (x + F(x))",
              "target": "1 + F'(x)", "steps": ["1 + F'(x)"], "symbols": ["x"],
              "functions": ["F"]}


def question(**fields):
    bank = parse_bank({"questions": [{**DERIVATION, **fields}]})
    return next(iter(bank.questions.values()))


def test_every_field_of_the_schema_reaches_the_request():
    q = question(integers=["n", "l"], families=["x", "F"], positive=["n"],
                 nonnegative=["l"], relations=["x_{l+1} = x_l + F_l(x_l)"],
                 symbols=["x"], functions=["F"])
    request = request_for(q, ["1 + F'(x)"])
    assert {k: request[k] for k in ("symbols", "functions", "matrices", "integers", "families",
                                    "positive", "nonnegative", "relations")} == {
        "symbols": ["x"], "functions": ["F"], "matrices": [], "integers": ["n", "l"],
        "families": ["x", "F"], "positive": ["n"], "nonnegative": ["l"],
        "relations": ["x_{l+1} = x_l + F_l(x_l)"]}


def test_a_question_without_the_new_fields_sends_the_request_it_sent_before():
    request = request_for(question(), ["1 + F'(x)"])
    assert set(request) == {"kind", "expected", "start", "answer", "lang", "symbols",
                            "functions", "matrices"}


@pytest.mark.parametrize(("fields", "words"), [
    ({"integers": ["x"]}, "x already declared in `symbols`"),
    ({"integers": ["n"], "families": ["n"]}, "n is an integer, not a family"),
    ({"positive": ["y"]}, "y in `positive` must be declared"),
    ({"integers": ["n"], "positive": ["n"], "nonnegative": ["n"]}, "n already declared `positive`"),
    ({"integers": ["n", "n"]}, "integers must be unique; repeated: n"),
    ({"relations": [""]}, "relations"),
])
def test_a_bad_declaration_is_refused_with_the_fix(fields, words):
    with pytest.raises(BankError) as info:
        question(**fields)
    assert words in str(info.value)


def test_a_family_may_share_its_name_with_a_function_or_matrix_it_takes_its_kind_from():
    q = question(families=["F", "W"], functions=["F"], matrices=["W"])
    assert q.families == ["F", "W"]


def test_the_bank_grades_a_pasted_block_the_way_the_checker_splits_it():
    """A derivation question's one-text answer goes to the grader whole: the chain and the
    remark are split there (before, each text line was one line, so `a = b` was unreadable)."""
    from quizbank.grading import grade

    q = question()
    answer = ("$$\\frac{\\partial y}{\\partial x}=\\frac{\\partial x}{\\partial x}"
              "+\\frac{\\partial F(x)}{\\partial x}=1+F'(x)$$\nwhere F is smooth")
    result = grade(q, answer, lang="zh")
    assert [s.status.value for s in result.steps] == ["verified", "verified"]
    assert result.correct


# -- issue 25: random variables -------------------------------------------------------------------

VARIANCE = {**BASE, "id": "v", "type": "derivation", "start": r"\operatorname{Var}(x+f)",
            "target": r"\operatorname{Var}(x)+\operatorname{Var}(f)",
            "steps": [r"\operatorname{Var}(x)+\operatorname{Var}(f)"]}


def test_the_random_variable_fields_reach_the_request():
    bank = parse_bank({"questions": [{**VARIANCE, "random": ["x", "f"],
                                      "independent": [["x", "f"]], "zero_mean": ["f"]}]})
    request = request_for(next(iter(bank.questions.values())), VARIANCE["steps"])
    assert {k: request[k] for k in ("random", "independent", "zero_mean")} == {
        "random": ["x", "f"], "independent": [["x", "f"]], "zero_mean": ["f"]}


@pytest.mark.parametrize(("fields", "words"), [
    ({"random": ["x"], "zero_mean": ["f"]}, "f in `zero_mean` must be declared in `random`"),
    ({"random": ["x"], "independent": [["x", "f"]]},
     "f in `independent` must be declared in `random`"),
    ({"random": ["x", "f"], "independent": [["x"]]}, "at least two random variables"),
    ({"random": ["F"], "functions": ["F"]}, "cannot be a random variable and a function"),
    ({"random": ["x", "x"]}, "random must be unique; repeated: x"),
])
def test_a_bad_random_declaration_is_refused_with_the_fix(fields, words):
    with pytest.raises(BankError) as info:
        parse_bank({"questions": [{**VARIANCE, **fields}]})
    assert words in str(info.value)
