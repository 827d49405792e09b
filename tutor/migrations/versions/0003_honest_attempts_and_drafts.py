"""Schema 3: honest attempts and drafts.

- `attempts.phase`: `first` (a question visit's first graded try: counted and rated), `retry` (a
  later try before the solution was shown) or `after_reveal` (typed after it). Existing attempts
  become `first`, as they were all counted.
- `attempts.card_before`: the card (JSON) just before a rated attempt moved it, so the learner can
  change Good to Hard or Easy afterwards and the card is scheduled once, with the chosen rating.
- The verdict `error` (an unreadable answer) becomes `unreadable`, the grader's word for it; such
  rows are no longer written and are in neither "Attempts" nor accuracy.
- `drafts`: work in progress per profile (a typed answer, a running mock interview), so a reload
  or a server restart loses nothing.

Frozen: once shipped, never edit this file; add a new revision instead. (Written as numbered
migration m0003 before Alembic; same statements.)
"""

from alembic import op
from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
)

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _drafts() -> MetaData:
    meta = MetaData()
    Table("profiles", meta, Column("id", Integer, primary_key=True))  # for the foreign key only
    Table(
        "drafts",
        meta,
        Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        Column("key", String(64), nullable=False),
        Column("value", Text, nullable=False),
        Column("updated_at", DateTime, nullable=False),
        PrimaryKeyConstraint("profile_id", "key"),
    )
    return meta


def upgrade() -> None:
    conn = op.get_bind()
    conn.execute(text("ALTER TABLE attempts ADD COLUMN phase VARCHAR(16) NOT NULL DEFAULT 'first'"))
    conn.execute(text("ALTER TABLE attempts ADD COLUMN card_before TEXT"))
    conn.execute(text("UPDATE attempts SET verdict = 'unreadable' WHERE verdict = 'error'"))
    meta = _drafts()
    meta.tables["drafts"].create(conn)
