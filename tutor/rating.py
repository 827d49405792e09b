"""From the outcome of one attempt to an FSRS rating (Again / Hard / Good / Easy).

The verdict is the grader's (`grader.Verdict`: correct / partial / wrong; an `unreadable` answer
is not an attempt and is never recorded). Only the first graded try of a question visit is
rated (`Phase.FIRST`): later tries before the solution is shown (`Phase.RETRY`) and answers typed
after it (`Phase.AFTER_REVEAL`) are kept in the history but leave the card and the accuracy alone.

Whether a try is a visit's first is the store's to decide, not the screen's (`recorded_phase`):
a learner who has tried a question, or seen its solution, has seen it. Until the question comes
back for review (its card is due) or a new variant is drawn (a generated question's seed never
counted before), an answer is practice (`Phase.REPEAT`), from whatever screen, tab, profile or
link it comes: a second visit to a question answered right (card not yet due) is practice too.

The rule for a first try, in order (the first that applies wins):

1. anything short of right -> Again: verdict `wrong` or `partial`, a required key point missed,
   or a misconception ticked;
2. right, but with a hint, with low confidence (1) or slower than `slow_after_seconds` -> Hard;
3. right, confident (3), no hint, and a bonus key point -> Easy;
4. right -> Good.

After a right answer the learner may pick another of Hard / Good / Easy (`CHOOSABLE`), as in
Anki; a wrong answer stays Again.

Confidence is on a three-point scale: 1 = guessing, 2 = unsure, 3 = sure (None = not asked).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from fsrs import Rating

from grader import Verdict

# What a recorded attempt's verdict may be: an unreadable answer is not an attempt.
RECORDED_VERDICTS = (Verdict.CORRECT, Verdict.PARTIAL, Verdict.WRONG)
# Ratings a learner may switch between after a right answer (never to or from Again).
CHOOSABLE = (Rating.Hard, Rating.Good, Rating.Easy)


class Mode(StrEnum):
    """Where an attempt was made (the dashboard can split by it)."""

    PRACTICE = "practice"
    REVIEW = "review"
    INTERVIEW = "interview"


class Phase(StrEnum):
    """Which try of a question visit an attempt was."""

    FIRST = "first"  # the first graded try: counted, rated, moves the card
    RETRY = "retry"  # a later try before the solution was shown: history only
    AFTER_REVEAL = "after_reveal"  # typed after the solution was shown: practice only
    # claimed as a first try, but the question was already tried (or its solution seen) and is
    # not due for review, and no new variant was drawn: practice only (`recorded_phase`)
    REPEAT = "repeat"


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
    phase: Phase = Phase.FIRST


def recorded_phase(claimed: Phase, *, last_counted: datetime | None, due: datetime | None,
                   seed: int | None, seed_counted: bool, now: datetime) -> Phase:
    """The phase the store records for an answer its caller `claimed` to be: a later try of a
    visit stays what it is (a claim can only lose a count, never win one); a first try counts
    only while the question is fresh:

    - never counted for this profile (`last_counted` None: no counted try, no solution shown), or
    - back for review: its card is `due` at `now`, or
    - a new variant: a generated question's `seed` that no counted try used (`seed_counted`).

    Otherwise it is `Phase.REPEAT`: practice, not counted, the card left alone."""
    claimed = Phase(claimed)
    if claimed is not Phase.FIRST or last_counted is None:
        return claimed
    if due is not None and due <= now:
        return Phase.FIRST
    if seed is not None and not seed_counted:
        return Phase.FIRST
    return Phase.REPEAT


def rate(outcome: Outcome) -> Rating | None:
    """The FSRS rating for `outcome`, or None when the attempt must not touch the card (not the
    visit's first try, or an answer that could not be read)."""
    verdict = Verdict(outcome.verdict)
    if Phase(outcome.phase) is not Phase.FIRST or verdict is Verdict.UNREADABLE:
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


def choosable(rating: int | None) -> tuple[Rating, ...]:
    """The ratings a learner may switch to from `rating` (none after a wrong answer)."""
    return CHOOSABLE if rating in CHOOSABLE else ()
