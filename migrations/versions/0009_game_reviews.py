"""the review of each finished game, and the player's choice to have it

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 08:45:00

Every player has the review on (they may turn it off). Games that ended before this migration
are marked "skipped": the worker reviews only games that end from now on, so nobody gets a
review email for an old game.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTER TABLEs, no batch: rebuilding `player` on SQLite fails once seats refer to
    # players (foreign keys are on). The server default (on) stays: it backfills every player.
    op.add_column('player', sa.Column('review_games', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
    op.create_table('game_review',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('decisions', sa.Integer(), nullable=False),
    sa.Column('cpu_seconds', sa.Float(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.CheckConstraint("status IN ('done', 'skipped', 'failed')", name=op.f('ck_game_review_status')),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_review_game_id_game')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_review'))
    )
    op.create_table('reviewed_decision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_no', sa.Integer(), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('trick_number', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('chosen', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('best', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('cost', sa.Float(), nullable=False),
    sa.Column('samples', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                            name=op.f('fk_reviewed_decision_game_id_game')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_reviewed_decision'))
    )
    with op.batch_alter_table('reviewed_decision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reviewed_decision_game_id'), ['game_id'],
                              unique=False)
    op.execute("INSERT INTO game_review (game_id, status, decisions, cpu_seconds, created_at) "
               "SELECT id, 'skipped', 0, 0.0, created_at FROM game WHERE status = 'finished'")


def downgrade() -> None:
    with op.batch_alter_table('reviewed_decision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reviewed_decision_game_id'))
    op.drop_table('reviewed_decision')
    op.drop_table('game_review')
    # ALTER TABLE ... DROP COLUMN (SQLite >= 3.35 too), not a batch rebuild (see upgrade).
    op.execute("ALTER TABLE player DROP COLUMN review_games")
