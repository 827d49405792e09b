"""Issue 29 item 1, end to end through the question session: a typing slip (a space inside a
number, a malformed number, a decimal comma in a formula, an open bracket, ± for one value) is
"cannot read", shows where, and costs no try; the next readable answer is still the first try."""

import random

import pytest

from tests.app.learner_bank import fixture_bank
from tutor.rating import Phase
from tutor.sessions import question_session as flow

BANK = fixture_bank()
NUMERIC, EXPRESSION = (BANK.questions[q] for q in ("fx-numeric", "fx-expression"))


def submit(session, question, text, lang="en"):
    return flow.submit(session, question, text, confidence="medium", lang=lang)


@pytest.mark.parametrize(("question", "slip", "then"), [
    (NUMERIC, "[0.4, 2 e5]", "[0.4, 2.5]"),
    (NUMERIC, "[0.4, 2.0.5]", "[0.4, 2.5]"),
    (NUMERIC, "[0.4, 2.05", "[0.4, 2.5]"),
    (EXPRESSION, "1 + F'(x", "1 + F(x)"),
    (EXPRESSION, "1 + 2 3 F'(x)", "1 + F(x)"),
    (EXPRESSION, "1,5 + F'(x)", "1 + F(x)"),
    (EXPRESSION, "1 ± F'(x)", "1 + F(x)"),
    (EXPRESSION, "|1 + F'(x)", "1 + F(x)"),
    (EXPRESSION, "exp2(1) + F'(x)", "1 + F(x)"),  # a function name with a number glued to it
    (EXPRESSION, "log2x + F'(x)", "1 + F(x)"),  # log_2 x, or log(2x)?
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_typing_slip_is_unreadable_and_costs_no_try(question, slip, then, lang):
    session = flow.open_session(question, rng=random.Random(0), now=100.0)
    tries = session.tries_left
    graded = submit(session, question, slip, lang)
    assert graded.result.unreadable and graded.phase is None, graded.result.feedback
    assert "^" in graded.result.feedback  # the caret under the slip
    assert session.tries_left == tries and not session.attempted
    assert submit(session, question, then, lang).phase is Phase.FIRST
