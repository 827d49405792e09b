"""The practice session flow, without Streamlit: filters -> next question -> answer -> graded,
recorded result; hints one at a time.

A page keeps one `QuestionSession` per question on screen and calls the functions here. Grading
goes through `quizbank.grading.grade` and recording through a `record` callable (the tutor store's
attempt writer), both passed in so tests and benchmarks can swap them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the grader (numpy) is imported when the first answer is graded
    from grader import Result
    from tutor.interview import RubricOutcome

# Generated questions draw a fresh seed in this range; small enough to read and share.
SEED_RANGE = (1, 99_999)
# How many recently seen questions to skip when drawing the next one (if others remain).
RECENT_WINDOW = 5
CONFIDENCES = ("low", "medium", "high")
CONFIDENCE_LEVEL = {"low": 1, "medium": 2, "high": 3}  # the store's 1..3 scale


@dataclass(frozen=True)
class Filters:
    """What the learner chose to practise; an empty tuple means "any"."""

    topics: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    difficulties: tuple[str, ...] = ()

    @classmethod
    def of(cls, topics: Iterable = (), types: Iterable = (), difficulties: Iterable = ()):
        return cls(tuple(map(str, topics)), tuple(map(str, types)), tuple(map(str, difficulties)))


def _value(x: Any) -> str:
    """An enum member or a plain string, as the string authors write in YAML."""
    return str(getattr(x, "value", x))


def matching_ids(bank, filters: Filters) -> list[str]:
    """Ids of the bank's questions that pass every non-empty filter, in a stable order."""
    chosen = bank.filter(topics=filters.topics or None, types=filters.types or None,
                         difficulties=filters.difficulties or None)
    return sorted(q.id for q in chosen)


def pick_next(ids: Sequence[str], *, recent: Sequence[str], rng: random.Random) -> str | None:
    """A random id, avoiding the last `RECENT_WINDOW` seen while anything else is left."""
    if not ids:
        return None
    skip = set(recent[-RECENT_WINDOW:])
    fresh = [i for i in ids if i not in skip]
    return rng.choice(fresh or list(ids))


@dataclass(frozen=True)
class Outcome:
    """One graded answer: the grader's result plus what the store recorded. An interview
    answer also carries the rubric's judgement of the learner's ticks."""

    result: Result
    answer: Any
    confidence: str
    hints_used: int
    elapsed_s: float
    attempt_id: Any = None
    rubric: RubricOutcome | None = None

    @property
    def correct(self) -> bool:
        return self.result.correct

    @property
    def score(self) -> float:
        return self.result.score


@dataclass
class QuestionSession:
    """The question on screen: its variant seed, hints revealed so far and graded answers."""

    question_id: str
    seed: int | None = None
    started_at: float = field(default_factory=time.monotonic)
    hints_shown: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    serial: int = 0  # distinguishes repeated visits to one question (fresh widget keys)
    # interview: the answer typed before the model answer is revealed, then ticked on the rubric
    draft_answer: str | None = None
    draft_confidence: str | None = None

    @property
    def revealed(self) -> bool:
        return self.draft_answer is not None

    def reveal(self, answer: str, confidence: str) -> None:
        if confidence not in CONFIDENCES:
            raise ValueError(f"confidence must be one of {CONFIDENCES}, got {confidence!r}")
        self.draft_answer, self.draft_confidence = answer, confidence

    @property
    def attempted(self) -> bool:
        return bool(self.outcomes)

    @property
    def last(self) -> Outcome | None:
        return self.outcomes[-1] if self.outcomes else None

    def hints_total(self, question) -> int:
        return len(question.hints or ())

    def can_show_hint(self, question) -> bool:
        return self.hints_shown < self.hints_total(question)

    def show_hint(self, question) -> None:
        """Reveal one more hint (no-op once all are shown)."""
        if self.can_show_hint(question):
            self.hints_shown += 1

    def visible_hints(self, question, lang: str) -> list[str]:
        return [h.get(lang) for h in (question.hints or ())[: self.hints_shown]]


def start_question(
    question, *, rng: random.Random, now: float | None = None, serial: int = 0
) -> QuestionSession:
    """A session for `question`; a generated question gets a fresh seed for its numbers."""
    seed = rng.randint(*SEED_RANGE) if _value(question.type) == "generated" else None
    return QuestionSession(
        question_id=question.id,
        seed=seed,
        started_at=time.monotonic() if now is None else now,
        serial=serial,
    )


def answer_text(answer: Any) -> str:
    """The answer as stored: text as typed, lists/dicts as JSON (readable, reversible)."""
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, ensure_ascii=False, sort_keys=isinstance(answer, dict))


def verdict_of(result: Result) -> str:
    """correct / partial / wrong / error, the store's verdict for a grader result."""
    return "error" if result.unreadable else result.verdict.value


