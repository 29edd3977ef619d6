"""deadlines, worker lease, away dates; seats count timeouts

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-28 10:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

import pbem.store.types

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC = pbem.store.types.UTCDateTime


def upgrade() -> None:
    op.create_table('deadline',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_no', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('turn_seq', sa.Integer(), nullable=False),
    sa.Column('started_at', UTC(), nullable=False),
    sa.Column('due_at', UTC(), nullable=False),
    sa.Column('grace_until', UTC(), nullable=False),
    sa.Column('reminders_sent', sa.Integer(), nullable=False),
    sa.Column('next_reminder_at', UTC(), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('closed_at', UTC(), nullable=True),
    sa.CheckConstraint("kind IN ('pass', 'play', 'moon')", name=op.f('ck_deadline_kind')),
    sa.CheckConstraint("status IN ('pending', 'done', 'expired', 'cancelled')", name=op.f('ck_deadline_status')),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_deadline_game_id_game')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deadline')),
    sa.UniqueConstraint('game_id', 'seat_no', 'turn_seq', name=op.f('uq_deadline_game_id_seat_no_turn_seq'))
    )
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deadline_game_id'), ['game_id'], unique=False)
        batch_op.create_index('ix_deadline_status_next_reminder_at', ['status', 'next_reminder_at'], unique=False)
        batch_op.create_index('ix_deadline_status_grace_until', ['status', 'grace_until'], unique=False)

    op.create_table('worker_lease',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('holder', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('expires_at', UTC(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_worker_lease'))
    )
    op.create_table('away',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('created_at', UTC(), nullable=False),
    sa.CheckConstraint('starts_on <= ends_on', name=op.f('ck_away_dates')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_away_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_away'))
    )
    with op.batch_alter_table('away', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_away_player_id'), ['player_id'], unique=False)

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timeouts_in_row', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('bot_holding', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('bot_holding')
        batch_op.drop_column('timeouts_in_row')
    with op.batch_alter_table('away', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_away_player_id'))
    op.drop_table('away')
    op.drop_table('worker_lease')
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.drop_index('ix_deadline_status_grace_until')
        batch_op.drop_index('ix_deadline_status_next_reminder_at')
        batch_op.drop_index(batch_op.f('ix_deadline_game_id'))
    op.drop_table('deadline')
