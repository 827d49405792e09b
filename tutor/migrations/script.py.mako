"""Schema ${up_revision}: ${message}

Frozen: once shipped, never edit this file; add a new revision instead.
"""

from alembic import op
${imports if imports else ""}
revision = "${up_revision}"
down_revision = "${down_revision}"
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}
