"""The outcome -> FSRS rating table from the issue, row by row."""

from __future__ import annotations

import pytest
from fsrs import Rating

from grader import Verdict
from tutor.rating import CHOOSABLE, Outcome, Phase, choosable, rate

RIGHT = Verdict.CORRECT

CASES = [
    # (description, outcome, rating)
    ("unreadable answer leaves the card", Outcome(Verdict.UNREADABLE, confidence=3), None),
    ("a retry leaves the card", Outcome(RIGHT, phase=Phase.RETRY), None),
    ("a wrong retry leaves the card", Outcome(Verdict.WRONG, phase=Phase.RETRY), None),
    ("after the reveal leaves the card", Outcome(RIGHT, confidence=3, phase=Phase.AFTER_REVEAL), None),
    ("wrong", Outcome(Verdict.WRONG), Rating.Again),
    ("wrong even when sure", Outcome(Verdict.WRONG, confidence=3, bonus_hit=True), Rating.Again),
    ("partly right", Outcome(Verdict.PARTIAL, confidence=2), Rating.Again),
    ("right but a required point missed", Outcome(RIGHT, confidence=3, required_missed=True), Rating.Again),
    ("right but a misconception ticked", Outcome(RIGHT, confidence=3, misconception_ticked=True, bonus_hit=True), Rating.Again),
    ("right with a hint", Outcome(RIGHT, hints_used=1, confidence=3, bonus_hit=True), Rating.Hard),
    ("right with low confidence", Outcome(RIGHT, confidence=1), Rating.Hard),
    ("right but slow", Outcome(RIGHT, confidence=2, seconds=200.0, slow_after_seconds=180.0), Rating.Hard),
    ("right, exactly at the slow limit", Outcome(RIGHT, seconds=180.0, slow_after_seconds=180.0), Rating.Good),
    ("right, no time limit", Outcome(RIGHT, seconds=10_000.0, slow_after_seconds=None), Rating.Good),
    ("right", Outcome(RIGHT), Rating.Good),
    ("right and unsure", Outcome(RIGHT, confidence=2), Rating.Good),
    ("right and sure, no bonus point", Outcome(RIGHT, confidence=3), Rating.Good),
    ("right, unsure, with a bonus point", Outcome(RIGHT, confidence=2, bonus_hit=True), Rating.Good),
    ("right, sure, no hint, a bonus point", Outcome(RIGHT, confidence=3, bonus_hit=True), Rating.Easy),
    ("right, sure, bonus, but slow", Outcome(RIGHT, confidence=3, bonus_hit=True, seconds=999.0), Rating.Hard),
    ("verdict given as text", Outcome("correct", confidence=3, bonus_hit=True), Rating.Easy),
]


@pytest.mark.parametrize(("outcome", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rating_table(outcome, expected):
    assert rate(outcome) == expected


def test_an_unknown_verdict_is_refused():
    with pytest.raises(ValueError):
        rate(Outcome("maybe"))


@pytest.mark.parametrize(
    ("rating", "choices"),
    [(Rating.Again, ()), (None, ()), (Rating.Hard, CHOOSABLE), (Rating.Good, CHOOSABLE),
     (Rating.Easy, CHOOSABLE), (3, CHOOSABLE)],
)
def test_only_a_right_answer_may_change_its_rating(rating, choices):
    assert choosable(rating) == choices
