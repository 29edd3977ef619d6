"""cancelled games: an organiser who cancels the game they never confirmed

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02 10:00:00

`game.status` may be 'cancelled': the organiser of a game made on /new declined to confirm it
("Cancel it" in the confirmation email). Nobody was invited; the game is off /me and the
lobby, and its page says it was cancelled.
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0022'
down_revision: str | None = '0021'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _statuses(statuses: str) -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_game_status'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_game_status'),
                                         f"status IN ({statuses})")


def upgrade() -> None:
    _statuses("'inviting', 'active', 'paused', 'finished', 'cancelled'")


def downgrade() -> None:
    # A cancelled game goes back to what it was before this revision: waiting, with its
    # organiser's seat declined.
    op.execute("UPDATE game SET status = 'inviting' WHERE status = 'cancelled'")
    _statuses("'inviting', 'active', 'paused', 'finished'")
