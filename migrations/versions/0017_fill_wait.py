"""a /new game's wait for people in its open seats, counted from its organiser's confirmation

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25 10:00:00

A game made on /new may leave seats open; its organiser chooses how long they wait for people
before robots take them. The wait is stored with the game until the organiser confirms it,
when `fill_by` is set from it. Existing games have none: they keep waiting for people, as
they did (their organiser may now start them with robots).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fill_wait_minutes', sa.Integer(), nullable=True))


def downgrade() -> None:
    # A game not yet confirmed loses its wait: it waits for people, as before this revision.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('fill_wait_minutes')
