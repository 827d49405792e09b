"""Schema 4: identities, for a class deployment with login (OpenID Connect).

One row per signed-in person: the identity provider's `issuer` and `subject` (the `sub` claim,
stable for that person at that provider) bound to the one profile made at their first login.
Local profiles (no login) have no row.

Frozen: once shipped, never edit this file; add a new revision instead.
"""

from alembic import op
from sqlalchemy import Column, DateTime, ForeignKey, Integer, MetaData, String, Table

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    meta = MetaData()
    Table("profiles", meta, Column("id", Integer, primary_key=True))  # for the foreign key only
    identities = Table(
        "identities",
        meta,
        Column("issuer", String(255), primary_key=True),
        Column("subject", String(255), primary_key=True),
        Column("profile_id", Integer, ForeignKey("profiles.id", ondelete="CASCADE"),
               nullable=False, unique=True),
        Column("created_at", DateTime, nullable=False),
    )
    identities.create(op.get_bind())
