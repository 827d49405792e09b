"""Schema 5: `attempts.unassessed`, for "only the first try counts" across visits (issue 22).

An interview answer is recorded when its model answer is shown, before the learner ticks the key
points: the learner has seen the answer, so leaving without ticking must not leave the question
fresh. Such a row is `unassessed` (true) and stands as a failure until the ticks assess it
(`ProgressStore.record_attempt` with `NewAttempt.assesses`). Every existing row is assessed.

Frozen: once shipped, never edit this file; add a new revision instead.
"""

from alembic import op
from sqlalchemy import text

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().execute(
        text("ALTER TABLE attempts ADD COLUMN unassessed BOOLEAN NOT NULL DEFAULT false"))
