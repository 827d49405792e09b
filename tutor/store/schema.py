"""The tables at the head schema version, for queries (the migrations create them).

Keep in step with `tutor/migrations`; a test compares this against a migrated database.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
)
from sqlalchemy.types import TypeDecorator

from grader import Verdict


class UtcDateTime(TypeDecorator):
    """Aware UTC datetimes in, aware UTC datetimes out; stored naive UTC on every backend.

    SQLite has no time zones, and its stored text compares in time order only when every value is
    in one zone, which the index on (profile_id, due) relies on.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; pass an aware UTC datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC)


class UnknownVerdict(ValueError):
    """The database holds a verdict word that is not a `grader.Verdict` value: a migration (or
    another program) wrote a word this code does not know, and reading on would misfile it."""


def verdict_from_word(word: str) -> Verdict:
    """The `grader.Verdict` a stored word names; UnknownVerdict for any other word."""
    try:
        return Verdict(word)
    except ValueError:
        raise UnknownVerdict(f"the database holds the verdict {word!r}, which is not one of "
                             f"{[v.value for v in Verdict]}") from None


class VerdictColumn(TypeDecorator):
    """A `grader.Verdict` in, the same `Verdict` out; stored as its value (`correct`, ...).

    The one place a verdict becomes a word and back: binding anything but a `Verdict` is a
    TypeError, and reading a word that is not a `Verdict` value raises UnknownVerdict, so a
    renamed stored word fails loudly instead of passing through as a string nobody matches.
    """

    impl = String(16)
    cache_ok = True

    def process_bind_param(self, value: Verdict | None, dialect) -> str | None:
        if value is None:
            return None
        if not isinstance(value, Verdict):
            raise TypeError(f"a verdict column takes a grader.Verdict, not {value!r}")
        return value.value

    def process_result_value(self, value: str | None, dialect) -> Verdict | None:
        return None if value is None else verdict_from_word(value)


metadata = MetaData()

profiles = Table(
    "profiles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False, unique=True),
    Column("created_at", UtcDateTime, nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("profile_id", Integer, primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

attempts = Table(
    "attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("profile_id", Integer, nullable=False),
    Column("question_id", String(200), nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("answer", Text, nullable=False),
    Column("verdict", VerdictColumn, nullable=False),
    Column("score", Float, nullable=False),
    Column("hints_used", Integer, nullable=False),
    Column("seconds", Float, nullable=False),
    Column("confidence", SmallInteger, nullable=True),
    Column("rubric_ticks", Text, nullable=True),
    Column("rating", SmallInteger, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("phase", String(16), nullable=False),
    Column("card_before", Text, nullable=True),
    # the app's own id for the attempt (unique: a replayed attempt is written once)
    Column("client_key", String(64), nullable=True, unique=True),
    # the key of the attempt whose ticks assessed this unassessed interview answer (schema 6)
    Column("assessed_key", String(64), nullable=True, unique=True),
    # an interview answer recorded as its model answer was shown, not yet ticked (schema 5)
    Column("unassessed", Boolean, nullable=False),
    # came in through an import (schema 7): left out of Class and Analytics
    Column("imported", Boolean, nullable=False, default=False),
)

cards = Table(
    "cards",
    metadata,
    Column("profile_id", Integer, primary_key=True),
    Column("question_id", String(200), primary_key=True),
    Column("state", SmallInteger, nullable=False),
    Column("step", Integer, nullable=True),
    Column("stability", Float, nullable=True),
    Column("difficulty", Float, nullable=True),
    Column("due", UtcDateTime, nullable=False),
    Column("last_review", UtcDateTime, nullable=True),
    Column("reps", Integer, nullable=False),
    Column("lapses", Integer, nullable=False),
    Column("last_rating", SmallInteger, nullable=True),
    Column("last_confidence", SmallInteger, nullable=True),
)

drafts = Table(
    "drafts",
    metadata,
    Column("profile_id", Integer, primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)

identities = Table(
    "identities",
    metadata,
    Column("issuer", String(255), primary_key=True),
    Column("subject", String(255), primary_key=True),
    Column("profile_id", Integer, nullable=False, unique=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("instructor", Boolean, nullable=False, default=False),
    Column("email_local", String(255), nullable=True),
)

revoked_sign_ins = Table(
    "revoked_sign_ins",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("revoked_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
)

deletions = Table(
    "deletions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("profile_id", Integer, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=False),
    Column("deleted_by", String(255), nullable=False),
    Column("reason", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
)
