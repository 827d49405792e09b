"""The values the store takes and returns (small, immutable)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from tutor.rating import (
    CONFIDENCE_LEVELS,
    DEFAULT_SLOW_SECONDS,
    Mode,
    Outcome,
    Verdict,
)

MAX_QUESTION_ID = 200
MAX_ANSWER_CHARS = 20_000
MAX_PROFILE_NAME = 80


@dataclass(frozen=True)
class Profile:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class NewAttempt:
    """One answer to record. The rubric flags and `slow_after_seconds` only feed the rating."""

    question_id: str
    verdict: Verdict | str
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

    def problems(self) -> list[str]:
        """Every reason this attempt cannot be stored (empty when it is fine)."""
        found = []
        if not self.question_id or len(self.question_id) > MAX_QUESTION_ID:
            found.append(f"question_id must have 1..{MAX_QUESTION_ID} characters")
        if self.verdict not in {v.value for v in Verdict}:
            found.append(f"verdict {self.verdict!r} is not one of {[v.value for v in Verdict]}")
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
        return found

    def outcome(self) -> Outcome:
        return Outcome(
            verdict=Verdict(self.verdict),
            hints_used=self.hints_used,
            confidence=self.confidence,
            seconds=self.seconds,
            slow_after_seconds=self.slow_after_seconds,
            required_missed=self.required_missed,
            misconception_ticked=self.misconception_ticked,
            bonus_hit=self.bonus_hit,
        )


@dataclass(frozen=True)
class AttemptRecord:
    id: int
    profile_id: int
    question_id: str
    seed: int | None
    answer: str
    verdict: str
    score: float
    hints_used: int
    seconds: float
    confidence: int | None
    rubric_ticks: tuple[str, ...]
    rating: int | None
    mode: str
    created_at: datetime
