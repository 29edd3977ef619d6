"""robots' moves left to the worker: since when a game's robots have a move to make

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 10:00:00

`game.robots_thinking_since`: set by the command that leaves a strong robot's move to the
worker (a web request or a reply no longer waits for the robots' search), cleared by the
worker's write that plays it. Indexed: the worker asks for these games every second. Games
already waiting for their robots before this revision are left to robots alone (no pending
deadline), which the worker finds as before: nothing to fill in.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0020'
down_revision: str | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('robots_thinking_since', UTCDateTime(), nullable=True))
        batch_op.create_index('ix_game_robots_thinking_since', ['robots_thinking_since'],
                              unique=False)


def downgrade() -> None:
    # A game whose robots still owe a move then waits for the worker's every-second look at
    # games with no pending deadline, or for the next command on it (which plays them).
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_robots_thinking_since')
        batch_op.drop_column('robots_thinking_since')
