"""an index for a game's pending deadlines (read by every move): (game_id, status)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-23 20:30:00

"""
from collections.abc import Sequence

from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.create_index('ix_deadline_game_id_status', ['game_id', 'status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.drop_index('ix_deadline_game_id_status')
