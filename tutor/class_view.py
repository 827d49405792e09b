"""The Class page's numbers: every learner's activity, mastery by topic, who is stuck, and the
review backlog (pure functions over the store's records; the page only draws them).

Only counted attempts enter (a question visit's first graded try, `AttemptRecord.counted`), as on
the Dashboard: later tries and answers after the solution are practice. Imported attempts do not
enter at all (`answered_here`): an import is a file anyone can write.

- activity: first tries in all and in the last `WINDOW_DAYS` days, active days in that window,
  the last attempt;
- accuracy: correct first tries / first tries;
- stuck: in the last `WINDOW_DAYS` days at least `STUCK_MIN_FAILED` failed first tries (wrong or
  partial) making at least `STUCK_MIN_SHARE` of that window's first tries; `stuck_on` names the
  questions failed most often there;
- due now: review cards due at `now` (the learner's Review backlog).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import NamedTuple

import pandas as pd

from grader import Verdict
from tutor.review import CardState
from tutor.spreadsheet import inert
from tutor.store.records import AttemptRecord, Profile

WINDOW_DAYS = 7
STUCK_MIN_FAILED = 3
STUCK_MIN_SHARE = 0.5
STUCK_ON_SHOWN = 3


@dataclass(frozen=True)
class LearnerHistory:
    """One learner's full records (what the definitions above are stated on)."""

    profile: Profile
    attempts: tuple[AttemptRecord, ...]
    cards: tuple[CardState, ...]


class QuestionTally(NamedTuple):
    """One learner's counted first tries at one question (a tuple: a class has tens of
    thousands, built on every visit of the Class page)."""

    question_id: str
    first_tries: int
    correct: int
    latest_correct: bool  # the newest of them (by time, then id) was right


class RecentTry(NamedTuple):
    """A counted first try inside the window."""

    question_id: str
    correct: bool
    created_at: datetime


@dataclass(frozen=True)
class LearnerActivity:
    """What the Class page needs of one learner at `now`: a summary of their records, small
    enough to read for a whole class at once (`tutor.class_store.load_class` reads it with a few
    aggregate queries; `activity_of` computes it from the records, the reference definition)."""

    profile: Profile
    questions: tuple[QuestionTally, ...]
    recent: tuple[RecentTry, ...]  # oldest first
    last_active: datetime | None  # the last attempt of any kind
    due_now: int


@dataclass(frozen=True)
class LearnerRow:
    profile_id: int
    name: str
    first_tries: int
    correct: int
    accuracy: float | None
    recent_first_tries: int
    recent_failed: int
    active_days: int
    last_active: datetime | None
    questions_seen: int
    due_now: int
    stuck: bool
    stuck_on: tuple[str, ...]


def answered_here(attempts: Iterable[AttemptRecord]) -> tuple[AttemptRecord, ...]:
    """The attempts answered in this app: imported ones are the learner's own record (their
    Dashboard shows them, marked), not evidence an instructor can rely on."""
    return tuple(a for a in attempts if not a.imported)


def _is_right(attempt: AttemptRecord) -> bool:
    return attempt.verdict is Verdict.CORRECT


def learner_label(name: str, profile_id: int, *, bound: bool, email_local: str | None) -> str:
    """How the Class page names a learner: a signed-in learner's profile name is theirs and not
    unique among people (a second Alice's profile is "Alice (2)"), so it is followed by what tells
    them apart: the e-mail's local part their provider verified, else the profile's id. A local
    profile (no sign-in) keeps its name, unique on the machine."""
    if not bound:
        return name
    return f"{name} · {email_local}" if email_local else f"{name} · #{profile_id}"


def window_start(now: datetime) -> datetime:
    if now.tzinfo is None:
        raise ValueError("naive datetime given; pass an aware UTC datetime")
    return now - timedelta(days=WINDOW_DAYS)


def activity_of(history: LearnerHistory, now: datetime) -> LearnerActivity:
    """The summary of one learner's records at `now`."""
    since = window_start(now)
    here = answered_here(history.attempts)
    counted = sorted((a for a in here if a.counted), key=lambda a: (a.created_at, a.id))
    by_question: dict[str, list[AttemptRecord]] = {}
    for a in counted:
        by_question.setdefault(a.question_id, []).append(a)
    return LearnerActivity(
        profile=history.profile,
        questions=tuple(QuestionTally(qid, len(tries), sum(map(_is_right, tries)),
                                      _is_right(tries[-1]))
                        for qid, tries in sorted(by_question.items())),
        recent=tuple(RecentTry(a.question_id, _is_right(a), a.created_at)
                     for a in sorted(counted, key=lambda a: a.id) if since < a.created_at <= now),
        last_active=max((a.created_at for a in here), default=None),
        due_now=sum(c.due <= now for c in history.cards),
    )


