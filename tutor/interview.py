"""The mock interview's rules, pure: which questions to ask, what the learner's rubric ticks are
worth, and the history of finished interviews. The interview itself (a timer and a summary around
one `QuestionSession` per question) is `tutor.sessions.interview`.

    pick_questions(bank.questions.values(), n=3, seed=7, recently_seen=...)  # not seen first
    grade_ticks(question, ticked_ids)          # -> RubricOutcome: the one judge of the ticks
    followup_ids(question, bank.questions)     # follow-up questions to show
    add_to_history(history, history_entry(session, summary, finished_at=now))

Grading from the confirmed ticks: all required points and no misconception -> correct; no required
point -> wrong; otherwise partial. Score = required points ticked / required points.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from grader import Verdict

# A question answered within this window comes after the ones not seen in it.
RECENTLY_SEEN_WINDOW = timedelta(days=365)


def _value(x: Any) -> str:
    return str(getattr(x, "value", x))


def rubric_of_kind(question, kind: str) -> list:
    return [p for p in question.rubric if _value(p.kind) == kind]


@dataclass(frozen=True)
class RubricOutcome:
    """What the learner's confirmed ticks say of an interview answer (built by `grade_ticks` only:
    a stored judgement is judged again from its ticks)."""

    verdict: Verdict
    score: float
    missed_required: tuple[str, ...]
    misconceptions: tuple[str, ...]
    bonus: tuple[str, ...]


def grade_ticks(question, ticked: Iterable[str]) -> RubricOutcome:
    """The rubric's judgement of `ticked` (no ticks: every required point missed, as "I don't
    know" is)."""
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


def followup_ids(question, known: Mapping[str, Any] | Iterable[str]) -> list[str]:
    """The question's follow-ups that exist in the bank, in the author's order."""
    ids = set(known)
    return [f for f in question.followups if f in ids]


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


HISTORY_SETTING = "interview_history"  # a profile setting: past interviews, newest first
HISTORY_LENGTH = 30


def history_entry(session, summary, *,
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
