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

import pandas as pd

from tutor.dashboard import mastery_by_topic
from tutor.review import CardState
from tutor.spreadsheet import inert
from tutor.store.records import AttemptRecord, Profile

WINDOW_DAYS = 7
STUCK_MIN_FAILED = 3
STUCK_MIN_SHARE = 0.5
STUCK_ON_SHOWN = 3


@dataclass(frozen=True)
class LearnerHistory:
    profile: Profile
    attempts: tuple[AttemptRecord, ...]
    cards: tuple[CardState, ...]


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


def load_class(store) -> list[LearnerHistory]:
    """Every profile with its attempts answered here and its cards, read from the store (oldest
    profile first)."""
    return [LearnerHistory(p, answered_here(store.list_attempts(p.id)), tuple(store.list_cards(p.id)))
            for p in store.list_profiles()]


def learner_row(history: LearnerHistory, now: datetime, *, tz: tzinfo = UTC) -> LearnerRow:
    if now.tzinfo is None:
        raise ValueError("naive datetime given; pass an aware UTC datetime")
    counted = [a for a in history.attempts if a.counted]
    correct = sum(a.verdict == "correct" for a in counted)
    since = now - timedelta(days=WINDOW_DAYS)
    recent = [a for a in counted if since < a.created_at <= now]
    failed = [a for a in recent if a.verdict != "correct"]
    stuck = len(failed) >= STUCK_MIN_FAILED and len(failed) >= STUCK_MIN_SHARE * len(recent)
    most_failed = Counter(a.question_id for a in failed).most_common(STUCK_ON_SHOWN)
    return LearnerRow(
        profile_id=history.profile.id,
        name=history.profile.name,
        first_tries=len(counted),
        correct=correct,
        accuracy=correct / len(counted) if counted else None,
        recent_first_tries=len(recent),
        recent_failed=len(failed),
        active_days=len({a.created_at.astimezone(tz).date() for a in recent}),
        last_active=max((a.created_at for a in history.attempts), default=None),
        questions_seen=len({a.question_id for a in counted}),
        due_now=sum(c.due <= now for c in history.cards),
        stuck=stuck,
        stuck_on=tuple(qid for qid, _ in most_failed) if stuck else (),
    )


def class_rows(histories: Iterable[LearnerHistory], now: datetime, *,
               tz: tzinfo = UTC) -> list[LearnerRow]:
    """One row per learner: the stuck first, then by due reviews, then by name."""
    rows = [learner_row(h, now, tz=tz) for h in histories]
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


def class_mastery(histories: Iterable[LearnerHistory], topic_of: Mapping[str, str]) -> pd.DataFrame:
    """Learner x topic: the share of the topic's questions whose latest first try was right
    (the Dashboard's mastery, for every learner); None (no data) where the learner has not
    answered any of the topic's questions yet, which is not the same as 0 (answered, none right).
    Columns: learner, then one per topic id."""
    records = []
    for history in histories:
        per_topic = mastery_by_topic(history.attempts, topic_of)
        shares = [m if seen else None
                  for m, seen in zip(per_topic["mastery"], per_topic["seen"], strict=True)]
        records.append({"learner": history.profile.name,
                        **dict(zip(per_topic["topic"], shares, strict=True))})
    topics = sorted(set(topic_of.values()))
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
