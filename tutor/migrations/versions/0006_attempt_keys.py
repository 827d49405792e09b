"""Schema 6: `attempts.client_key`, the unique id the app gives an attempt when it is submitted,
and `attempts.assessed_key`, the id of the attempt whose ticks assessed the row (schema 5).

An attempt can reach the database twice: written, then replayed from the replica's spool because
the replica died before it noted the write (`tutor/store/spool.py`), or written once by a
connection that broke after the commit and once more by the retry. With the key, the second
write finds the first and changes nothing. Rows written before this revision, and imported ones,
have none (NULL: a unique index allows any number of them). An interview answer's ticks update
the row they assess instead of adding one; that update notes the ticks' key in `assessed_key`, so
a replayed assessment finds its row too.

Frozen: once shipped, never edit this file; add a new revision instead.
"""

from alembic import op
from sqlalchemy import text

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    conn.execute(text("ALTER TABLE attempts ADD COLUMN client_key VARCHAR(64)"))
    conn.execute(text("CREATE UNIQUE INDEX ix_attempts_client_key ON attempts (client_key)"))
    conn.execute(text("ALTER TABLE attempts ADD COLUMN assessed_key VARCHAR(64)"))
    conn.execute(text("CREATE UNIQUE INDEX ix_attempts_assessed_key ON attempts (assessed_key)"))
