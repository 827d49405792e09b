"""From the outcome of one attempt to an FSRS rating (Again / Hard / Good / Easy).

The rule, in order (the first that applies wins):

1. the answer could not be graded (verdict `error`) -> no rating: the card is left as it is,
   because an unreadable answer says nothing about memory;
2. anything short of right -> Again: verdict `wrong` or `partial`, a required key point missed,
   or a misconception ticked;
3. right, but with a hint, with low confidence (1) or slower than `slow_after_seconds` -> Hard;
4. right, confident (3), no hint, and a bonus key point -> Easy;
5. right -> Good.

Confidence is on a three-point scale: 1 = guessing, 2 = unsure, 3 = sure (None = not asked).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fsrs import Rating


class Verdict(StrEnum):
    CORRECT = "correct"
    PARTIAL = "partial"
    WRONG = "wrong"
    ERROR = "error"


class Mode(StrEnum):
    """Where an attempt was made (the dashboard can split by it)."""

    PRACTICE = "practice"
    REVIEW = "review"
    INTERVIEW = "interview"


CONFIDENCE_LOW = 1
CONFIDENCE_HIGH = 3
CONFIDENCE_LEVELS = (1, 2, 3)

# An answer slower than this is "slow" unless the caller knows better for its question type.
DEFAULT_SLOW_SECONDS = 180.0


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    hints_used: int = 0
    confidence: int | None = None
    seconds: float | None = None
    slow_after_seconds: float | None = DEFAULT_SLOW_SECONDS
    required_missed: bool = False
    misconception_ticked: bool = False
    bonus_hit: bool = False


def rate(outcome: Outcome) -> Rating | None:
    """The FSRS rating for `outcome`, or None when the attempt must not touch the card."""
    verdict = Verdict(outcome.verdict)
    if verdict is Verdict.ERROR:
        return None
    if verdict is not Verdict.CORRECT or outcome.required_missed or outcome.misconception_ticked:
        return Rating.Again
    slow = (
        outcome.seconds is not None
        and outcome.slow_after_seconds is not None
        and outcome.seconds > outcome.slow_after_seconds
    )
    if outcome.hints_used > 0 or outcome.confidence == CONFIDENCE_LOW or slow:
        return Rating.Hard
    if outcome.confidence == CONFIDENCE_HIGH and outcome.bonus_hit:
        return Rating.Easy
    return Rating.Good
