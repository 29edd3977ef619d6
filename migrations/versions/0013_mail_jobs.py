"""mail jobs: the emails a move calls for, fanned out after its transaction

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23 12:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pbem.store.types

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'mail_job',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq_before', sa.Integer(), nullable=False),
        sa.Column('seq_after', sa.Integer(), nullable=False),
        sa.Column('actor', sa.Integer(), nullable=True),
        sa.Column('echo', sa.Boolean(), nullable=False),
        sa.Column('deadline', pbem.store.types.UTCDateTime(), nullable=True),
        sa.Column('made_at', pbem.store.types.UTCDateTime(), nullable=False),
        sa.Column('fresh', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_mail_job_game_id_game')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_job')),
    )
    with op.batch_alter_table('mail_job', schema=None) as batch_op:
        batch_op.create_index('ix_mail_job_game_id_seq_after', ['game_id', 'seq_after'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('mail_job', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_job_game_id_seq_after')
    op.drop_table('mail_job')
