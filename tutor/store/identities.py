"""Identities: a signed-in person (OpenID Connect `iss` + `sub`) bound to exactly one profile.

In a class deployment the app never lets anyone choose a profile: the identity provider says who
this is, and this module says which profile that is, making it at the first login.

    profile = profile_for_identity(store, issuer, subject, display_name)   # same one every time
    identity_of(store, profile.id)                                          # (issuer, subject) or None

Each sign-in also records what the Class page needs of the identity (`Seen`): whether the person
is an instructor now (instructors are not listed as learners), and the local part of the e-mail
the provider verified (two learners of the same name are told apart by it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, select, update
from sqlalchemy.engine import Connection

from tutor.store.database import GLOBAL_LOCK, Database
from tutor.store.errors import ProfileError
from tutor.store.progress import clean_profile_name, name_taken, require_profile, utc_now
from tutor.store.records import MAX_PROFILE_NAME, Profile
from tutor.store.schema import identities, profiles

MAX_SUBJECT = 255


MAX_EMAIL_LOCAL = 255


@dataclass(frozen=True)
class Seen:
    """What one sign-in says of the identity, kept for the Class page."""

    instructor: bool = False
    email_local: str | None = None  # before the `@` of a verified address; None without one


def seen_in(claims, *, instructor: bool) -> Seen:
    """From the identity token's claims: the e-mail's local part only when `email_verified` is
    the JSON `true` (an address a user typed could copy another learner's)."""
    email = claims.get("email")
    local = None
    if claims.get("email_verified") is True and isinstance(email, str) and "@" in email:
        local = email.rpartition("@")[0][:MAX_EMAIL_LOCAL] or None
    return Seen(instructor=instructor, email_local=local)


def _check(issuer: str, subject: str) -> None:
    for field, value in (("issuer", issuer), ("subject", subject)):
        if not isinstance(value, str) or not value or len(value) > MAX_SUBJECT:
            raise ValueError(f"identity {field} must be 1..{MAX_SUBJECT} characters")


def _bound_row(conn: Connection, issuer: str, subject: str):
    return conn.execute(select(identities.c.profile_id, identities.c.instructor,
                               identities.c.email_local).where(
        and_(identities.c.issuer == issuer, identities.c.subject == subject))).first()


def _bound(conn: Connection, issuer: str, subject: str) -> Profile | None:
    row = _bound_row(conn, issuer, subject)
    return None if row is None else require_profile(conn, row.profile_id)


def _free_name(conn: Connection, wanted: str) -> str:
    """`wanted`, or `wanted (2)`, `(3)`, ...: profile names are unique, people's names are not."""
    base = clean_profile_name(wanted)[: MAX_PROFILE_NAME - 8]
    name, n = base, 1
    while name_taken(conn, name):
        n += 1
        name = f"{base} ({n})"
    return name


def profile_for_identity(store: Database, issuer: str, subject: str, display_name: str, *,
                         seen: Seen = Seen(), now: datetime | None = None) -> Profile:
    """The profile bound to (issuer, subject), made (named after `display_name`) on first login;
    the identity's `seen` is stored (written only when it changed).

    Idempotent and safe against two first logins at once (two tabs, two replicas): the write
    takes the global lock and looks again before making anything.
    """
    _check(issuer, subject)
    row = store.read(lambda conn: _bound_row(conn, issuer, subject))
    if row is not None:
        if (row.instructor, row.email_local) != (seen.instructor, seen.email_local):
            store.write(lambda conn: conn.execute(
                update(identities).where(identities.c.profile_id == row.profile_id)
                .values(instructor=seen.instructor, email_local=seen.email_local)))
        return store.read(lambda conn: require_profile(conn, row.profile_id))
    moment = now or utc_now()

    def work(conn: Connection) -> Profile:
        again = _bound(conn, issuer, subject)
        if again is not None:
            return again
        try:
            name = _free_name(conn, display_name)
        except ProfileError:  # an empty or unusable display name
            name = _free_name(conn, subject[:40])
        made = conn.execute(profiles.insert().values(name=name, created_at=moment))
        profile_id = made.inserted_primary_key[0]
        conn.execute(identities.insert().values(issuer=issuer, subject=subject,
                                                profile_id=profile_id, created_at=moment,
                                                instructor=seen.instructor,
                                                email_local=seen.email_local))
        return Profile(profile_id, name, moment)

    return store.write(work, lock_key=GLOBAL_LOCK)


def identity_of(store: Database, profile_id: int) -> tuple[str, str] | None:
    query = select(identities.c.issuer, identities.c.subject).where(
        identities.c.profile_id == profile_id)
    row = store.read(lambda conn: conn.execute(query).first())
    return None if row is None else (row.issuer, row.subject)
