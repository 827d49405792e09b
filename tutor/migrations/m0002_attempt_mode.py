"""Schema 2: where each attempt was made (practice / review / interview), and an index for the
dashboard's per-day history. Existing attempts become `practice`.

Frozen: once shipped, never edit this file; add a new migration instead.
"""

from sqlalchemy import text
from sqlalchemy.engine import Connection


def upgrade(conn: Connection) -> None:
    conn.execute(
        text("ALTER TABLE attempts ADD COLUMN mode VARCHAR(16) NOT NULL DEFAULT 'practice'")
    )
    conn.execute(text("CREATE INDEX ix_attempts_profile_created ON attempts (profile_id, created_at)"))