def new_attempt(question, session: QuestionSession, outcome: Outcome, *, mode: str = "practice"):
    """The store's `NewAttempt` for one graded answer (rubric flags from interview ticks)."""
    from tutor.rating import DEFAULT_SLOW_SECONDS
    from tutor.store.records import NewAttempt

    rubric = outcome.rubric
    ticks = tuple(outcome.answer.get("ticked", ())) if isinstance(outcome.answer, dict) else ()
    is_interview = _value(question.type) == "interview"
    return NewAttempt(
        question_id=question.id,
        verdict=verdict_of(outcome.result),
        score=min(max(outcome.score, 0.0), 1.0),
        answer=answer_text(outcome.answer["text"] if is_interview else outcome.answer),
        seed=session.seed,
        hints_used=outcome.hints_used,
        seconds=outcome.elapsed_s,
        confidence=CONFIDENCE_LEVEL[outcome.confidence],
        rubric_ticks=ticks,
        mode=mode,
        required_missed=bool(rubric and rubric.missed_required),
        misconception_ticked=bool(rubric and rubric.misconceptions),
        bonus_hit=bool(rubric and rubric.bonus),
        # an interview answer is typed at length: "slow" means nothing there
        slow_after_seconds=None if is_interview else DEFAULT_SLOW_SECONDS,
    )


def grade_answer(
    session: QuestionSession,
    question,
    answer: Any,
    *,
    confidence: str,
    lang: str,
    grade: Callable[..., tuple[Result, RubricOutcome | None]],
    now: float | None = None,
) -> Outcome:
    """Grade `answer` and remember the outcome on the session (not recorded yet).

    `grade(question, answer, lang=, seed=)` is `grade` below (the bank's grading, or the
    rubric for interview answers).
    """
    if confidence not in CONFIDENCES:
        raise ValueError(f"confidence must be one of {CONFIDENCES}, got {confidence!r}")
    result, rubric = grade(question, answer, lang=lang, seed=session.seed)
    elapsed = (time.monotonic() if now is None else now) - session.started_at
    outcome = Outcome(
        result=result,
        answer=answer,
        rubric=rubric,
        confidence=confidence,
        hints_used=session.hints_shown,
        elapsed_s=round(max(elapsed, 0.0), 3),
    )
    session.outcomes.append(outcome)
    return outcome


def record_outcome(session: QuestionSession, question, outcome: Outcome, *,
                   record: Callable[[Any], Any] | None, mode: str = "practice") -> Outcome:
    """Write a graded outcome through `record(new_attempt)` (the store's writer for the learner's
    profile, returning the stored attempt; None: nothing recorded, e.g. no profile)."""
    if record is None:
        return outcome
    stored = record(new_attempt(question, session, outcome, mode=mode))
    recorded = replace(outcome, attempt_id=getattr(stored, "id", stored))
    session.outcomes[session.outcomes.index(outcome)] = recorded
    return recorded


def submit_answer(session: QuestionSession, question, answer: Any, *, confidence: str, lang: str,
                  grade: Callable[..., tuple[Result, RubricOutcome | None]], record: Callable[[Any], Any] | None = None,
                  mode: str = "practice", now: float | None = None) -> Outcome:
    """`grade_answer` then `record_outcome`. (A page may show the verdict in between, so the
    learner does not wait for the database write.)"""
    outcome = grade_answer(session, question, answer, confidence=confidence, lang=lang,
                           grade=grade, now=now)
    return record_outcome(session, question, outcome, record=record, mode=mode)


def rubric_result(question, ticked: Iterable[str]) -> tuple[Result, RubricOutcome]:
    """An interview answer graded by the learner's confirmed ticks (`tutor.interview.grade_ticks`:
    every required point and no misconception is right)."""
    from grader import Result, Verdict
    from tutor.interview import grade_ticks

    ticked = tuple(dict.fromkeys(ticked))
    unknown = sorted(set(ticked) - {p.id for p in question.rubric})
    if unknown:
        raise ValueError(f"unknown rubric points: {', '.join(unknown)}")
    outcome = grade_ticks(question, ticked)
    return Result(Verdict(_value(outcome.verdict)), score=round(outcome.score, 4)), outcome


def grade(question, answer: Any, *, lang: str,
          seed: int | None = None) -> tuple[Result, RubricOutcome | None]:
    """The bank's grading (a generated question against its variant for `seed`), except
    interview answers, which the rubric ticks decide."""
    if _value(question.type) == "interview":
        return rubric_result(question, answer["ticked"])
    from quizbank.grading import grade as grade_question
    from quizbank.variants import variant_for

    variant = variant_for(question, seed) if _value(question.type) == "generated" else None
    return grade_question(question, answer, lang=lang, variant=variant), None


@dataclass
class PracticeRun:
    """A learner's run through questions on one page: what is on screen and what came before."""

    rng: random.Random = field(default_factory=random.Random)
    recent: list[str] = field(default_factory=list)
    current: QuestionSession | None = None
    serial: int = 0

    def open(self, question) -> QuestionSession:
        """Put `question` on screen with a fresh session (new seed, no hints, new widget keys)."""
        self.serial += 1
        self.current = start_question(question, rng=self.rng, serial=self.serial)
        self.recent = (self.recent + [question.id])[-50:]
        return self.current

    def next(self, questions_by_id: dict, ids: Sequence[str]) -> QuestionSession | None:
        """Open a random question among `ids` (avoiding recent ones); None when `ids` is empty."""
        picked = pick_next(ids, recent=self.recent, rng=self.rng)
        if picked is None:
            self.current = None
            return None
        return self.open(questions_by_id[picked])


def next_due(queue: Sequence, known_ids: Iterable[str], *, skip: str | None = None) -> str | None:
    """The first card of the review queue (already in review order) whose question the bank
    still has, other than `skip` (the one just answered)."""
    known = set(known_ids)
    return next((c.question_id for c in queue if c.question_id in known and c.question_id != skip),
                None)
