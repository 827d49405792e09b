"""Sign-ins ended by "Sign out", kept in the database so that every replica refuses them.

    end_sign_in(store, sign_in.key, until=sign_in.ends_at)   # at sign-out
    sign_in_ended(store, sign_in.key)                        # on every run: True once signed out

Only a hash of the sign-in is kept (`tutor.sign_ins.SignIn.key`), until the time the sign-in
would have ended by age anyway; older rows are deleted when another sign-out is written.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from tutor.store.database import Database
from tutor.store.progress import utc_now
from tutor.store.schema import revoked_sign_ins


def end_sign_in(store: Database, key: str, *, until: datetime,
                now: datetime | None = None) -> bool:
    """Record that the sign-in `key` is over (idempotent: a second sign-out changes nothing).
    True once it is recorded; a store that cannot record it raises (`TutorError`)."""
    moment = now or utc_now()

    def work(conn: Connection) -> None:
        conn.execute(delete(revoked_sign_ins).where(revoked_sign_ins.c.expires_at < moment))
        found = conn.execute(select(revoked_sign_ins.c.key)
                             .where(revoked_sign_ins.c.key == key)).first()
        if found is None:
            conn.execute(revoked_sign_ins.insert().values(
                key=key, revoked_at=moment, expires_at=max(until, moment)))

    # Keyed by the sign-in: two replicas ending the same one at once queue, not collide.
    store.write(work, lock_key=_lock_of(key))
    return True


def sign_in_ended(store: Database, key: str) -> bool:
    query = select(revoked_sign_ins.c.key).where(revoked_sign_ins.c.key == key)
    return store.read(lambda conn: conn.execute(query).first() is not None)


def _lock_of(key: str) -> int:
    # PostgreSQL advisory lock keys are 32-bit; the profile locks use small positive ids, so the
    # sign-out locks take negative ones.
    return -1 - int(key[:7], 16)
