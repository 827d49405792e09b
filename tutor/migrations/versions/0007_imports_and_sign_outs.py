"""Schema 7: imported attempts marked, and sign-ins ended on the server (issue 23).

- `attempts.imported`: true for an attempt that came in through Dashboard -> Import (a JSON file
  the learner uploads, which anyone can write), false for one answered in this app. Class and
  Analytics count only the latter; the learner's own Dashboard shows both, the imported marked.
  Every existing attempt becomes false: imports before this revision cannot be told apart.
- `revoked_sign_ins`: one row per sign-in ended by "Sign out" (a hash of the identity token's
  issuer, subject, issue time and nonce, never the token), so a copy of the login cookie taken
  before stops working on every replica. `expires_at` is when the sign-in would have ended by age
  anyway; rows past it are deleted.

Frozen: once shipped, never edit this file; add a new revision instead.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("attempts", sa.Column("imported", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    op.create_table(
        "revoked_sign_ins",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("revoked_sign_ins_expires_at", "revoked_sign_ins", ["expires_at"])
