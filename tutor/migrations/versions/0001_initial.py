"""Schema 1: profiles, their settings, every attempt, and one FSRS card per (profile, question).

Frozen: once shipped, never edit this file; add a new revision instead. (Written as numbered
migration m0001 before Alembic; same statements.)
"""

from alembic import op
from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> MetaData:
    meta = MetaData()
    Table(
        "profiles",
        meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(80), nullable=False, unique=True),
        Column("created_at", DateTime, nullable=False),
    )
    Table(
        "settings",
        meta,
        Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        Column("key", String(64), nullable=False),
        Column("value", Text, nullable=False),
        PrimaryKeyConstraint("profile_id", "key"),
    )
    Table(
        "attempts",
        meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        Column("question_id", String(200), nullable=False),
        Column("seed", BigInteger, nullable=True),
        Column("answer", Text, nullable=False),
        Column("verdict", String(16), nullable=False),
        Column("score", Float, nullable=False),
        Column("hints_used", Integer, nullable=False),
        Column("seconds", Float, nullable=False),
        Column("confidence", SmallInteger, nullable=True),
        Column("rubric_ticks", Text, nullable=True),
        Column("rating", SmallInteger, nullable=True),
        Column("created_at", DateTime, nullable=False),
        Index("ix_attempts_profile_question", "profile_id", "question_id"),
    )
    Table(
        "cards",
        meta,
        Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        Column("question_id", String(200), nullable=False),
        Column("state", SmallInteger, nullable=False),
        Column("step", Integer, nullable=True),
        Column("stability", Float, nullable=True),
        Column("difficulty", Float, nullable=True),
        Column("due", DateTime, nullable=False),
        Column("last_review", DateTime, nullable=True),
        Column("reps", Integer, nullable=False),
        Column("lapses", Integer, nullable=False),
        Column("last_rating", SmallInteger, nullable=True),
        Column("last_confidence", SmallInteger, nullable=True),
        PrimaryKeyConstraint("profile_id", "question_id"),
        Index("ix_cards_profile_due", "profile_id", "due"),
    )
    return meta


def upgrade() -> None:
    conn = op.get_bind()
    _tables().create_all(conn)
