"""A frozen copy of schema 1 (tutor/migrations/m0001_initial.py as first shipped), so the upgrade
test keeps testing the real old layout even if someone edits the migration by mistake."""

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
)

meta = MetaData()
profiles = Table(
    "profiles", meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False, unique=True),
    Column("created_at", DateTime, nullable=False),
)
settings = Table(
    "settings", meta,
    Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
    Column("key", String(64), nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("profile_id", "key"),
)
attempts = Table(
    "attempts", meta,
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
)
cards = Table(
    "cards", meta,
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
)
schema_version = Table("schema_version", meta, Column("version", Integer, nullable=False))
