"""Deleting a learner's data, and the record that it happened (issue 28): a school is asked to
delete a student's data, and to say how long it keeps it.

    delete_learner(store, profile_id, by="instructor #3 Lee", reason=Reason.REQUEST)
    purge_inactive(store, timedelta(days=365), by="retention")   # learners idle longer than that
    deletion_log(store)                                           # every deletion, newest first

A deletion removes the profile and everything it owns (`tutor.store.progress.delete_owned`:
attempts, cards, settings, drafts, the identity) and writes one `deletions` row in the same
transaction: the profile's former id, when, by whom, why and how many attempts went; nothing
else about the person. A learner is inactive since the latest of: their profile's creation,
their last attempt, their last saved draft.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from tutor.store.database import GLOBAL_LOCK, Database
from tutor.store.progress import delete_owned, require_profile, utc_now
from tutor.store.records import Profile
from tutor.store.schema import attempts, deletions, drafts, profiles

MAX_BY = 255


class Reason(enum.StrEnum):
    REQUEST = "request"  # an instructor or the operator, asked to
    RETENTION = "retention"  # inactive longer than the retention period


@dataclass(frozen=True)
class Deletion:
    id: int
    profile_id: int
    deleted_at: datetime
    deleted_by: str
    reason: Reason
    attempts: int


def _delete(conn: Connection, profile_id: int, by: str, reason: Reason,
            now: datetime) -> Deletion:
    require_profile(conn, profile_id)
    count = conn.execute(select(func.count()).where(attempts.c.profile_id == profile_id)
                         ).scalar_one()
    delete_owned(conn, profile_id)
    by = by.strip()[:MAX_BY] or "unknown"
    made = conn.execute(insert(deletions).values(profile_id=profile_id, deleted_at=now,
                                                 deleted_by=by, reason=reason.value,
                                                 attempts=count))
    return Deletion(int(made.inserted_primary_key[0]), profile_id, now, by, reason, count)


def delete_learner(store: Database, profile_id: int, *, by: str, reason: Reason = Reason.REQUEST,
                   now: datetime | None = None) -> Deletion:
    """Delete one profile's data and record it; raises ProfileError("not-found") when there is
    no such profile (already deleted: nothing is recorded twice)."""
    moment = now or utc_now()
    return store.write(lambda conn: _delete(conn, profile_id, by, reason, moment),
                       lock_key=(GLOBAL_LOCK, profile_id))


# The latest moment a profile shows activity: made, answered, or a draft saved.
_LAST_ATTEMPT = (select(func.max(attempts.c.created_at))
                 .where(attempts.c.profile_id == profiles.c.id).scalar_subquery())
_LAST_DRAFT = (select(func.max(drafts.c.updated_at))
               .where(drafts.c.profile_id == profiles.c.id).scalar_subquery())


def last_activity(store: Database) -> dict[int, datetime]:
    """Every profile's latest activity (creation, attempt or draft)."""
    query = select(profiles.c.id, profiles.c.created_at, _LAST_ATTEMPT.label("attempt"),
                   _LAST_DRAFT.label("draft"))
    rows = store.read(lambda conn: conn.execute(query).all())
    column = profiles.c.created_at.type  # the stored naive UTC read back as aware
    return {row.id: max(column.process_result_value(m, None) if m.tzinfo is None else m
                        for m in (row.created_at, row.attempt, row.draft) if m is not None)
            for row in rows}


def inactive_since(store: Database, cutoff: datetime) -> list[Profile]:
    """The profiles with no activity after `cutoff`, oldest profile first."""
    idle = {pid for pid, moment in last_activity(store).items() if moment <= cutoff}
    rows = store.read(lambda conn: conn.execute(
        select(profiles).where(profiles.c.id.in_(idle)).order_by(profiles.c.id)).all())
    return [Profile(r.id, r.name, r.created_at) for r in rows]


def purge_inactive(store: Database, period: timedelta, *, by: str,
                   now: datetime | None = None) -> list[Deletion]:
    """Delete (and record) every learner inactive for longer than `period`."""
    if period <= timedelta(0):
        raise ValueError("the retention period must be positive")
    moment = now or utc_now()
    done = []
    for profile in inactive_since(store, moment - period):
        def work(conn: Connection, pid: int = profile.id) -> Deletion | None:
            # Looked at again inside the lock: an answer that came in meanwhile keeps them.
            if conn.execute(select(profiles.c.id).where(profiles.c.id == pid)).first() is None:
                return None
            latest = conn.execute(select(_LAST_ATTEMPT, _LAST_DRAFT, profiles.c.created_at)
                                  .where(profiles.c.id == pid)).one()
            column = profiles.c.created_at.type
            moments = [column.process_result_value(m, None) if m.tzinfo is None else m
                       for m in latest if m is not None]
            if max(moments) > moment - period:
                return None
            return _delete(conn, pid, by, Reason.RETENTION, moment)

        deleted = store.write(work, lock_key=(GLOBAL_LOCK, profile.id))
        if deleted is not None:
            done.append(deleted)
    return done


def deletion_log(store: Database) -> list[Deletion]:
    """Every recorded deletion, newest first."""
    rows = store.read(lambda conn: conn.execute(
        select(deletions).order_by(deletions.c.id.desc())).all())
    column = deletions.c.deleted_at.type
    return [Deletion(r.id, r.profile_id, r.deleted_at if r.deleted_at.tzinfo
                     else column.process_result_value(r.deleted_at, None), r.deleted_by,
                     Reason(r.reason), r.attempts) for r in rows]
