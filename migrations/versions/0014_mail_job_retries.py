"""mail job retries: a failing job's attempts, last error and back-off; set aside after a bound

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-23 18:30:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pbem.store.types

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('mail_job', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('last_error', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('next_attempt_at', pbem.store.types.UTCDateTime(),
                                      nullable=True))
        batch_op.add_column(sa.Column('set_aside_at', pbem.store.types.UTCDateTime(),
                                      nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('mail_job', schema=None) as batch_op:
        batch_op.drop_column('set_aside_at')
        batch_op.drop_column('next_attempt_at')
        batch_op.drop_column('last_error')
        batch_op.drop_column('attempts')
