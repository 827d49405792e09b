"""Schema 2: where each attempt was made (practice / review / interview), and an index for the
dashboard's per-day history. Existing attempts become `practice`.

Frozen: once shipped, never edit this file; add a new revision instead. (Written as numbered
migration m0002 before Alembic; same statements.)
"""

from alembic import op
from sqlalchemy import text

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    conn.execute(
        text("ALTER TABLE attempts ADD COLUMN mode VARCHAR(16) NOT NULL DEFAULT 'practice'")
    )
    conn.execute(text("CREATE INDEX ix_attempts_profile_created ON attempts (profile_id, created_at)"))
