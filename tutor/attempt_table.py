"""Every learner's attempts as columns, read from the progress store for item analytics.

Only what the statistics need is read (no answer text): one row per attempt, in the order the
attempts were recorded. The answers of one question are read separately, when the instructor opens
its wrong-answer classes (`read_answers`).

A *reveal* is an attempt that ended the question without an answer: the learner pressed "Show
solution" / "I don't know", which records verdict `wrong` with an empty answer. That is the one
definition of a reveal here (`REVEAL_SQL`); change it in this module only.

Imported attempts are left out of everything here (`ANSWERED_HERE_SQL`): an import is a file
anyone can write, so only attempts answered in the app describe how a question behaves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sqlalchemy import and_, false, func, select

from grader import Verdict
from tutor.store.schema import attempts, verdict_from_word

REVEAL_SQL = and_(attempts.c.verdict == Verdict.WRONG, func.trim(attempts.c.answer) == "")
ANSWERED_HERE_SQL = attempts.c.imported.is_(false())


@dataclass(frozen=True)
class AttemptTable:
    """Columns of equal length, one entry per attempt, oldest first."""

    learner: np.ndarray  # int64 profile ids
    question: np.ndarray  # object: question ids
    verdict: np.ndarray  # object: grader.Verdict members (unreadable only on old rows)
    hints: np.ndarray  # int64
    seconds: np.ndarray  # float64
    revealed: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.learner)

    @classmethod
    def from_rows(cls, rows) -> AttemptTable:
        """From (learner, question, verdict, hints, seconds, revealed) tuples."""
        frame = pd.DataFrame.from_records(list(rows), columns=_NAMES, nrows=None)
        return cls(
            learner=frame["learner"].to_numpy(np.int64),
            question=frame["question"].to_numpy(object),
            verdict=_verdicts(frame["verdict"]),
            hints=frame["hints"].to_numpy(np.int64),
            seconds=frame["seconds"].to_numpy(np.float64),
            revealed=frame["revealed"].to_numpy(bool),
        )


_NAMES = ["learner", "question", "verdict", "hints", "seconds", "revealed"]


def _verdicts(words: pd.Series) -> np.ndarray:
    """The stored words as `grader.Verdict` members, in an object array (the driver's cursor
    below bypasses the column type that does this for every other read, and pandas would keep
    the members as plain strings); an unknown word raises UnknownVerdict."""
    codes, distinct = pd.factorize(words)
    members = np.empty(len(distinct), dtype=object)
    members[:] = [verdict_from_word(word) for word in distinct]
    return members[codes]
_QUERY = select(attempts.c.profile_id, attempts.c.question_id, attempts.c.verdict,
                attempts.c.hints_used, attempts.c.seconds, REVEAL_SQL).where(
                    ANSWERED_HERE_SQL).order_by(attempts.c.id)


def _plain_rows(conn) -> list[tuple]:
    # The driver's own cursor: plain tuples, about twice as fast as SQLAlchemy rows for the
    # ~150,000 rows of a class (bench/bench_analytics.py). The query has no parameters.
    sql = str(_QUERY.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
    cursor = conn.connection.driver_connection.cursor()
    try:
        cursor.execute(sql)
        return cursor.fetchall()
    finally:
        cursor.close()


def read_attempt_table(store) -> AttemptTable:
    """All attempts of every profile (the instructor's view of the class)."""
    return AttemptTable.from_rows(store.read(_plain_rows))


@dataclass(frozen=True)
class LearnerAnswer:
    """One typed answer to one question. `learner` is used only to count distinct learners; it is
    never shown next to an answer."""

    learner: int
    answer: str
    verdict: Verdict


def read_answers(store, question_id: str) -> list[LearnerAnswer]:
    """The non-empty answers given to one question, oldest first."""
    query = (select(attempts.c.profile_id, attempts.c.answer, attempts.c.verdict)
             .where(attempts.c.question_id == question_id, func.trim(attempts.c.answer) != "",
                    ANSWERED_HERE_SQL)
             .order_by(attempts.c.id))
    rows = store.read(lambda conn: conn.execute(query).all())
    return [LearnerAnswer(int(r[0]), str(r[1]), r[2]) for r in rows]


def store_version(store) -> tuple[int, int]:
    """(number of attempts answered here, last such attempt's id): changes whenever one is
    recorded or deleted, so a page can cache the statistics on it."""
    query = select(func.count(), func.max(attempts.c.id)).where(ANSWERED_HERE_SQL)
    count, last = store.read(lambda conn: conn.execute(query).one())
    return int(count or 0), int(last or 0)
