"""The class's activity read from the progress store in a few aggregate queries, for the Class
page: per learner and question the counted first tries (`tutor.class_view.QuestionTally`), the
counted first tries in the window, each learner's last attempt and their review cards due now.

The same numbers as `tutor.class_view.activity_of` computes from each learner's full records
(a test checks they agree), without reading and building every attempt of the class: a
300-learner class has over a hundred thousand.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, case, false, func, or_, select

from grader import Verdict
from tutor.attempt_table import ANSWERED_HERE_SQL
from tutor.class_view import (
    LearnerActivity,
    QuestionTally,
    RecentTry,
    learner_label,
    window_start,
)
from tutor.rating import RECORDED_VERDICTS, Phase
from tutor.store.records import Profile
from tutor.store.schema import attempts, cards, identities, profiles

# A counted attempt (`AttemptRecord.counted`) answered here (`tutor.class_view.answered_here`):
# a visit's first graded try.
COUNTED = and_(ANSWERED_HERE_SQL, attempts.c.phase == Phase.FIRST.value,
               attempts.c.verdict.in_(RECORDED_VERDICTS))
_RIGHT = case((attempts.c.verdict == Verdict.CORRECT, 1), else_=0)


# The newest counted try's verdict, without ranking every row (a window over the class's first
# tries cost ~3x this GROUP BY in SQLite): right when the newest right try is later than the
# newest failed one. Both at the same moment is a tie that only the ids break: NULL, settled by
# `_newest_is_right`.
_RIGHT_AT = func.max(case((attempts.c.verdict == Verdict.CORRECT, attempts.c.created_at)))
_FAILED_AT = func.max(case((attempts.c.verdict != Verdict.CORRECT, attempts.c.created_at)))
_NEWEST_RIGHT = case((_FAILED_AT.is_(None), 1), (_RIGHT_AT.is_(None), 0),
                     (_RIGHT_AT > _FAILED_AT, 1), (_RIGHT_AT < _FAILED_AT, 0), else_=None)


def _tallies_query():
    return (select(attempts.c.profile_id, attempts.c.question_id, func.count(),
                   func.sum(_RIGHT), _NEWEST_RIGHT)
            .where(COUNTED)
            .group_by(attempts.c.profile_id, attempts.c.question_id)
            .order_by(attempts.c.profile_id, attempts.c.question_id))


def _newest_is_right(conn, profile_id: int, question_id: str) -> bool:
    """Whether the newest counted try (by time, then id) at the question was right."""
    return conn.execute(select(_RIGHT).where(COUNTED, attempts.c.profile_id == profile_id,
                                             attempts.c.question_id == question_id)
                        .order_by(attempts.c.created_at.desc(), attempts.c.id.desc())
                        .limit(1)).scalar_one() == 1


def _tallies(conn) -> dict[int, list[QuestionTally]]:
    tallies: dict[int, list[QuestionTally]] = {}
    for pid, qid, tries, right, newest_right in conn.execute(_tallies_query()).all():
        if newest_right is None:
            newest_right = _newest_is_right(conn, pid, qid)
        tallies.setdefault(pid, []).append(QuestionTally(qid, tries, right, newest_right == 1))
    return tallies


# Each profile's last attempt answered here, looked up per profile on the (profile_id,
# created_at) index from the newest down (~1 ms for 300 learners; a GROUP BY over the class's
# attempts read every row's `imported` flag: ~60 ms).
_LAST_ACTIVE = (select(attempts.c.created_at)
                .where(attempts.c.profile_id == profiles.c.id, ANSWERED_HERE_SQL)
                .order_by(attempts.c.created_at.desc()).limit(1)
                .correlate(profiles).scalar_subquery())


# The learners: every profile but those of people who were instructors at their latest sign-in,
# each with what tells two of one name apart (`tutor.class_view.learner_label`).
_LEARNERS = (select(profiles, _LAST_ACTIVE.label("last_active"), identities.c.email_local,
                    identities.c.profile_id.label("bound"))
             .outerjoin(identities, identities.c.profile_id == profiles.c.id)
             .where(or_(identities.c.instructor.is_(None), identities.c.instructor == false()))
             .order_by(profiles.c.id))


def load_class(store, now: datetime) -> list[LearnerActivity]:
    """Every learner's activity at `now` (oldest profile first), from one read snapshot;
    instructors are not learners."""
    since = window_start(now)
    profiles_query = _LEARNERS
    # The window's first tries. The profile condition always holds (an attempt's profile exists);
    # it lets SQLite read the window per profile from the (profile_id, created_at) index instead
    # of scanning every attempt (~half the time).
    recent_query = (select(attempts.c.profile_id, attempts.c.question_id, _RIGHT,
                           attempts.c.created_at)
                    .where(COUNTED, attempts.c.created_at > since, attempts.c.created_at <= now,
                           attempts.c.profile_id.in_(select(profiles.c.id)))
                    .order_by(attempts.c.id))
    due_query = (select(cards.c.profile_id, func.count()).where(cards.c.due <= now)
                 .group_by(cards.c.profile_id))

    def read(conn):
        return (conn.execute(profiles_query).all(), _tallies(conn),
                conn.execute(recent_query).all(), conn.execute(due_query).all())

    profile_rows, tallies, recent_rows, due_rows = store.read(read)
    recent: dict[int, list[RecentTry]] = {}
    for pid, qid, right, moment in recent_rows:
        recent.setdefault(pid, []).append(RecentTry(qid, right == 1, moment))
    due = dict(due_rows)
    return [LearnerActivity(Profile(p.id, learner_label(p.name, p.id, bound=p.bound is not None,
                                                        email_local=p.email_local),
                                    p.created_at), tuple(tallies.get(p.id, ())),
                            tuple(recent.get(p.id, ())), p.last_active, int(due.get(p.id, 0)))
            for p in profile_rows]
