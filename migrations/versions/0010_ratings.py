"""ratings: a rating per player from rated games, each game's decision once, the leaderboard
opt-out (issue 19)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 09:30:00

Games that finished before this migration are rated by the backfill `pbem db upgrade` runs
afterwards (pbem.scheduler.backfill.backfill_ratings), oldest first, with today's rules.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('on_leaderboard', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.alter_column('on_leaderboard', server_default=None)
    op.create_table('rating',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_rating_player_id_player')),
    sa.PrimaryKeyConstraint('player_id', name=op.f('pk_rating'))
    )
    op.create_table('rated_game',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('counted', sa.Boolean(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_rated_game_game_id_game')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_rated_game'))
    )
    op.create_table('rating_change',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=False),
    sa.Column('sigma_before', sa.Float(), nullable=False),
    sa.Column('mu_after', sa.Float(), nullable=False),
    sa.Column('sigma_after', sa.Float(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'],
                            name=op.f('fk_rating_change_game_id_game')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                            name=op.f('fk_rating_change_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_rating_change'))
    )


def downgrade() -> None:
    op.drop_table('rating_change')
    op.drop_table('rated_game')
    op.drop_table('rating')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('on_leaderboard')
