"""The values the store takes and returns (small, immutable)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from grader import Verdict
from tutor.rating import (
    CONFIDENCE_LEVELS,
    DEFAULT_SLOW_SECONDS,
    RECORDED_VERDICTS,
    Mode,
    Outcome,
    Phase,
)
from tutor.review import CardState

MAX_QUESTION_ID = 200
MAX_ANSWER_CHARS = 20_000
MAX_PROFILE_NAME = 80
MAX_ATTEMPT_KEY = 64


@dataclass(frozen=True)
class Profile:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class NewAttempt:
    """One graded answer to record. The rubric flags and `slow_after_seconds` only feed the
    rating; `phase` is what the caller claims it is (the visit's first try, a retry, after the
    reveal): the store decides whether a claimed first try counts (`tutor.rating.recorded_phase`).
    `key` is the attempt's unique id, made by the app when the answer is submitted
    (`AttemptWriter` gives one to an attempt without): recording an attempt whose key is already
    stored changes nothing, so a retried or replayed write lands once.

    An interview answer is recorded as its model answer is shown, `unassessed` (a failure until
    ticked); the ticks then come as a `NewAttempt` that `assesses` that answer's `key` (its
    verdict, score, ticks and confidence replace the row's; no second row). By key, not row id:
    an answer held in a replica's spool while the database is away has no row id yet, and the
    spool writes the held answer before its ticks."""

    question_id: str
    verdict: Verdict
    score: float = 0.0
    answer: str = ""
    seed: int | None = None
    hints_used: int = 0
    seconds: float = 0.0
    confidence: int | None = None
    rubric_ticks: tuple[str, ...] = ()
    mode: Mode | str = Mode.PRACTICE
    required_missed: bool = False
    misconception_ticked: bool = False
    bonus_hit: bool = False
    slow_after_seconds: float | None = field(default=DEFAULT_SLOW_SECONDS)
    phase: Phase | str = Phase.FIRST
    key: str | None = None
    unassessed: bool = False
    assesses: str | None = None  # the key of the unassessed answer these ticks assess

    def problems(self) -> list[str]:
        """Every reason this attempt cannot be stored (empty when it is fine)."""
        found = []
        if not self.question_id or len(self.question_id) > MAX_QUESTION_ID:
            found.append(f"question_id must have 1..{MAX_QUESTION_ID} characters")
        if not isinstance(self.verdict, Verdict) or self.verdict not in RECORDED_VERDICTS:
            # an unreadable answer is not an attempt: it is never recorded; a word is not a
            # verdict (one vocabulary, from the grader's Result to the column)
            found.append(f"verdict {self.verdict!r} is not one of "
                         f"{[f'Verdict.{v.name}' for v in RECORDED_VERDICTS]}")
        if not (isinstance(self.score, int | float) and 0.0 <= self.score <= 1.0):
            found.append(f"score {self.score!r} is not in [0, 1]")
        if not isinstance(self.answer, str) or len(self.answer) > MAX_ANSWER_CHARS:
            found.append(f"answer must be text of at most {MAX_ANSWER_CHARS} characters")
        if self.hints_used < 0:
            found.append("hints_used is negative")
        if not (isinstance(self.seconds, int | float) and math.isfinite(self.seconds)) or (
            self.seconds < 0
        ):
            found.append(f"seconds {self.seconds!r} is not a finite non-negative number")
        if self.confidence is not None and self.confidence not in CONFIDENCE_LEVELS:
            found.append(f"confidence {self.confidence!r} is not one of {CONFIDENCE_LEVELS}")
        if self.mode not in {m.value for m in Mode}:
            found.append(f"mode {self.mode!r} is not one of {[m.value for m in Mode]}")
        if self.phase not in {p.value for p in Phase}:
            found.append(f"phase {self.phase!r} is not one of {[p.value for p in Phase]}")
        if self.key is not None and not (
            isinstance(self.key, str) and 0 < len(self.key) <= MAX_ATTEMPT_KEY
        ):
            found.append(f"key must be text of 1..{MAX_ATTEMPT_KEY} characters")
        if self.assesses is not None and not (
            isinstance(self.assesses, str) and 0 < len(self.assesses) <= MAX_ATTEMPT_KEY
        ):
            found.append(f"assesses must be an attempt's key, text of 1..{MAX_ATTEMPT_KEY} characters")
        if self.assesses is not None and self.unassessed:
            found.append("an assessment cannot itself be unassessed")
        if self.unassessed and (self.verdict is not Verdict.WRONG or self.score != 0.0):
            # it stands as a failure until the ticks assess it: no credit before them
            found.append("an unassessed answer is recorded as wrong with score 0")
        return found

    def outcome(self) -> Outcome:
        return Outcome(
            verdict=self.verdict,
            hints_used=self.hints_used,
            confidence=self.confidence,
            seconds=self.seconds,
            slow_after_seconds=self.slow_after_seconds,
            required_missed=self.required_missed,
            misconception_ticked=self.misconception_ticked,
            bonus_hit=self.bonus_hit,
            phase=Phase(self.phase),
        )


@dataclass(frozen=True)
class AttemptRecord:
    """A stored attempt. `verdict` is a `grader.Verdict` (`unreadable` only on rows written
    before unreadable answers stopped being recorded). `card` is the question's card after this
    attempt (moved by a counted try, as it stands after practice), `before` the card a counted
    try moved (both None when read back). `unassessed`: an interview answer not yet ticked, which
    stands as a failure."""

    id: int
    profile_id: int
    question_id: str
    seed: int | None
    answer: str
    verdict: Verdict
    score: float
    hints_used: int
    seconds: float
    confidence: int | None
    rubric_ticks: tuple[str, ...]
    rating: int | None
    mode: str
    created_at: datetime
    phase: str = Phase.FIRST.value
    key: str | None = None
    unassessed: bool = False
    # came in through an import (a file anyone can write), not answered in this app
    imported: bool = False
    card: CardState | None = field(default=None, compare=False)
    before: CardState | None = field(default=None, compare=False)

    @property
    def counted(self) -> bool:
        """Counted in "Attempts" and accuracy: a visit's first graded try."""
        return self.phase == Phase.FIRST.value and self.verdict in RECORDED_VERDICTS
