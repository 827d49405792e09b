"""Schema 8: `attempts.client_key`, the unique id the app gives an attempt when it is submitted.

An attempt can reach the database twice: written, then replayed from the replica's spool because
the replica died before it noted the write (`tutor/store/spool.py`), or written once by a
connection that broke after the commit and once more by the retry. With the key, the second
write finds the first and changes nothing. Rows written before this revision, and imported ones,
have none (NULL: a unique index allows any number of them).

Frozen: once shipped, never edit this file; add a new revision instead.
"""

from alembic import op
from sqlalchemy import text

revision = "0008"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    conn.execute(text("ALTER TABLE attempts ADD COLUMN client_key VARCHAR(64)"))
    conn.execute(text("CREATE UNIQUE INDEX ix_attempts_client_key ON attempts (client_key)"))
