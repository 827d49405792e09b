"""Schema 8: instructors told apart from learners, and deletions recorded (issue 28).

- `identities.instructor`: whether the person was an instructor (`tutor.roles`) at their latest
  sign-in, so the Class page lists learners only. Every existing identity becomes false (a
  learner) until its next sign-in sets it.
- `identities.email_local`: the part before `@` of the e-mail address the provider verified, at
  the latest sign-in (NULL without a verified address): the Class page tells two learners of
  the same name apart by it.
- `deletions`: one row per learner whose data was deleted (by an instructor on the Class page,
  the operator's `python -m tutor.learner_data delete`, or the retention period): the profile's
  former id, when, by whom, why, and how many attempts went. Nothing else about the person.

Frozen: once shipped, never edit this file; add a new revision instead.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("identities", sa.Column("instructor", sa.Boolean(), nullable=False,
                                          server_default=sa.false()))
    op.add_column("identities", sa.Column("email_local", sa.String(255), nullable=True))
    op.create_table(
        "deletions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer(), nullable=False),
        sa.Column("deleted_at", sa.DateTime(), nullable=False),
        sa.Column("deleted_by", sa.String(255), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
    )
