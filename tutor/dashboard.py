"""Dashboard data: pandas DataFrames ready for Altair, from a profile's attempts and cards.

Pure functions of the records (and of `now` and the learner's time zone); `dashboard_data` reads
them from the store. Definitions:

- an attempt is a question visit's first graded try (`AttemptRecord.counted`): later tries before
  the solution was shown, answers typed after it, and unreadable answers (rows written before
  those stopped being recorded) are history, in neither the attempt counts nor accuracy;
- accuracy = correct / graded attempts;
- a question is *mastered* when its latest graded attempt is correct; a topic's mastery is
  mastered questions / questions of that topic in the bank (`topic_of` maps question id -> topic;
  attempts at questions no longer in the bank are left out);
- reviews due: cards due by the end of each day, day 0 = today including anything overdue;
- calibration: for each confidence level (1 guessing, 2 unsure, 3 sure), the share correct;
- the attempt table lists every recorded answer (retries and answers after the solution too,
  marked by phase), newest first; per-question history counts attempts as above, with the first
  counted try's verdict, the latest one's and when the card comes back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

import pandas as pd

from grader import Verdict
from tutor.rating import CONFIDENCE_LEVELS
from tutor.review import CardState
from tutor.store.records import AttemptRecord


def _frame(attempts: Iterable[AttemptRecord], tz: tzinfo) -> pd.DataFrame:
    rows = [
        {
            "question_id": a.question_id,
            "day": pd.Timestamp(a.created_at.astimezone(tz).date()),
            "created_at": a.created_at,
            "id": a.id,
            "graded": True,
            "correct": a.verdict is Verdict.CORRECT,
            "confidence": a.confidence,
        }
        for a in attempts
        if a.counted
    ]
    columns = ["question_id", "day", "created_at", "id", "graded", "correct", "confidence"]
    return pd.DataFrame(rows, columns=columns)


def _accuracy(correct: pd.Series, graded: pd.Series) -> pd.Series:
    return (correct / graded.where(graded > 0)).astype("float64")


def daily_activity(attempts: Iterable[AttemptRecord], *, tz: tzinfo = UTC) -> pd.DataFrame:
    """One row per day with attempts: day, attempts, graded, correct, accuracy (NaN if none graded)."""
    frame = _frame(attempts, tz)
    out = (
        frame.groupby("day")
        .agg(attempts=("id", "size"), graded=("graded", "sum"), correct=("correct", "sum"))
        .reset_index()
        .astype({"attempts": "int64", "graded": "int64", "correct": "int64"})
    )
    out["accuracy"] = _accuracy(out["correct"], out["graded"])
    return out


def mastery_by_topic(
    attempts: Iterable[AttemptRecord], topic_of: Mapping[str, str], *, tz: tzinfo = UTC
) -> pd.DataFrame:
    """One row per topic of the bank: questions, seen, mastered, attempts, accuracy, mastery."""
    frame = _frame(attempts, tz)
    frame = frame[frame["graded"] & frame["question_id"].isin(list(topic_of))].copy()
    frame["topic"] = frame["question_id"].map(topic_of)
    latest = frame.sort_values(["created_at", "id"]).groupby("question_id").tail(1)
    per_topic = pd.DataFrame({"topic": sorted(set(topic_of.values()))})
    counts = pd.Series(list(topic_of.values())).value_counts()
    per_topic["questions"] = per_topic["topic"].map(counts).astype("int64")
    per_topic["seen"] = per_topic["topic"].map(frame.groupby("topic")["question_id"].nunique())
    per_topic["mastered"] = per_topic["topic"].map(latest.groupby("topic")["correct"].sum())
    per_topic["attempts"] = per_topic["topic"].map(frame.groupby("topic").size())
    per_topic["correct"] = per_topic["topic"].map(frame.groupby("topic")["correct"].sum())
    for column in ("seen", "mastered", "attempts", "correct"):
        per_topic[column] = per_topic[column].fillna(0).astype("int64")
    per_topic["accuracy"] = _accuracy(per_topic["correct"], per_topic["attempts"])
    per_topic["mastery"] = (per_topic["mastered"] / per_topic["questions"]).astype("float64")
    return per_topic.drop(columns="correct")


def _end_of_day(now: datetime, tz: tzinfo, days_ahead: int) -> datetime:
    local = now.astimezone(tz)
    midnight = datetime(local.year, local.month, local.day, tzinfo=tz)
    return midnight + timedelta(days=days_ahead + 1)


def reviews_due(
    cards: Iterable[CardState], now: datetime, *, days: int = 7, tz: tzinfo = UTC
) -> pd.DataFrame:
    """Rows for today and the next `days` days: day, due (cards falling due that day; today
    includes overdue cards)."""
    cards = list(cards)
    rows, previous_end = [], None
    for ahead in range(days + 1):
        end = _end_of_day(now, tz, ahead)
        count = sum(1 for c in cards if c.due < end and (previous_end is None or c.due >= previous_end))
        rows.append({"day": pd.Timestamp(end.date() - timedelta(days=1)), "due": count})
        previous_end = end
    return pd.DataFrame(rows, columns=["day", "due"]).astype({"due": "int64"})


def due_summary(cards: Iterable[CardState], now: datetime, *, tz: tzinfo = UTC) -> dict[str, int]:
    """Counts for the headline: due now, due by the end of today, due within the next 7 days."""
    cards = list(cards)
    return {
        "now": sum(c.due <= now for c in cards),
        "today": sum(c.due < _end_of_day(now, tz, 0) for c in cards),
        "next_7_days": sum(c.due < _end_of_day(now, tz, 7) for c in cards),
    }


def calibration(attempts: Iterable[AttemptRecord]) -> pd.DataFrame:
    """One row per confidence level: confidence, attempts (graded), correct, accuracy."""
    frame = _frame(attempts, UTC)
    frame = frame[frame["graded"] & frame["confidence"].notna()]
    grouped = frame.groupby(frame["confidence"].astype("int64"))
    out = pd.DataFrame({"confidence": list(CONFIDENCE_LEVELS)})
    out["attempts"] = out["confidence"].map(grouped.size()).fillna(0).astype("int64")
    out["correct"] = out["confidence"].map(grouped["correct"].sum()).fillna(0).astype("int64")
    out["accuracy"] = _accuracy(out["correct"], out["attempts"])
    return out


def needs_year(moments: Iterable[datetime], *, now: datetime, tz: tzinfo = UTC) -> bool:
    """True when any moment falls outside `now`'s calendar year (then dates show the year: a
    2025 date read in 2026 as "01-19" would pass for this January). Naive moments are calendar
    days already (the charts' day column) and are taken as they are."""
    year = now.astimezone(tz).year
    return any((m if m.tzinfo is None else m.astimezone(tz)).year != year for m in moments)


def date_format(moments: Iterable[datetime], *, now: datetime, tz: tzinfo = UTC,
                time: bool = False) -> str:
    """A strftime pattern for these moments: month-day, with the year unless every one of them
    is in the current year."""
    day = "%Y-%m-%d" if needs_year(moments, now=now, tz=tz) else "%m-%d"
    return f"{day} %H:%M" if time else day


ATTEMPT_COLUMNS = ["id", "created_at", "question_id", "verdict", "phase", "mode", "imported",
                   "confidence", "hints_used", "seconds", "seed", "answer"]


def _frame_keeping_verdicts(rows: list[dict], columns: list[str],
                            verdicts: tuple[str, ...]) -> pd.DataFrame:
    """The rows as a frame whose `verdicts` columns hold the `grader.Verdict` members (pandas
    would store them as plain strings)."""
    frame = pd.DataFrame(rows, columns=columns)
    for column in verdicts:
        frame[column] = pd.Series([row[column] for row in rows], index=frame.index, dtype=object)
    return frame


def attempt_table(attempts: Iterable[AttemptRecord]) -> pd.DataFrame:
    """Every recorded answer, newest first (the dashboard's table; a row opens its answer)."""
    rows = [{c: getattr(a, c) for c in ATTEMPT_COLUMNS} for a in attempts]
    frame = _frame_keeping_verdicts(rows, ATTEMPT_COLUMNS, ("verdict",))
    return frame.sort_values(["created_at", "id"], ascending=False, kind="stable").reset_index(
        drop=True)


HISTORY_COLUMNS = ["question_id", "attempts", "correct", "first_try", "latest", "last_seen",
                   "next_review"]


def question_history(attempts: Iterable[AttemptRecord], cards: Iterable[CardState]) -> pd.DataFrame:
    """One row per question answered (counted attempts only), most recently seen first:
    attempts, correct, the first counted try's verdict, the latest's, last seen, next review
    (the card's due date, None without a card)."""
    due = {c.question_id: c.due for c in cards}
    by_question: dict[str, list[AttemptRecord]] = {}
    for a in sorted((a for a in attempts if a.counted), key=lambda a: (a.created_at, a.id)):
        by_question.setdefault(a.question_id, []).append(a)
    rows = [
        {
            "question_id": qid,
            "attempts": len(tries),
            "correct": sum(a.verdict is Verdict.CORRECT for a in tries),
            "first_try": tries[0].verdict,
            "latest": tries[-1].verdict,
            "last_seen": tries[-1].created_at,
            "next_review": due.get(qid),
        }
        for qid, tries in by_question.items()
    ]
    frame = _frame_keeping_verdicts(rows, HISTORY_COLUMNS, ("first_try", "latest"))
    return frame.sort_values("last_seen", ascending=False, kind="stable").reset_index(drop=True)


@dataclass(frozen=True)
class DashboardData:
    daily: pd.DataFrame
    mastery: pd.DataFrame
    due: pd.DataFrame
    due_counts: dict[str, int]
    calibration: pd.DataFrame
    attempts: pd.DataFrame
    history: pd.DataFrame


def dashboard_data(
    store, profile_id: int, topic_of: Mapping[str, str], now: datetime, *, tz: tzinfo = UTC
) -> DashboardData:
    attempts = store.list_attempts(profile_id)
    cards = store.list_cards(profile_id)
    return DashboardData(
        daily=daily_activity(attempts, tz=tz),
        mastery=mastery_by_topic(attempts, topic_of, tz=tz),
        due=reviews_due(cards, now, tz=tz),
        due_counts=due_summary(cards, now, tz=tz),
        calibration=calibration(attempts),
        attempts=attempt_table(attempts),
        history=question_history(attempts, cards),
    )
