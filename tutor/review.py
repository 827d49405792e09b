"""Spaced repetition: one FSRS card per (profile, question), and the order of the review queue.

Pure functions of the card, the rating and the time. The store keeps the cards and builds the
queue in SQL with the same order as `queue_sort_key` (a test checks they agree).

The schedule counts in days, without FSRS's minute-long learning steps: a learner who just failed
a question and read its worked solution would only be retyping it ten minutes later. A question
answered wrong comes back tomorrow; a new question answered right in 2 days (Good), 1 (Hard) or
8 (Easy), and later ones at FSRS's intervals.

Queue order: cards due at `now`, high-confidence errors first (the last attempt was rated Again
while the learner said they were sure: the most useful thing to revisit), then the most overdue,
then by question id so the order is total.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler, State

from tutor.rating import CONFIDENCE_HIGH, choosable

# No fuzzing: the same history always gives the same schedule (testable, exportable). No
# learning steps: see the module docstring.
SCHEDULER = Scheduler(enable_fuzzing=False, learning_steps=(), relearning_steps=())


@dataclass(frozen=True)
class CardState:
    question_id: str
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int = 0
    lapses: int = 0
    last_rating: int | None = None
    last_confidence: int | None = None

    @property
    def high_confidence_error(self) -> bool:
        return self.last_rating == Rating.Again and (self.last_confidence or 0) >= CONFIDENCE_HIGH

    def is_due(self, now: datetime) -> bool:
        return self.due <= now


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("naive datetime; pass an aware UTC datetime")
    return moment.astimezone(UTC)


def new_card(question_id: str, now: datetime) -> CardState:
    """A card never reviewed: FSRS Learning state, due now."""
    return CardState(question_id, State.Learning.value, 0, None, None, _utc(now), None)


def _to_fsrs(card: CardState) -> Card:
    # card_id is ours to give: fsrs's default sleeps 1 ms to make a unique timestamp id.
    return Card(
        card_id=1,
        state=State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review,
    )


def schedule(
    card: CardState, rating: Rating, now: datetime, *, confidence: int | None = None
) -> CardState:
    """The card after one review rated `rating` at `now`."""
    reviewed, _log = SCHEDULER.review_card(_to_fsrs(card), Rating(rating), review_datetime=_utc(now))
    return replace(
        card,
        state=reviewed.state.value,
        step=reviewed.step,
        stability=reviewed.stability,
        difficulty=reviewed.difficulty,
        due=reviewed.due,
        last_review=reviewed.last_review,
        reps=card.reps + 1,
        lapses=card.lapses + (1 if rating == Rating.Again and card.reps > 0 else 0),
        last_rating=int(rating),
        last_confidence=confidence,
    )


def due_by_rating(before: CardState, ratings, moment: datetime, *,
                  confidence: int | None = None) -> dict[int, datetime]:
    """When the card `before` an attempt at `moment` would be due under each of `ratings` (the
    choices a learner is offered after a right answer)."""
    return {int(r): schedule(before, r, moment, confidence=confidence).due for r in ratings}


def rating_choices(rating: int | None, before: CardState | None, moment: datetime, *,
                   confidence: int | None = None) -> tuple[tuple[int, datetime], ...]:
    """After a right answer rated `rating` at `moment`: every rating the learner may switch to,
    with when the card would then be due (as Anki shows on its buttons); () otherwise."""
    options = choosable(rating)
    if not options or before is None:
        return ()
    return tuple(sorted(due_by_rating(before, options, moment, confidence=confidence).items()))


def days_until(due: datetime, now: datetime) -> int:
    """Whole days from `now` to `due`, rounded ("back in 2 days"); 0 when due now or earlier."""
    seconds = (_utc(due) - _utc(now)).total_seconds()
    return max(0, round(seconds / 86_400))


def queue_sort_key(card: CardState) -> tuple[int, datetime, str]:
    return (0 if card.high_confidence_error else 1, card.due, card.question_id)


def order_queue(
    cards: Iterable[CardState], now: datetime, limit: int | None = None
) -> list[CardState]:
    """The cards due at `now` in review order (see the module docstring)."""
    due = sorted((c for c in cards if c.is_due(_utc(now))), key=queue_sort_key)
    return due if limit is None else due[:limit]