def learner_row(activity: LearnerActivity, now: datetime, *, tz: tzinfo = UTC) -> LearnerRow:
    since = window_start(now)
    first_tries = sum(t.first_tries for t in activity.questions)
    correct = sum(t.correct for t in activity.questions)
    recent = [t for t in activity.recent if since < t.created_at <= now]
    failed = [t for t in recent if not t.correct]
    stuck = len(failed) >= STUCK_MIN_FAILED and len(failed) >= STUCK_MIN_SHARE * len(recent)
    most_failed = Counter(t.question_id for t in failed).most_common(STUCK_ON_SHOWN)
    return LearnerRow(
        profile_id=activity.profile.id,
        name=activity.profile.name,
        first_tries=first_tries,
        correct=correct,
        accuracy=correct / first_tries if first_tries else None,
        recent_first_tries=len(recent),
        recent_failed=len(failed),
        active_days=len({t.created_at.astimezone(tz).date() for t in recent}),
        last_active=activity.last_active,
        questions_seen=len(activity.questions),
        due_now=activity.due_now,
        stuck=stuck,
        stuck_on=tuple(qid for qid, _ in most_failed) if stuck else (),
    )


def class_rows(activities: Iterable[LearnerActivity], now: datetime, *,
               tz: tzinfo = UTC) -> list[LearnerRow]:
    """One row per learner: the stuck first, then by due reviews, then by name."""
    rows = [learner_row(a, now, tz=tz) for a in activities]
    return sorted(rows, key=lambda r: (not r.stuck, -r.due_now, r.name))


@dataclass(frozen=True)
class ClassSummary:
    learners: int
    active: int  # with a first try in the window
    stuck: int
    due_now: int  # review backlog of the whole class
    learners_with_due: int


def summarize(rows: Iterable[LearnerRow]) -> ClassSummary:
    rows = list(rows)
    return ClassSummary(
        learners=len(rows),
        active=sum(r.recent_first_tries > 0 for r in rows),
        stuck=sum(r.stuck for r in rows),
        due_now=sum(r.due_now for r in rows),
        learners_with_due=sum(r.due_now > 0 for r in rows),
    )


def class_mastery(activities: Iterable[LearnerActivity],
                  topic_of: Mapping[str, str]) -> pd.DataFrame:
    """Learner x topic: the share of the topic's questions whose latest first try was right
    (the Dashboard's mastery, for every learner); None (no data) where the learner has not
    answered any of the topic's questions yet, which is not the same as 0 (answered, none right).
    Columns: learner, then one per topic id."""
    topics = sorted(set(topic_of.values()))
    size = Counter(topic_of.values())
    records = []
    for activity in activities:
        seen, mastered = Counter(), Counter()
        for tally in activity.questions:
            topic = topic_of.get(tally.question_id)
            if topic is not None:  # questions no longer in the bank are left out
                seen[topic] += 1
                mastered[topic] += tally.latest_correct
        records.append({"learner": activity.profile.name,
                        **{t: mastered[t] / size[t] if seen[t] else None for t in topics}})
    return pd.DataFrame(records, columns=["learner", *topics]).astype(
        {t: "float64" for t in topics})


# The export's columns: stable names for a program reading the file; the header row shows each
# in the instructor's language (`rows_csv(header=...)`), the cells stay machine-readable (ids,
# ISO 8601 UTC times, 0/1, question ids).
CSV_COLUMNS = ("profile_id", "learner", "first_tries", "correct", "accuracy", "first_tries_7d",
               "failed_7d", "active_days_7d", "last_active_utc", "questions_seen", "due_now",
               "stuck", "stuck_on")


def rows_csv(rows: Iterable[LearnerRow], header: Callable[[str], str] = str) -> str:
    """The class as CSV: one row per learner in `CSV_COLUMNS` order; `header(column)` is the
    header row's text for each column (the stable name itself by default)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([header(column) for column in CSV_COLUMNS])
    for r in rows:
        writer.writerow([
            r.profile_id, inert(r.name), r.first_tries, r.correct,
            "" if r.accuracy is None else f"{r.accuracy:.4f}", r.recent_first_tries,
            r.recent_failed, r.active_days,
            "" if r.last_active is None else r.last_active.astimezone(UTC).isoformat(),
            r.questions_seen, r.due_now, int(r.stuck), " ".join(r.stuck_on),
        ])
    return out.getvalue()
