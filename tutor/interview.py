"""Mock interview: a timed run over interview questions, as a pure state machine.

    session = start_interview(bank.questions.values(), n=3, now=now, seed=7,
                              recently_seen=store.recent_question_ids(
                                  pid, since=recently_seen_since(now)))
    session = session.submit_answer(question, "typed answer", confidence=2, now=now,
                                    record=record)   # -> REVEAL (recorded, unassessed)
    session.current.suggested                 # rubric ids suggested by keyword matching
    session = session.confirm_ticks(question, ticked_ids, now=now, record=record)     # -> FOLLOWUPS
    session = session.skip(question, now=now, record=record)   # "I don't know": ANSWER -> FOLLOWUPS
    followup_ids(question, bank.questions)    # follow-up questions to show
    session = session.next(now)               # -> ANSWER of the next question, or DONE
    summarize(session, bank.questions)        # missed required points, questions to practise
    InterviewSession.from_dict(session.to_dict())   # a draft that survives a reload

Every step returns a new session (frozen dataclasses: safe in `st.session_state`, easy to test).
The clock is an argument (wall-clock time: a reload or a server restart does not stop it); when the
time limit has passed, the answer being typed is still taken, and `next` ends the interview.
`record` is any callable taking a `tutor.store.NewAttempt` (e.g.
`lambda a: store.record_attempt(profile_id, a)`); what it returns (the stored attempt) gives the
run its rating and when the question comes back, which a right answer may change
(`rerate`). The model answer is the solution: the answer is recorded when it is shown, unassessed
(a failure until ticked), and the confirmed ticks assess that same attempt, so an interview left
at REVEAL (finished early, abandoned) does not leave the question fresh for Practice.

Grading from the confirmed ticks: all required points and no misconception -> correct; no required
point -> wrong; otherwise partial. Score = required points ticked / required points.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from grader import Verdict
from tutor.interview_match import suggest_ticks
from tutor.rating import CONFIDENCE_LEVELS, Mode
from tutor.review import rating_choices
from tutor.store.records import NewAttempt

DEFAULT_SECONDS_PER_QUESTION = 300.0
# A question answered within this window comes after the ones not seen in it.
RECENTLY_SEEN_WINDOW = timedelta(days=365)


class Stage(StrEnum):
    ANSWER = "answer"
    REVEAL = "reveal"
    FOLLOWUPS = "followups"
    DONE = "done"


class InterviewStateError(ValueError):
    """A step asked for in the wrong stage, or for another question than the current one."""


def _value(x: Any) -> str:
    return str(getattr(x, "value", x))


def rubric_of_kind(question, kind: str) -> list:
    return [p for p in question.rubric if _value(p.kind) == kind]


@dataclass(frozen=True)
class RubricOutcome:
    verdict: Verdict
    score: float
    missed_required: tuple[str, ...]
    misconceptions: tuple[str, ...]
    bonus: tuple[str, ...]


def grade_ticks(question, ticked: Iterable[str]) -> RubricOutcome:
    ticks = set(ticked)
    required = [p.id for p in rubric_of_kind(question, "required")]
    hit = [r for r in required if r in ticks]
    misconceptions = tuple(p.id for p in rubric_of_kind(question, "misconception") if p.id in ticks)
    bonus = tuple(p.id for p in rubric_of_kind(question, "bonus") if p.id in ticks)
    if len(hit) == len(required) and not misconceptions:
        verdict = Verdict.CORRECT
    elif not hit:
        verdict = Verdict.WRONG
    else:
        verdict = Verdict.PARTIAL
    score = len(hit) / len(required) if required else 0.0
    missed = tuple(r for r in required if r not in ticks)
    return RubricOutcome(verdict, score, missed, misconceptions, bonus)


@dataclass(frozen=True)
class QuestionRun:
    """One question of the interview, as far as it got, and what the store recorded."""

    question_id: str
    answer: str = ""
    confidence: int | None = None
    seconds: float = 0.0
    suggested: tuple[str, ...] = ()
    ticked: tuple[str, ...] = ()
    outcome: RubricOutcome | None = None
    skipped: bool = False  # "I don't know": recorded as a failure
    timed_out: bool = False  # submitted by the clock at 00:00 (as typed then, or skipped if empty)
    attempt_id: int | None = None
    # the key of the answer recorded as the model answer was shown (the ticks assess it by key:
    # while the database is away it waits in the spool, without a row id)
    unassessed_key: str | None = None
    rating: int | None = None
    due: datetime | None = None  # when the question comes back
    choices: tuple[tuple[int, datetime], ...] = ()  # ratings the learner may switch to, and due


@dataclass(frozen=True)
class InterviewSession:
    question_ids: tuple[str, ...]
    started_at: datetime
    time_limit_seconds: float
    index: int = 0
    stage: Stage = Stage.ANSWER
    shown_at: datetime | None = None  # when the current question was shown
    runs: tuple[QuestionRun, ...] = field(default=())

    # ---- reading ----------------------------------------------------------------------------
    @property
    def current_id(self) -> str | None:
        return None if self.stage is Stage.DONE else self.question_ids[self.index]

    @property
    def current(self) -> QuestionRun | None:
        """The run of the current question once answered (REVEAL / FOLLOWUPS), else None."""
        if self.stage in (Stage.REVEAL, Stage.FOLLOWUPS):
            return self.runs[-1]
        return None

    def time_left(self, now: datetime) -> float:
        return max(0.0, self.time_limit_seconds - (now - self.started_at).total_seconds())

    def expired(self, now: datetime) -> bool:
        return self.time_left(now) <= 0.0

    # ---- steps ------------------------------------------------------------------------------
    def _expect(self, stage: Stage, question=None) -> None:
        if self.stage is not stage:
            raise InterviewStateError(f"expected stage {stage.value}, the session is at {self.stage.value}")
        if question is not None and question.id != self.current_id:
            raise InterviewStateError(f"question {question.id} is not the current {self.current_id}")

    def submit_answer(
        self, question, text: str, *, confidence: int | None, now: datetime,
        record: Callable[[NewAttempt], Any] | None = None,
    ) -> InterviewSession:
        """ANSWER -> REVEAL: keep the typed answer, record it unassessed (the model answer is
        about to be shown) and suggest rubric ticks from it."""
        self._expect(Stage.ANSWER, question)
        if confidence is not None and confidence not in CONFIDENCE_LEVELS:
            raise ValueError(f"confidence {confidence!r} is not one of {CONFIDENCE_LEVELS}")
        shown = self.shown_at or self.started_at
        run = QuestionRun(
            question_id=question.id,
            answer=text,
            confidence=confidence,
            seconds=max(0.0, (now - shown).total_seconds()),
            suggested=suggest_ticks(question.rubric, text),
        )
        held = replace(attempt_for(replace(run, outcome=grade_ticks(question, ()))),
                       verdict=Verdict.WRONG, score=0.0, unassessed=True, key=uuid.uuid4().hex)
        if record is not None:
            record(held)
            run = replace(run, unassessed_key=held.key)
        return replace(self, stage=Stage.REVEAL, runs=(*self.runs, run))

    def confirm_ticks(
        self,
        question,
        ticked: Iterable[str],
        *,
        now: datetime,
        record: Callable[[NewAttempt], Any] | None = None,
    ) -> InterviewSession:
        """REVEAL -> FOLLOWUPS: grade from the learner's confirmed ticks and record the attempt."""
        self._expect(Stage.REVEAL, question)
        known = {p.id for p in question.rubric}
        ticks = tuple(dict.fromkeys(t for t in ticked))
        unknown = [t for t in ticks if t not in known]
        if unknown:
            raise ValueError(f"rubric ids {unknown} are not in question {question.id}")
        run = replace(self.runs[-1], ticked=ticks, outcome=grade_ticks(question, ticks))
        run = _recorded(run, record)
        return replace(self, stage=Stage.FOLLOWUPS, runs=(*self.runs[:-1], run))

    def skip(self, question, *, now: datetime,
             record: Callable[[NewAttempt], Any] | None = None) -> InterviewSession:
        """ANSWER -> FOLLOWUPS: "I don't know". Recorded as a failure (no key point covered)."""
        self._expect(Stage.ANSWER, question)
        shown = self.shown_at or self.started_at
        run = QuestionRun(question_id=question.id, seconds=max(0.0, (now - shown).total_seconds()),
                          outcome=grade_ticks(question, ()), skipped=True)
        return replace(self, stage=Stage.FOLLOWUPS, runs=(*self.runs, _recorded(run, record)))

    def time_up(self, question, text: str, *, confidence: int | None, now: datetime,
                record: Callable[[NewAttempt], Any] | None = None) -> InterviewSession:
        """ANSWER at 00:00: the answer as typed is kept and submitted (REVEAL, ticks still to
        confirm); with nothing typed the question is recorded as not known (FOLLOWUPS). Either
        run is marked `timed_out`, so the page can say the clock submitted it."""
        self._expect(Stage.ANSWER, question)
        if text.strip():
            moved = self.submit_answer(question, text, confidence=confidence, now=now,
                                       record=record)
        else:
            moved = self.skip(question, now=now, record=record)
        run = replace(moved.runs[-1], timed_out=True)
        return replace(moved, runs=(*moved.runs[:-1], run))

    def rerate(self, rating: int, rerate: Callable[[int, int], Any]) -> InterviewSession:
        """After a right answer: schedule the card with the rating the learner chose instead
        (`rerate(attempt_id, rating)` returns the card as now scheduled, or None when it could
        not: the session is then unchanged)."""
        self._expect(Stage.FOLLOWUPS)
        run = self.runs[-1]
        if run.attempt_id is None or rating not in dict(run.choices):
            raise InterviewStateError(f"rating {rating} is not offered for this answer")
        card = rerate(run.attempt_id, rating)
        if card is None:  # the store refused (the writer said why)
            return self
        run = replace(run, rating=int(rating), due=card.due)
        return replace(self, runs=(*self.runs[:-1], run))

    @property
    def last_question(self) -> bool:
        return self.index + 1 >= len(self.question_ids)

    def next(self, now: datetime) -> InterviewSession:
        """FOLLOWUPS -> the next question's ANSWER, or DONE after the last or when time is up."""
        self._expect(Stage.FOLLOWUPS)
        if self.last_question or self.expired(now):
            return replace(self, stage=Stage.DONE)
        return replace(self, index=self.index + 1, stage=Stage.ANSWER, shown_at=now)

    def finish(self) -> InterviewSession:
        """Stop early (the learner ends it); an answer not yet confirmed is not counted."""
        runs = tuple(r for r in self.runs if r.outcome is not None)
        return replace(self, stage=Stage.DONE, runs=runs)

    # ---- drafts -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the draft that brings a running interview back after a reload."""
        return {
            "question_ids": list(self.question_ids),
            "started_at": self.started_at.isoformat(),
            "time_limit_seconds": self.time_limit_seconds,
            "index": self.index,
            "stage": self.stage.value,
            "shown_at": None if self.shown_at is None else self.shown_at.isoformat(),
            "runs": [_run_to_dict(r) for r in self.runs],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InterviewSession:
        """The session `to_dict` wrote; ValueError when the data is not one."""
        try:
            return cls(
                question_ids=tuple(str(q) for q in data["question_ids"]),
                started_at=datetime.fromisoformat(data["started_at"]),
                time_limit_seconds=float(data["time_limit_seconds"]),
                index=int(data["index"]),
                stage=Stage(data["stage"]),
                shown_at=None if data["shown_at"] is None else datetime.fromisoformat(data["shown_at"]),
                runs=tuple(_run_from_dict(r) for r in data["runs"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not an interview session: {exc!r}") from None


def _recorded(run: QuestionRun, record: Callable[[NewAttempt], Any] | None) -> QuestionRun:
    """Record the run's attempt and keep what the store decided (rating, when it comes back)."""
    stored = None if record is None else record(attempt_for(run))
    if stored is None or not hasattr(stored, "rating"):
        return run
    card = getattr(stored, "card", None)
    return replace(run, attempt_id=stored.id, rating=stored.rating,
                   due=None if card is None else card.due,
                   choices=rating_choices(stored.rating, getattr(stored, "before", None),
                                          stored.created_at, confidence=stored.confidence))


def _run_to_dict(run: QuestionRun) -> dict[str, Any]:
    out = asdict(run)
    out["due"] = None if run.due is None else run.due.isoformat()
    out["choices"] = [[r, due.isoformat()] for r, due in run.choices]
    return out


def _run_from_dict(data: Mapping[str, Any]) -> QuestionRun:
    outcome = data.get("outcome")
    return QuestionRun(
        question_id=str(data["question_id"]), answer=str(data["answer"]),
        confidence=data.get("confidence"), seconds=float(data["seconds"]),
        suggested=tuple(data["suggested"]), ticked=tuple(data["ticked"]),
        outcome=None if outcome is None else RubricOutcome(
            Verdict(outcome["verdict"]), float(outcome["score"]),
            tuple(outcome["missed_required"]), tuple(outcome["misconceptions"]),
            tuple(outcome["bonus"])),
        skipped=bool(data.get("skipped")), timed_out=bool(data.get("timed_out")),
        attempt_id=data.get("attempt_id"),
        unassessed_key=data.get("unassessed_key"),
        rating=data.get("rating"),
        due=None if data.get("due") is None else datetime.fromisoformat(data["due"]),
        choices=tuple((int(r), datetime.fromisoformat(d)) for r, d in data.get("choices") or ()),
    )


def attempt_for(run: QuestionRun) -> NewAttempt:
    outcome = run.outcome
    if outcome is None:
        raise InterviewStateError("the ticks of this question are not confirmed yet")
    return NewAttempt(
        question_id=run.question_id,
        verdict=outcome.verdict,
        score=outcome.score,
        answer=run.answer,
        seconds=run.seconds,
        confidence=run.confidence,
        rubric_ticks=run.ticked,
        mode=Mode.INTERVIEW,
        required_missed=bool(outcome.missed_required),
        misconception_ticked=bool(outcome.misconceptions),
        bonus_hit=bool(outcome.bonus),
        slow_after_seconds=None,  # a typed interview answer is long by nature
        assesses=run.unassessed_key,  # the ticks assess the answer recorded with the model answer
    )


def pick_questions(
    questions: Iterable,
    *,
    n: int,
    seed: int,
    topics: Iterable[str] | None = None,
    recently_seen: Iterable[str] = (),
) -> list[str]:
    """Ids of `n` interview questions (of `topics`, when given): not recently seen ones first,
    then the recently seen, each group shuffled by `seed`."""
    wanted = None if topics is None else {_value(t) for t in topics}
    pool = sorted(
        q.id for q in questions
        if _value(q.type) == "interview" and (wanted is None or _value(q.topic) in wanted)
    )
    seen = set(recently_seen)
    rng = random.Random(seed)
    fresh, stale = [q for q in pool if q not in seen], [q for q in pool if q in seen]
    rng.shuffle(fresh)
    rng.shuffle(stale)
    return (fresh + stale)[: max(0, n)]


def recently_seen_since(now: datetime) -> datetime:
    """The start of the recently-seen window: `now` - 365 days. (Not `now.replace(year=...)`,
    which raises on 29 February.)"""
    return now - RECENTLY_SEEN_WINDOW


def start_interview(
    questions: Iterable,
    *,
    n: int,
    now: datetime,
    seed: int,
    topics: Iterable[str] | None = None,
    recently_seen: Iterable[str] = (),
    time_limit_seconds: float | None = None,
) -> InterviewSession:
    picked = pick_questions(questions, n=n, seed=seed, topics=topics, recently_seen=recently_seen)
    if not picked:
        raise ValueError("no interview question matches these topics")
    limit = time_limit_seconds or DEFAULT_SECONDS_PER_QUESTION * len(picked)
    return InterviewSession(tuple(picked), started_at=now, time_limit_seconds=limit, shown_at=now)


def followup_ids(question, known: Mapping[str, Any] | Iterable[str]) -> list[str]:
    """The question's follow-ups that exist in the bank, in the author's order."""
    ids = set(known)
    return [f for f in question.followups if f in ids]


@dataclass(frozen=True)
class MissedPoint:
    question_id: str
    point_id: str
    text: Any  # the rubric point's localized text (`.get(lang)`)


@dataclass(frozen=True)
class InterviewSummary:
    answered: int  # questions answered with some text (not "I don't know", not empty at 00:00)
    correct: int
    missed: tuple[MissedPoint, ...]
    misconceptions: tuple[MissedPoint, ...]
    practise: tuple[str, ...]  # question ids to practise: those with gaps, then their follow-ups
    per_question: tuple[QuestionTime, ...] = ()  # every graded question, in the order asked
    skipped: int = 0  # "I don't know" (or nothing typed at 00:00): recorded, not answered

    @property
    def graded(self) -> int:
        """Questions that reached a result: answered or skipped."""
        return self.answered + self.skipped


@dataclass(frozen=True)
class QuestionTime:
    """One question of a finished interview: its result and the time from being shown to
    the answer (or "I don't know")."""

    question_id: str
    verdict: Verdict  # correct | partial | wrong
    skipped: bool
    timed_out: bool
    seconds: float

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuestionTime:
        """One question of a stored history entry (`history_entry`); ValueError for a verdict
        that is not a `grader.Verdict` value, KeyError / TypeError for a malformed entry."""
        return cls(**{**data, "verdict": Verdict(data["verdict"])})


def summarize(session: InterviewSession, questions: Mapping[str, Any]) -> InterviewSummary:
    missed: list[MissedPoint] = []
    wrong_beliefs: list[MissedPoint] = []
    practise: dict[str, None] = {}
    graded = [r for r in session.runs if r.outcome is not None]
    for run in graded:
        question = questions[run.question_id]
        points = {p.id: p for p in question.rubric}
        missed += [MissedPoint(run.question_id, p, points[p].text) for p in run.outcome.missed_required]
        wrong_beliefs += [
            MissedPoint(run.question_id, p, points[p].text) for p in run.outcome.misconceptions
        ]
        if run.outcome.verdict is not Verdict.CORRECT:
            practise[run.question_id] = None
            practise.update(dict.fromkeys(followup_ids(question, questions)))
    correct = sum(r.outcome.verdict is Verdict.CORRECT for r in graded)
    times = tuple(QuestionTime(r.question_id, r.outcome.verdict, r.skipped, r.timed_out,
                               round(r.seconds, 1)) for r in graded)
    skipped = sum(r.skipped for r in graded)
    return InterviewSummary(len(graded) - skipped, correct, tuple(missed), tuple(wrong_beliefs),
                            tuple(practise), per_question=times, skipped=skipped)


HISTORY_SETTING = "interview_history"  # a profile setting: past interviews, newest first
HISTORY_LENGTH = 30


def history_entry(session: InterviewSession, summary: InterviewSummary, *,
                  finished_at: datetime) -> dict[str, Any]:
    """A finished interview as JSON for the profile's history (ids and numbers only: the
    answers themselves are in the attempts)."""
    return {
        "started_at": session.started_at.isoformat(),
        "finished_at": finished_at.isoformat(),
        "time_limit_seconds": session.time_limit_seconds,
        "asked": len(session.question_ids),
        "answered": summary.answered,
        "skipped": summary.skipped,
        "correct": summary.correct,
        "missed": len(summary.missed),
        "misconceptions": len(summary.misconceptions),
        "questions": [asdict(t) for t in summary.per_question],
    }


def add_to_history(history: Any, entry: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The history with `entry` first (at most HISTORY_LENGTH kept); None when an interview
    with the same start is already there (the summary page runs more than once). A history
    that is not a list (an edited export) starts afresh."""
    past = [h for h in history if isinstance(h, dict)] if isinstance(history, list) else []
    if any(h.get("started_at") == entry["started_at"] for h in past):
        return None
    return [dict(entry), *past][:HISTORY_LENGTH]
